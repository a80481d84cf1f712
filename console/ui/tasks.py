"""The one task helper: run a function on the thread pool, get the result on the GUI thread.

Workers never touch widgets: they call a plain function and the result (or the exception)
travels back through a queued signal to callbacks that run in the GUI thread.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot


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
            self._relay.failed.emit(exc, traceback.format_exc())
        else:
            self._relay.succeeded.emit(result)


class TaskRunner(QObject):
    """Runs callables on a private QThreadPool and reports back in the GUI thread.

    Keeps a reference to each job's relay until it reports, so nothing is collected early;
    ``busy_changed`` tells views whether any job is running.
    """

    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, max_threads: int = 2) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._relays: set[_Relay] = set()

    @property
    def busy(self) -> bool:
        return bool(self._relays)

    def run(
        self,
        fn: Callable[[], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException, str], None] | None = None,
    ) -> None:
        """Call ``fn()`` on a worker; then ``on_done(result)`` or ``on_error(exc, tb)``."""
        # a child of the runner: when the window (and with it the runner) is gone, an answer
        # still on its way is dropped with the relay instead of reaching a deleted object
        relay = _Relay(self)
        was_busy = self.busy
        self._relays.add(relay)

        @Slot(object)
        def done(result: object) -> None:
            self._finish(relay)
            on_done(result)

        @Slot(object, str)
        def failed(exc: BaseException, tb: str) -> None:
            self._finish(relay)
            if on_error is not None:
                on_error(exc, tb)

        queued = Qt.ConnectionType.QueuedConnection
        relay.succeeded.connect(done, queued)
        relay.failed.connect(failed, queued)
        if not was_busy:
            self.busy_changed.emit(True)
        self._pool.start(_Job(fn, relay))

    def _finish(self, relay: _Relay) -> None:
        self._relays.discard(relay)
        relay.deleteLater()
        if not self._relays:
            self.busy_changed.emit(False)

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until every job has finished (shutdown and tests)."""
        return bool(self._pool.waitForDone(msecs))
