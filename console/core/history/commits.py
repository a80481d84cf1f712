"""Group commit: the write transactions that threads of one console want at the same moment
are committed together, one ``COMMIT`` for all of them, and the log is synced to disk outside
the journal's lock, one sync for every commit made before it began.

Each thread still gets its own answer only once its own writes are committed, and a durable
job (the default: a pending row) only once they are on disk: a pending row is synced before
its send, however many rows share the commit or the sync. A job that is not durable (an
answer) is written to the log and synced with the next durable job's sync, or when the
journal closes; a power cut before then leaves its row pending, read as "outcome unknown",
never a send without a row. Syncing outside the lock lets the other threads write their
answers and rows meanwhile, where they used to wait for the sync. Where jobs share a group,
each runs in its own savepoint, so one that raises (a refusal of the double-payout guard, a
failed write) takes back its own writes only; a failed ``COMMIT`` fails every job of the
group, and a failed sync the durable job that asked for it (nothing may be sent).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


class _Job(Generic[T]):
    __slots__ = ("commit", "done", "error", "run", "value")

    def __init__(self, run: Callable[[sqlite3.Connection], T]) -> None:
        self.run = run
        self.done = False
        self.commit = 0  # which commit wrote it (the count of commits made by then)
        self.value: T | None = None
        self.error: BaseException | None = None


class GroupCommits:
    """Runs jobs in shared write transactions: ``transaction()`` is the journal's committed
    write transaction, not synced, taken under ``lock`` (the journal's: whoever holds it
    writes every job queued until then); ``sync()`` syncs the journal's log to disk."""

    def __init__(
        self,
        lock: threading.RLock,
        transaction: Callable[[], AbstractContextManager[sqlite3.Connection]],
        sync: Callable[[], None],
    ) -> None:
        self._lock = lock
        self._transaction = transaction
        self._sync = sync
        self._queued: list[_Job[Any]] = []
        self._queue_lock = threading.Lock()
        self._sync_lock = threading.Lock()  # one sync at a time; the next covers the waiting
        self._committed = 0  # commits made (counted under ``lock``)
        self._synced = 0  # commits known to be on disk

    @property
    def unsynced(self) -> bool:
        """Commits were made since the last sync began."""
        return self._synced < self._committed

    def run(self, job: Callable[[sqlite3.Connection], T], *, durable: bool = True) -> T:
        """Run ``job`` inside a committed write transaction (maybe shared with other
        threads' jobs; ``durable``: synced to disk before it returns) and return its value,
        or raise what it raised (or what the sync raised)."""
        (entry,) = self._run_all([job], durable)
        if entry.error is not None:
            raise entry.error
        return cast(T, entry.value)  # the job ran without error: its value

    def run_each(
        self, jobs: Sequence[Callable[[sqlite3.Connection], T]], *, durable: bool = True
    ) -> list[T | BaseException]:
        """Run ``jobs`` in one committed write transaction (with any other threads' jobs
        of the moment), each in its own savepoint, and sync once for all of them
        (``durable``); give each job's value, or what it raised.

        Raises:
            OSError: the sync failed (none of them is on disk for sure).
        """
        return [
            entry.error if entry.error is not None else cast(T, entry.value)
            for entry in self._run_all(jobs, durable)
        ]

    def _run_all(
        self, jobs: Sequence[Callable[[sqlite3.Connection], T]], durable: bool
    ) -> list[_Job[T]]:
        entries = [_Job(job) for job in jobs]
        if not entries:
            return entries
        with self._queue_lock:
            self._queued.extend(entries)
        with self._lock:
            if not entries[-1].done:  # else a thread that held the lock wrote them meanwhile
                with self._queue_lock:
                    group, self._queued = self._queued, []
                self._write(group)
        written = [entry.commit for entry in entries if entry.error is None]
        if durable and written:
            self.synced(max(written))
        return entries

    def synced(self, commit: int) -> None:
        """Return once the ``commit``-th commit is on disk: at once where a sync begun after
        it ended, else after a sync of the log (outside the journal's lock, which other
        threads' writes take meanwhile), which covers every commit made before it began."""
        with self._sync_lock:
            if self._synced >= commit:
                return
            made = self._committed  # each of these returned from COMMIT: its pages are written
            self._sync()
            self._synced = made

    def _write(self, group: list[_Job[Any]]) -> None:
        try:
            with self._transaction() as db:
                if len(group) == 1:  # alone: what it raises takes the transaction back
                    group[0].value = group[0].run(db)
                else:
                    for job in group:
                        db.execute("SAVEPOINT job")
                        try:
                            job.value = job.run(db)
                        except BaseException as exc:  # its own writes only are taken back
                            db.execute("ROLLBACK TO job")
                            job.error = exc
                        db.execute("RELEASE job")
            self._committed += 1
            for job in group:
                job.commit = self._committed
        except BaseException as exc:  # nothing of the group was written
            for job in group:
                job.error = job.error or exc
                job.value = None
        finally:
            for job in group:
                job.done = True
