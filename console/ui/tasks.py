"""The window's one task manager: every piece of background work (sends, status checks,
journal reads, keyring reads, key generation, the local sandbox) runs here.

Workers never touch widgets: they call a plain function and the result (or the exception)
travels back through a queued signal to callbacks that run in the GUI thread. Work is spread
over a few lanes, each a thread pool of its own, so a slow status check never waits behind a
history page, and the journal's readers keep their order.

Nothing is dropped: a failure whose caller gave no error callback is announced through
:attr:`TaskManager.failed` (the window shows it and the log keeps the traceback). Closing is
bounded: :meth:`TaskManager.shutdown` drops work not yet started, waits for what runs for at
most the given time in all, and answers whether everything finished.
"""

from __future__ import annotations

import contextlib
import logging
import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot

log = logging.getLogger(__name__)

# lane -> threads. "journal": the history's reads, one at a time and in order; "send": one
# request that may move money at a time per window; "io": everything else.
LANES = {"send": 2, "journal": 1, "io": 3}


class _Relay(QObject):
    """Lives in the GUI thread; its signals are emitted from the worker (queued delivery)."""

    succeeded = Signal(object)
    failed = Signal(object, str)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self._fn = fn
        self._relay = relay
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self._fn()
        except Exception as exc:  # reported to the GUI thread, never swallowed
            outcome: tuple[bool, Any, str] = (False, exc, traceback.format_exc())
        else:
            outcome = (True, result, "")
        try:
            if outcome[0]:
                self._relay.succeeded.emit(outcome[1])
            else:
                self._relay.failed.emit(outcome[1], outcome[2])
        except RuntimeError:  # whoever asked is gone (a closed dialog): nobody to tell
            pass


class TaskManager(QObject):
    """Runs callables on the lanes' thread pools and reports back in the GUI thread.

    Signals:
        busy_changed: whether any job is running or waiting.
        failed: (plain words, traceback) of a job that had no error callback.
    """

    busy_changed = Signal(bool)
    failed = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pools: dict[str, QThreadPool] = {}
        self._relays: set[_Relay] = set()
        self._closing = False

    @property
    def busy(self) -> bool:
        return bool(self._relays)

    @property
    def closing(self) -> bool:
        return self._closing

    def _pool(self, lane: str) -> QThreadPool:
        if lane not in LANES:
            raise ValueError(f"unknown lane {lane!r}: one of {', '.join(LANES)}")
        pool = self._pools.get(lane)
        if pool is None:
            pool = QThreadPool(self)
            pool.setMaxThreadCount(LANES[lane])
            self._pools[lane] = pool
        return pool

    def run(
        self,
        fn: Callable[[], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException, str], None] | None = None,
        *,
        lane: str = "io",
        owner: QObject | None = None,
    ) -> bool:
        """Call ``fn()`` on a worker of ``lane``; then ``on_done(result)`` or
        ``on_error(exc, tb)`` in the GUI thread (without ``on_error``: :attr:`failed`).

        ``owner``: the object the callbacks belong to; when it is deleted first (a dialog
        closed), the answer is dropped with it. False: the window is closing, nothing runs.
        """
        if self._closing:
            return False
        pool = self._pool(lane)
        relay = _Relay(owner if owner is not None else self)
        was_busy = self.busy
        self._relays.add(relay)
        if owner is not None:  # gone with its owner before answering: no longer running here
            relay.destroyed.connect(lambda *_: self._gone(relay))

        @Slot(object)
        def done(result: object) -> None:
            self._finish(relay)
            on_done(result)

        @Slot(object, str)
        def failed(exc: BaseException, tb: str) -> None:
            self._finish(relay)
            if on_error is not None:
                on_error(exc, tb)
            else:
                log.error("background work failed: %s\n%s", exc, tb)
                self.failed.emit(str(exc) or type(exc).__name__, tb)

        queued = Qt.ConnectionType.QueuedConnection
        relay.succeeded.connect(done, queued)
        relay.failed.connect(failed, queued)
        if not was_busy:
            self.busy_changed.emit(True)
        pool.start(_Job(fn, relay))
        return True

    def _gone(self, relay: _Relay) -> None:
        if relay in self._relays:
            self._relays.discard(relay)
            if not self._relays:
                with contextlib.suppress(RuntimeError):  # the manager itself is being deleted
                    self.busy_changed.emit(False)

    def _finish(self, relay: _Relay) -> None:
        self._gone(relay)
        relay.deleteLater()

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until every job has finished (tests, a batch's end)."""
        deadline = time.monotonic() + msecs / 1000
        for pool in list(self._pools.values()):
            left = max(0, int((deadline - time.monotonic()) * 1000))
            if not pool.waitForDone(left):
                return False
        return True

    def shutdown(self, msecs: int = 10_000) -> bool:
        """Closing: start nothing new, drop work not started yet, wait for running work for
        at most ``msecs`` in all. True when everything finished in time."""
        self._closing = True
        for pool in self._pools.values():
            pool.clear()
        return self.wait(msecs)
