"""Group commit: the write transactions that threads of one console want at the same moment
are committed together, one ``COMMIT`` (one sync to disk) for all of them.

Each thread still gets its own answer only once its own writes are committed: a pending row
is committed before its send, however many rows share the commit. A job is durable (the
default: its ``COMMIT`` is synced to disk before anyone is told) or not (an answer's: written
to the log and synced with the next durable commit, or when the journal closes; a power cut
before then leaves its row pending, read as "outcome unknown", never a send without a row).
A group with one durable job is durable. Where jobs share a group, each runs in its own
savepoint, so one that raises (a refusal of the double-payout guard, a failed write) takes
back its own writes only; a failed ``COMMIT`` fails every job of the group.

Sends are counted from their pending row to their answer (:meth:`GroupCommits.run` with
``opens``, :meth:`GroupCommits.answer`): an answer that comes while other sends of this console
are open is not a transaction of its own but waits in the queue for the next one (the next
pending row's, any read's, the last open send's answer, or the journal's close): one
transaction per row instead of two while a batch runs, the pending rows as durable as ever.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


class _Job(Generic[T]):
    __slots__ = ("done", "durable", "error", "run", "then", "value")

    def __init__(
        self,
        run: Callable[[sqlite3.Connection], T],
        durable: bool,
        then: Callable[[BaseException | None], None] | None = None,
    ) -> None:
        self.run = run
        self.durable = durable
        self.then = then  # a job nobody waits for: told once its group is committed
        self.done = False
        self.value: T | None = None
        self.error: BaseException | None = None


class GroupCommits:
    """Runs jobs in shared write transactions: ``transaction(durable)`` is the journal's
    committed write transaction (``durable``: synced to disk), taken under ``lock`` (the
    journal's: whoever holds it writes every job queued until then)."""

    def __init__(
        self,
        lock: threading.RLock,
        transaction: Callable[[bool], AbstractContextManager[sqlite3.Connection]],
    ) -> None:
        self._lock = lock
        self._transaction = transaction
        self._queued: list[_Job[Any]] = []
        self._queue_lock = threading.Lock()
        self._open = 0  # sends whose pending row is written and whose answer is not

    @property
    def waiting(self) -> bool:
        """Answers wait in the queue for the next transaction."""
        return bool(self._queued)

    def run(
        self, job: Callable[[sqlite3.Connection], T], *, durable: bool = True, opens: bool = False
    ) -> T:
        """Run ``job`` inside a committed write transaction (maybe shared with other
        threads' jobs; ``durable``: synced to disk before it returns) and return its value,
        or raise what it raised. ``opens``: the job writes a pending row, counted as an open
        send until its :meth:`answer`."""
        entry: _Job[T] = _Job(job, durable)
        with self._queue_lock:
            self._queued.append(entry)
        self._write_queued(entry)
        if entry.error is not None:
            raise entry.error
        if opens:
            with self._queue_lock:
                self._open += 1
        return cast(T, entry.value)  # the job ran without error: its value

    def answer(
        self,
        job: Callable[[sqlite3.Connection], object],
        then: Callable[[BaseException | None], None],
    ) -> None:
        """Write an open send's answer (not durable): with the next transaction while other
        sends are open, else now (with whatever waits). ``then`` is told when it is
        committed (None) or failed (the error), in the thread that wrote it."""
        entry: _Job[object] = _Job(job, False, then)
        with self._queue_lock:  # counted and queued together: the last answer writes all
            self._open = max(0, self._open - 1)
            self._queued.append(entry)
            if self._open:
                return
        self._write_queued(entry)

    def flush(self) -> None:
        """Write the answers waiting in the queue, if any."""
        if self._queued:
            self._write_queued(None)

    def _write_queued(self, entry: _Job[Any] | None) -> None:
        group: list[_Job[Any]] = []
        with self._lock:
            if entry is None or not entry.done:  # else a thread wrote it meanwhile
                with self._queue_lock:
                    group, self._queued = self._queued, []
                if group:
                    self._write(group)
        for job in group:  # outside the lock: a listener told of an answer may read
            if job.then is not None:
                job.then(job.error)

    def _write(self, group: list[_Job[Any]]) -> None:
        try:
            with self._transaction(any(job.durable for job in group)) as db:
                if len(group) == 1:  # alone: what it raises takes the transaction back
                    group[0].value = group[0].run(db)
                    return
                for job in group:
                    db.execute("SAVEPOINT job")
                    try:
                        job.value = job.run(db)
                    except BaseException as exc:  # its own writes only are taken back
                        db.execute("ROLLBACK TO job")
                        job.error = exc
                    db.execute("RELEASE job")
        except BaseException as exc:  # nothing of the group was written
            for job in group:
                job.error = job.error or exc
                job.value = None
        finally:
            for job in group:
                job.done = True
