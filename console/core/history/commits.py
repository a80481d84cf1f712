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
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


class _Job(Generic[T]):
    __slots__ = ("done", "durable", "error", "run", "value")

    def __init__(self, run: Callable[[sqlite3.Connection], T], durable: bool) -> None:
        self.run = run
        self.durable = durable
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

    def run(self, job: Callable[[sqlite3.Connection], T], *, durable: bool = True) -> T:
        """Run ``job`` inside a committed write transaction (maybe shared with other
        threads' jobs; ``durable``: synced to disk before it returns) and return its value,
        or raise what it raised."""
        entry: _Job[T] = _Job(job, durable)
        with self._queue_lock:
            self._queued.append(entry)
        with self._lock:
            if not entry.done:  # else a thread that held the lock wrote it meanwhile
                with self._queue_lock:
                    group, self._queued = self._queued, []
                self._write(group)
        if entry.error is not None:
            raise entry.error
        return cast(T, entry.value)  # the job ran without error: its value

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
