"""The history journal: every request, written before it is sent, updated after.

Stored in SQLite (``paths.history_db``, WAL, schema in ``PRAGMA user_version``, see
:mod:`console.core.history.schema`). The path of one send::

    hooks = history.journal("acme-sb", connect_timeout=10, read_timeout=60)
    outcome = Client(transport, hooks).send(prepared)
    # before_send: a "pending" row is committed; after_answer: it gets the outcome

A row still "pending" when its console stopped (crash, kill, power cut) is turned into
"outcome unknown" (``interrupted``) the next time the journal is opened, or when
:meth:`History.recover_interrupted` runs: never a silent gap. A batch writes the pending
rows of its next rows a block at a time (:meth:`History.begin_each`, one transaction and one
sync) and withdraws those it then does not send (:meth:`History.withdraw`: "not sent").
What is stored is masked (:mod:`console.core.history.rows`); keys and secrets are never
stored.

For the pane: :meth:`History.count` and :meth:`History.fetch` over a
:class:`~console.core.history.query.HistoryFilter`, rows as
:class:`~console.core.history.query.HistoryRow`, details with :meth:`History.details`.
Changes are announced to :meth:`History.subscribe` listeners from the writing thread.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from console.core import paths as app_paths
from console.core.history import callback_log
from console.core.history.callback_log import CallbackEvent
from console.core.history.commits import GroupCommits
from console.core.history.interrupted import (
    IN_FLIGHT_MARGIN,
    INTERRUPTED_SUMMARY,
    process_alive,
)
from console.core.history.query import NOT_SENT, PENDING, UNKNOWN, HistoryFilter
from console.core.history.reading import HistoryQueries, sent_before
from console.core.history.rows import (
    answer_columns,
    answered_request,
    masked_request,
    request_columns,
)
from console.core.history.schema import open_database, unavailable
from console.core.spec.status import IN_PROGRESS_STATUSES

if TYPE_CHECKING:
    from console.core.client import Admit, Outcome
    from console.core.prepared import PreparedRequest

Listener = Callable[[str, int], None]


class History(HistoryQueries):
    """The journal. Thread-safe: one connection behind a lock (the GUI thread reads, workers
    and the callback listener write).

    Args:
        path: the database file; ``paths.resolve().history_db`` by default.

    Raises:
        JournalUnavailableError: the journal cannot be opened (a folder at its path, a
            damaged file, a newer schema, a read-only folder, a full disk); its message
            says why, where the file is and what to do. The file is left as it is.
    """

    shared = False  # one person's journal: no team, no approval policy
    claims_in_blocks = True  # begin_each: a batch's next rows in one transaction

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or app_paths.resolve().history_db
        self._db = open_database(self.path)
        self._lock = threading.RLock()
        self._in_flight: set[int] = set()
        self._listeners: list[Listener] = []
        self._counts: dict[HistoryFilter, int] = {}
        self._data_version = -1
        # The connection commits without syncing (``synchronous=NORMAL``); a durable write
        # syncs the log itself after its commit, a group's outside the lock (see .commits).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._commits = GroupCommits(
            self._lock, lambda: self.writing(durable=False), self._sync_log
        )
        self.recovered = self.recover_interrupted()

    def close(self) -> None:
        with self._lock:
            if self._commits.unsynced:  # answers committed since the last sync: on disk first
                self._sync_log()
            self._db.close()

    def _sync_log(self) -> None:
        """Sync the write-ahead log to disk: every commit made before it began is on disk
        once it returns (closing checkpoints it only where no other connection has the
        journal open).

        Raises:
            OSError: the sync failed.
        """
        try:
            with self.path.with_name(f"{self.path.name}-wal").open("r+b") as log:
                # its data, as SQLite syncs it (not the file's times), where the system can
                getattr(os, "fdatasync", os.fsync)(log.fileno())
        except FileNotFoundError:  # checkpointed and removed meanwhile: nothing to sync
            pass

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing shared with the reading and callback halves -------------------------------

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, for reads, under the lock."""
        with self._lock:
            yield self._db

    @contextmanager
    def writing(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """The connection inside a committed ``BEGIN IMMEDIATE`` transaction; ``durable``:
        synced to disk before it returns. Otherwise (a group of batch rows' writes, synced
        outside the lock by :mod:`.commits`) it is in the write-ahead log, on disk with the
        next sync (the log is synced as a whole) or when the journal closes."""
        with self._lock:
            changes = self._db.total_changes
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self._counts.clear()  # data_version only tells of other connections' writes
            if durable and self._db.total_changes != changes:  # it wrote: on disk first
                self._sync_log()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event, id)`` on "added", "changed" (requests) and "callback".

        Listeners run in the thread that wrote; the UI turns them into signals. Returns a
        function that unsubscribes.
        """
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def notify(self, event: str, row_id: int) -> None:
        """Tell listeners about a change written through this journal."""
        for listener in list(self._listeners):
            listener(event, row_id)

    # -- journalling ----------------------------------------------------------------------

    def journal(
        self, environment: str, *, connect_timeout: float = 10.0, read_timeout: float = 60.0
    ) -> JournalHooks:
        """Hooks for ``console.core.client.Client`` that journal each send in ``environment``."""
        return JournalHooks(self, environment, connect_timeout + read_timeout + IN_FLIGHT_MARGIN)

    def begin(
        self,
        environment: str,
        prepared: PreparedRequest,
        *,
        window: float,
        admit: Admit | None = None,
    ) -> int:
        """Commit a pending row for ``prepared`` and return its id (before anything is sent).

        With ``admit``, the check and the claim are one write transaction (``BEGIN
        IMMEDIATE`` locks the file against every other writer, in any process): rows of
        consoles that stopped are taken for interrupted, then ``admit`` gets the earlier
        sends of the order id to this gateway and raises to refuse; otherwise the pending
        row is written before any other process can look.

        Raises:
            JournalUnavailableError: the row could not be written (so nothing may be sent).
            Exception: whatever ``admit`` raised (nothing was written).
        """
        (row_id,) = self.begin_each(environment, [(prepared, admit)], window=window)
        if isinstance(row_id, BaseException):
            raise row_id
        return row_id

    def begin_each(
        self,
        environment: str,
        requests: Sequence[tuple[PreparedRequest, Admit | None]],
        *,
        window: float,
    ) -> list[int | BaseException]:
        """:meth:`begin` of several requests in one write transaction and one sync: each
        request's pending row id, or what refused it (its ``admit``'s error, or a
        :class:`JournalUnavailableError`); a refused request writes nothing, the others
        are written all the same.

        Raises:
            JournalUnavailableError: none of them could be written (a full disk...).
        """
        if any(prepared.signed is None for prepared, _admit in requests):
            raise ValueError("Only signed requests are journalled.")
        lost: list[int] = []
        claims = [self._claim(environment, p, a, window, lost) for p, a in requests]
        try:  # committed with the rows other threads claim at the same moment, then synced
            written = self._commits.run_each(claims)  # before it returns (one sync for all)
        except (sqlite3.Error, OSError) as exc:  # e.g. a full disk: nothing may leave
            raise unavailable(self.path, exc) from exc
        finally:
            for lost_id in lost:
                self.notify("changed", lost_id)
        ids: list[int | BaseException] = [
            unavailable(self.path, row) if isinstance(row, (sqlite3.Error, OSError)) else row
            for row in written
        ]
        for row_id in ids:
            if isinstance(row_id, int):
                self.notify("added", row_id)
        return ids

    def _claim(
        self,
        environment: str,
        prepared: PreparedRequest,
        admit: Admit | None,
        window: float,
        lost: list[int],
    ) -> Callable[[sqlite3.Connection], int]:
        """The write of one pending row (its columns and masked copy made here, before the
        lock is taken); rows found lost on the way are added to ``lost``."""
        columns = request_columns(environment, prepared)
        request_json = json.dumps(masked_request(prepared))

        def claim(db: sqlite3.Connection) -> int:
            if admit is not None:
                lost.extend(self._mark_lost(db))
                order_id = columns["client_orderid"] or ""
                admit(
                    sent_before(db, columns["gateway"], prepared.command, order_id, environment)
                    if order_id
                    else []
                )
            now = timestamp_now()
            columns.update(
                created=now, outcome=PENDING, writer_pid=os.getpid(), deadline=now + window
            )
            names = ", ".join(columns)
            cur = db.execute(
                f"INSERT INTO requests ({names}) VALUES ({', '.join('?' * len(columns))})",  # noqa: S608 (column names are ours)
                list(columns.values()),
            )
            row_id = int(cur.lastrowid or 0)
            db.execute(
                "INSERT INTO request_details (request_id, request_json) VALUES (?, ?)",
                (row_id, request_json),
            )
            self._in_flight.add(row_id)
            return row_id

        return claim

    def withdraw(self, row_ids: Sequence[int], summary: str) -> None:
        """Rows claimed with :meth:`begin_each` whose requests were never handed to the
        network (their batch stopped or paused first): "not sent", with ``summary``
        saying why. Not synced on its own (a power cut before the next sync leaves them
        pending: "outcome unknown", the safe reading)."""
        now = timestamp_now()

        def store(db: sqlite3.Connection) -> None:
            db.executemany(
                "UPDATE requests SET outcome = ?, summary = ?, finished = ?"
                " WHERE id = ? AND outcome = ?",
                [(NOT_SENT, summary, now, row_id, PENDING) for row_id in row_ids],
            )
            self._in_flight.difference_update(row_ids)

        self._commits.run(store, durable=False)
        for row_id in row_ids:
            self.notify("changed", row_id)

    def finish(self, row_id: int, outcome: Outcome) -> None:
        """Store the outcome of the send journalled as ``row_id`` (committed with the
        other threads' writes of the moment; on disk with the next pending row's sync,
        or when the journal closes)."""
        columns, answer = answer_columns(outcome)  # masked and encoded before the lock
        answered = outcome.response is not None  # its nonce is spent: the signature may stay
        if columns.get("final_status"):
            columns["final_status_at"] = timestamp_now()
        answer_json = json.dumps(answer)
        request = answered_request(outcome.prepared, answered=answered)
        request_json = None if request is None else json.dumps(request)
        sets = ", ".join(f"{name} = ?" for name in columns)

        def store(db: sqlite3.Connection) -> None:
            sql = f"UPDATE requests SET {sets} WHERE id = ?"  # noqa: S608 (column names are ours)
            db.execute(sql, [*columns.values(), row_id])
            db.execute(
                "UPDATE request_details SET response_json = ?,"
                " request_json = coalesce(?, request_json) WHERE request_id = ?",
                (answer_json, request_json, row_id),
            )
            self._in_flight.discard(row_id)

        # not synced on its own: with the next pending row's sync, or at close (a power
        # cut before then leaves the row pending: "outcome unknown", the safe reading)
        self._commits.run(store, durable=False)
        self.notify("changed", row_id)

    def recover_interrupted(self) -> list[int]:
        """Mark pending rows whose console stopped as "outcome unknown"; return their ids."""
        with self.writing() as db:
            lost = self._mark_lost(db)
        for row_id in lost:
            self.notify("changed", row_id)
        return lost

    def _mark_lost(self, db: sqlite3.Connection) -> list[int]:
        """Inside a write transaction: pending rows that cannot be in flight any more (their
        console stopped, or their deadline passed) become "outcome unknown"."""
        now = time.time()
        pending = db.execute(
            "SELECT id, writer_pid, deadline FROM requests WHERE outcome = ?", (PENDING,)
        ).fetchall()
        lost = [
            row_id
            for row_id, pid, deadline in pending
            if row_id not in self._in_flight
            and (deadline is None or deadline < now or not process_alive(pid))
        ]
        if lost:  # asked before every claim, and almost always none
            db.executemany(
                "UPDATE requests SET outcome = ?, interrupted = 1, summary = ?"
                " WHERE id = ? AND outcome = ?",
                [(UNKNOWN, INTERRUPTED_SUMMARY, i, PENDING) for i in lost],
            )
        return lost

    def interrupted_count(self) -> int:
        """How many requests were interrupted (outcome unknown) and have no final status yet:
        each still needs a status check before it is sent again, whoever recovered it."""
        with self.reading() as db:
            row = db.execute(
                "SELECT count(*) FROM requests WHERE interrupted = 1 AND outcome = ?"
                " AND final_status IS NULL",
                (UNKNOWN,),
            ).fetchone()
        return int(row[0])

    # -- callbacks ------------------------------------------------------------------------

    def record_callback(
        self, event: CallbackEvent, orders: callback_log.Orders | None = None
    ) -> CallbackEvent:
        """Store a checked callback and apply it when it may change a final status, to the
        sends in ``orders`` (default: this journal's; see
        :mod:`console.core.history.callback_log`); returns it as recorded."""
        return callback_log.record_callback(self, event, orders)

    def order_row(self, environment: str, column: str, value: str) -> callback_log.OrderRow | None:
        """The newest request row (not a status look-up) whose ``column`` (client_orderid
        or gateway_order_id) is ``value``."""
        if column not in ("client_orderid", "gateway_order_id"):
            raise ValueError(f"Not an order column: {column}")
        with self.reading() as db:
            return callback_log.order_row(db, environment, column, value)

    def recent_callbacks(self, limit: int = 1000) -> list[CallbackEvent]:
        """The newest recorded callbacks, oldest first."""
        return callback_log.recent_callbacks(self, limit)

    # -- final status ---------------------------------------------------------------------

    def set_final_status(
        self,
        environment: str,
        client_orderid: str,
        status: str,
        *,
        orderid: str | None = None,
        source: str,
        control: str | None = None,
    ) -> list[int]:
        """Record an order's latest status on the requests that made it; return the ids of
        the rows it changed.

        Matches by environment and ``client_orderid`` (every resend reuses it), and by
        ``orderid`` when both sides know it. Status look-ups themselves are not updated. A
        status of an order not decided yet ("processing", "unknown":
        :data:`~console.core.spec.status.IN_PROGRESS_STATUSES`) never replaces a settled one
        (final, or a later update such as a chargeback): a status answer overtaken by the
        callback says "processing" too late. ``control`` (a callback's code) is for a
        journal that checks callbacks itself (the team's); this one trusts its own listener.
        """
        waiting = json.dumps(sorted(IN_PROGRESS_STATUSES))
        with self.writing() as db:
            ids = [
                r[0]
                for r in db.execute(
                    "SELECT id FROM requests WHERE client_orderid = ? AND environment = ?"
                    " AND command != 'status'"
                    " AND (? IS NULL OR gateway_order_id IS NULL OR gateway_order_id = ?)"
                    " AND NOT (? AND final_status IS NOT NULL"
                    " AND final_status NOT IN (SELECT value FROM json_each(?)))",
                    (
                        client_orderid,
                        environment,
                        orderid,
                        orderid,
                        status in IN_PROGRESS_STATUSES,
                        waiting,
                    ),
                )
            ]
            db.executemany(
                "UPDATE requests SET final_status = ?, final_status_source = ?,"
                " final_status_at = ?, gateway_order_id = coalesce(gateway_order_id, ?)"
                " WHERE id = ?",
                [(status, source, timestamp_now(), orderid, i) for i in ids],
            )
        for row_id in ids:
            self.notify("changed", row_id)
        return ids


class JournalHooks:
    """``before_send``/``after_answer`` for ``console.core.client.Client``.

    ``before_send`` raises when the row cannot be written, so nothing is sent unjournalled.
    ``after_answer`` never raises (the person must still see the answer): a failure is kept in
    :attr:`last_error`, announced as "journal-failed", and the row stays pending, to be
    reported as "outcome unknown".
    """

    def __init__(self, history: History, environment: str, window: float) -> None:
        self.history = history
        self.environment = environment
        self.window = window
        self.last_error: Exception | None = None

    def before_send(self, prepared: PreparedRequest, admit: Admit | None = None) -> int:
        return self.history.begin(self.environment, prepared, window=self.window, admit=admit)

    def before_send_each(
        self, requests: Sequence[tuple[PreparedRequest, Admit | None]]
    ) -> list[int | BaseException]:
        """:meth:`before_send` of several requests in one transaction: each one's row id,
        or what refused it."""
        return self.history.begin_each(self.environment, requests, window=self.window)

    def withdraw(self, records: Sequence[object], summary: str) -> None:
        """Rows written by :meth:`before_send_each` whose requests were never sent."""
        self.history.withdraw([r for r in records if isinstance(r, int)], summary)

    def after_answer(self, record: object, outcome: Outcome) -> None:
        if not isinstance(record, int):
            return
        try:
            self.history.finish(record, outcome)
        except (sqlite3.Error, OSError) as exc:
            self.last_error = exc
            self.history.notify("journal-failed", record)


def timestamp_now() -> float:
    """Unix time rounded to the microsecond, so a datetime made from a row's time compares
    equal to the stored value (filters by time, paging after a row)."""
    return round(time.time(), 6)
