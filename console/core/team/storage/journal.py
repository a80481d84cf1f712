"""The shared journal on PostgreSQL: the methods of the SQLite ``History`` that the send
pipeline, the history pane and the command line use, on one database for the whole team.

Rows are the same (:class:`~console.core.history.HistoryRow`, masked by the same
:mod:`console.core.history.rows`), and so is the path of a send: a "pending" row committed
before anything leaves, the answer after. What differs:

* every row names who sent it (``made_by``) and, for an approved payout, who approved it
  (``approved_by``): :meth:`TeamJournal.people`;
* a row left "pending" by a console that stopped is found by anyone: its database session is
  gone (or its deadline passed), so :meth:`TeamJournal.recover_interrupted` turns it into
  "outcome unknown" for everyone;
* changes from every console arrive through LISTEN/NOTIFY (:meth:`TeamJournal.subscribe`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Container, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from console.core.history import PENDING, HistoryDetail, HistoryFilter, HistoryRow, timestamp_now

# The row's columns, its SQL and its masking are the SQLite journal's: one definition.
from console.core.history.interrupted import IN_FLIGHT_MARGIN, INTERRUPTED_SUMMARY
from console.core.history.query import ORDER_SQL, ROW_SQL, with_parts
from console.core.history.rows import answer_columns, masked_request, request_columns
from console.core.team.errors import ApprovalRefusedError, TeamUnavailableError
from console.core.team.hashing import content_hash
from console.core.team.storage.connections import Connections
from console.core.team.storage.gateways import Target, require_registered
from console.core.team.storage.live import TeamListener
from console.core.team.storage.schema import require_current

if TYPE_CHECKING:
    from console.core.client import Admit, Outcome
    from console.core.prepared import PreparedRequest

Listener = Callable[[str, int], None]
# Rows from before the gateway was recorded are matched by environment; a gateway not at hand
# (None): every row labelled with the environment (for showing, never for the guard).
_SENT_BEFORE_SQL = (
    f"{ROW_SQL} WHERE client_orderid = %s AND command = %s"
    " AND (gateway = %s OR ((%s::text IS NULL OR gateway IS NULL) AND environment = %s))"
    f"{ORDER_SQL}"
)

_SENT_BEFORE_EACH_SQL = _SENT_BEFORE_SQL.replace("client_orderid = %s", "client_orderid = ANY(%s)")


def _pg(sql_with_qmarks: str) -> str:
    """The history's SQL (``?`` placeholders, our column names only) for psycopg."""
    return sql_with_qmarks.replace("?", "%s")


class TeamJournal:
    """The journal on the team database. Thread-safe: each thread uses the database
    through a connection it holds alone meanwhile.

    Args:
        dsn: the team DSN (see :mod:`console.core.team.storage.dsn`).
        connections: how many threads may use the database at once (the sends on their way
            at once: ``--concurrency``); one for a console that sends one at a time.
    """

    shared = True  # the whole team's journal: its approval policies apply
    claims_in_blocks = False  # each row in its own transaction

    def __init__(self, dsn: str, *, connections: int = 1) -> None:
        self.dsn = dsn
        self._connections = Connections(dsn, connections)
        first = self._connections.first
        require_current(first)
        self.user: str = first.execute("SELECT session_user").fetchall()[0][0]
        self._listeners: list[Listener] = []
        self._live: TeamListener | None = None
        self._claims: dict[tuple[str, str, str], int] = {}
        self._hashed: dict[tuple[str, str, str], tuple[PreparedRequest, str]] = {}
        self._binding = threading.Lock()  # the claims of sends on their way, not the database's
        self._hash_key: str | None = None
        self.recovered = self.recover_interrupted()

    def close(self) -> None:
        if self._live is not None:
            self._live.stop()
        self._connections.close()

    def __enter__(self) -> TeamJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A connection of this thread's alone until the block ends."""
        with self._connections.held() as db:
            yield db

    @contextmanager
    def writing(self) -> Iterator[Any]:
        """A connection of this thread's, inside one committed transaction."""
        with self._connections.held() as db, db.transaction():
            yield db

    # -- changes, here and from the rest of the team --------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event, id)`` on "added" and "changed" rows, whoever wrote them
        (other consoles' through LISTEN/NOTIFY, from a listening thread)."""
        self._listeners.append(listener)
        if self._live is None:
            self._live = TeamListener(self.dsn, self._heard, skip=self.backends)
            self._live.start()
        return lambda: self._listeners.remove(listener)

    @property
    def backends(self) -> Container[int]:
        """This journal's database sessions (their notifications are its own writes)."""
        return self._connections.backends

    def _heard(self, kind: str, event: str, row_id: int) -> None:
        if kind == "request":
            self.notify(event, row_id)

    def notify(self, event: str, row_id: int) -> None:
        for listener in list(self._listeners):
            listener(event, row_id)

    # -- journalling ----------------------------------------------------------------------

    def journal(
        self, environment: str, *, connect_timeout: float = 10.0, read_timeout: float = 60.0
    ) -> TeamJournalHooks:
        return TeamJournalHooks(
            self, environment, connect_timeout + read_timeout + IN_FLIGHT_MARGIN
        )

    def bind_submission(
        self, environment: str, prepared: PreparedRequest, order_id: str, sid: int, digest: str
    ) -> None:
        """The next send of this order id carries approved submission ``sid`` (the database
        checks that this person claimed it for exactly this request); ``digest``: the
        content hash of ``prepared`` the claim was made with (slow for card data: the send
        of this very request reuses it)."""
        key = (environment, prepared.command, order_id)
        with self._binding:
            self._claims[key] = sid
            self._hashed[key] = (prepared, digest)

    def bind_batch(
        self, environment: str, command: str, order_ids: Iterable[str], sid: int
    ) -> None:
        """Each next send of these order ids carries batch submission ``sid``."""
        for order_id in order_ids:
            self._claims[(environment, command, order_id)] = sid

    def bound_to(self, environment: str, command: str, order_id: str) -> int | None:
        """The submission the next send of this order id carries (None: none)."""
        return self._claims.get((environment, command, order_id))

    def unbind_submission(self, environment: str, command: str, order_id: str) -> None:
        """Forget a binding its send did not use (the send was refused before its row)."""
        with self._binding:
            self._claims.pop((environment, command, order_id), None)
            self._hashed.pop((environment, command, order_id), None)

    @property
    def hash_key(self) -> str:
        """The team's key of request hashes (makers and checkers may read it)."""
        if self._hash_key is None:
            with self.reading() as db:
                self._hash_key = str(db.execute("SELECT key FROM team_key").fetchone()[0])
        return self._hash_key

    def begin(
        self,
        environment: str,
        prepared: PreparedRequest,
        *,
        window: float,
        admit: Admit | None = None,
    ) -> int:
        """Commit a pending row for ``prepared`` and return its id (before anything is sent).

        With ``admit``, the check and the claim are one transaction: a transaction-scoped
        advisory lock on (gateway, command, client_orderid) lets one console at a time past,
        rows of consoles that are gone are taken for interrupted, then ``admit`` gets the
        team's earlier sends of the order id to this gateway and raises to refuse.
        """
        if prepared.signed is None:
            raise ValueError("Only signed requests are journalled.")
        columns = request_columns(environment, prepared)
        target = Target.of(prepared)
        columns["url"] = target.url  # the host in ASCII: the database checks it reaches
        key = (environment, prepared.command, columns["client_orderid"] or "")
        with self._binding:
            columns.update(outcome=PENDING, submission_id=self._claims.pop(key, None))
            hashed = self._hashed.pop(key, None)
        if columns["submission_id"] is not None:  # the database compares it with the approval
            columns["content_hash"] = (
                hashed[1]
                if hashed is not None and hashed[0] is prepared  # the claim's, of this request
                else content_hash(environment, prepared, self.hash_key)
            )
        lost: list[int] = []
        with self.writing() as db:
            # a gateway the team has not registered: refused before anything is written
            require_registered(db, target, environment)
            order_id = columns["client_orderid"] or ""
            if admit is not None:
                db.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                    ("\n".join((columns["gateway"], prepared.command, order_id)),),
                )
                lost = [
                    int(r[0])
                    for r in db.execute(
                        "SELECT * FROM recover_interrupted(%s)", (INTERRUPTED_SUMMARY,)
                    ).fetchall()
                ]
                gateway = columns["gateway"]
                where = (order_id, prepared.command, gateway, gateway, environment)
                admit(self._query(_SENT_BEFORE_SQL, where) if order_id else [])
            now = timestamp_now()
            columns.update(created=now, deadline=now + window)
            names = ", ".join(columns)
            marks = ", ".join(["%s"] * len(columns))
            inserted = db.execute(
                f"INSERT INTO requests ({names}) VALUES ({marks}) RETURNING id",  # noqa: S608 (our column names)
                list(columns.values()),
            ).fetchone()
            if inserted is not None:
                db.execute(
                    "INSERT INTO request_details (request_id, request_json) VALUES (%s, %s)",
                    (inserted[0], json.dumps(masked_request(prepared))),
                )
        for lost_id in lost:
            self.notify("changed", lost_id)
        if inserted is None:  # committed: the database's refusal stays in the audit trail
            raise ApprovalRefusedError(
                f"Not sent: the approval policy of the gateway {environment} reaches holds "
                f"this {prepared.command} back. Submit it for approval."
            )
        row_id = int(inserted[0])
        self.notify("added", row_id)
        return row_id

    def finish(self, row_id: int, outcome: Outcome) -> None:
        """Store the outcome of the send journalled as ``row_id`` (also when the row was
        taken for an interrupted one meanwhile: the answer is the better word).

        Raises:
            TeamUnavailableError: the database did not store it.
        """
        columns, answer = answer_columns(outcome)
        answered = outcome.response is not None  # its nonce is spent: the signature may stay
        if columns.get("final_status"):
            columns["final_status_at"] = timestamp_now()
        sets = ", ".join(f"{name} = %s" for name in columns)
        with self.writing() as db:
            stored = db.execute(
                f"UPDATE requests SET {sets} WHERE id = %s",  # noqa: S608 (our column names)
                [*columns.values(), row_id],
            ).rowcount
            if stored != 1:  # the database only lets the sender finish a row still open
                raise TeamUnavailableError(
                    f"The answer to request {row_id} could not be stored in the team journal "
                    "(it is not this person's, or it was answered already)."
                )
            db.execute(
                "UPDATE request_details SET response_json = %s, request_json = %s"
                " WHERE request_id = %s",
                (
                    json.dumps(answer),
                    json.dumps(masked_request(outcome.prepared, answered=answered)),
                    row_id,
                ),
            )
        self.notify("changed", row_id)

    def recover_interrupted(self) -> list[int]:
        """Mark pending rows whose console stopped (its session is gone, or past its
        deadline) as "outcome unknown", for everyone; return their ids. Submissions claimed
        for sending by a console that is gone end too ("refused" when nothing was sent)."""
        with self.writing() as db:
            ids = [
                int(r[0])
                for r in db.execute(
                    "SELECT * FROM recover_interrupted(%s)", (INTERRUPTED_SUMMARY,)
                ).fetchall()
            ]
            db.execute("SELECT * FROM recover_claims()").fetchall()  # announced (audit)
        for row_id in ids:
            self.notify("changed", row_id)
        return ids

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
        the rows it changed. "processing" or "unknown" never replaces a settled status
        (see :meth:`console.core.history.History.set_final_status`).

        The database settles this person's own rows, and other people's only with evidence
        it checks: a callback's ``control`` code (verified with the environment's merchant
        control secret, ``team callback-secret``), or this person's status answer for the
        order in the journal. Every change, and every refusal, is audited."""
        with self.writing() as db:
            ids = [
                int(r[0])
                for r in db.execute(
                    "SELECT * FROM set_final_status(%s, %s, %s, %s, %s, %s)",
                    (environment, client_orderid, status, orderid, source, control),
                ).fetchall()
            ]
        for row_id in ids:
            self.notify("changed", row_id)
        return ids

    def order_row(
        self, environment: str, column: str, value: str
    ) -> tuple[int, str | None, str | None] | None:
        """The newest request row (not a status look-up) whose ``column`` (client_orderid
        or gateway_order_id) is ``value``, the team's: what a callback names."""
        if column not in ("client_orderid", "gateway_order_id"):
            raise ValueError(f"Not an order column: {column}")
        with self.reading() as db:
            found = db.execute(
                f"SELECT id, client_orderid, gateway_order_id FROM requests"  # noqa: S608 (checked)
                f" WHERE environment = %s AND command <> 'status' AND {column} = %s"
                " ORDER BY created DESC, id DESC LIMIT 1",
                (environment, value),
            ).fetchone()
        return (int(found[0]), found[1], found[2]) if found else None

    # -- reading --------------------------------------------------------------------------

    def _query(self, sql: str, args: Iterable[Any]) -> list[HistoryRow]:
        with self.reading() as db:
            return [HistoryRow.from_sql(tuple(r)) for r in db.execute(sql, list(args))]

    def count(self, filter: HistoryFilter | None = None) -> int:
        """How many rows match (parts of ids when no whole id matches, see
        ``with_parts``); every row: the number the database keeps (no scan)."""
        return self._count(with_parts(filter or HistoryFilter(), self._count))

    def _count(self, f: HistoryFilter) -> int:
        where, args = f.where()
        with self.reading() as db:
            if not where:
                return int(db.execute("SELECT n FROM request_count").fetchone()[0])
            sql = f"SELECT count(*) FROM requests{_pg(where)}"  # noqa: S608 (placeholders only)
            return int(db.execute(sql, args).fetchone()[0])

    def fetch(
        self, filter: HistoryFilter | None = None, offset: int = 0, limit: int = 100
    ) -> list[HistoryRow]:
        """One page of matching rows, newest first."""
        where, args = with_parts(filter or HistoryFilter(), self._count).where()
        return self._query(
            f"{ROW_SQL}{_pg(where)}{ORDER_SQL} LIMIT %s OFFSET %s", [*args, limit, offset]
        )

    def fetch_after(
        self, filter: HistoryFilter | None, after: HistoryRow | None, limit: int = 100
    ) -> list[HistoryRow]:
        """The next page after row ``after`` (keyset paging)."""
        where, args = with_parts(filter or HistoryFilter(), self._count).where()
        where = _pg(where)
        if after is not None:
            where += (" AND " if where else " WHERE ") + "(created, id) < (%s, %s)"
            args = [*args, after.created_ts, after.id]
        return self._query(f"{ROW_SQL}{where}{ORDER_SQL} LIMIT %s", [*args, limit])

    def iter_rows(
        self, filter: HistoryFilter | None = None, batch: int = 1000
    ) -> Iterator[HistoryRow]:
        last: HistoryRow | None = None
        while page := self.fetch_after(filter, last, batch):
            yield from page
            last = page[-1]

    def get(self, row_id: int) -> HistoryRow:
        rows = self.rows([row_id])
        if not rows:
            raise KeyError(f"No history row {row_id}.")
        return rows[0]

    def rows(self, ids: Iterable[int]) -> list[HistoryRow]:
        wanted = sorted(set(ids))
        found = self._query(f"{ROW_SQL} WHERE id = ANY(%s)", [wanted])
        return sorted(found, key=lambda r: (r.created, r.id), reverse=True)

    def details(self, row_id: int) -> HistoryDetail:
        """The row with its masked request and answer; ``request["team"]`` names who sent
        it and who approved it (callbacks stay in each console's own journal)."""
        row = self.get(row_id)
        with self.reading() as db:
            found = db.execute(
                "SELECT request_json, response_json FROM request_details WHERE request_id = %s",
                (row_id,),
            ).fetchone()
        request_json, response_json = found or ("{}", None)
        response = json.loads(response_json) if response_json else None
        request = json.loads(request_json)
        sent_by, approved_by = self.people([row_id]).get(row_id, ("", None))
        request["team"] = {"sent_by": sent_by, "approved_by": approved_by}
        return HistoryDetail(row, request, response, ())

    def sent_before(
        self, gateway: str | None, command: str, client_orderid: str, environment: str = ""
    ) -> list[HistoryRow]:
        """Every team member's earlier sends of this order id to ``gateway``, newest first
        (see :func:`console.core.history.reading.sent_before`)."""
        where = (client_orderid.strip(), command, gateway, gateway, environment)
        return self._query(_SENT_BEFORE_SQL, where)

    def sent_before_each(
        self,
        gateway: str | None,
        command: str,
        client_orderids: Iterable[str],
        environment: str = "",
    ) -> dict[str, list[HistoryRow]]:
        """:meth:`sent_before` of many order ids in one query: each id given (stripped)
        that was sent before -> the team's sends of it, newest first."""
        wanted = sorted({i.strip() for i in client_orderids} - {""})
        found: dict[str, list[HistoryRow]] = {}
        where = (wanted, command, gateway, gateway, environment)
        for row in self._query(_SENT_BEFORE_EACH_SQL, where):
            found.setdefault(row.client_orderid or "", []).append(row)
        return found

    def distinct(self, column: str) -> list[str]:
        """Values present in ``environment``, ``command`` or ``outcome`` (index skip scan)."""
        if column not in ("environment", "command", "outcome"):
            raise ValueError(f"Not a filter column: {column}")
        sql = f"SELECT min({column}) FROM requests WHERE {column} > %s"  # noqa: S608 (checked)
        values: list[str] = []
        with self.reading() as db:
            while (
                found := db.execute(sql, (values[-1] if values else "",)).fetchone()[0]
            ) is not None:
                values.append(found)
        return values

    def interrupted_count(self) -> int:
        """Requests interrupted (outcome unknown) with no final status yet, the team's."""
        with self.reading() as db:
            found = db.execute(
                "SELECT count(*) FROM requests WHERE interrupted AND outcome = 'unknown'"
                " AND final_status IS NULL"
            ).fetchall()
        return int(found[0][0])

    def people(self, ids: Iterable[int]) -> dict[int, tuple[str, str | None]]:
        """Who sent each row, and who approved it (None: no approval was needed)."""
        with self.reading() as db:
            found = db.execute(
                "SELECT id, made_by, approved_by FROM requests WHERE id = ANY(%s)",
                (sorted(set(ids)),),
            ).fetchall()
        return {int(i): (m, a) for i, m, a in found}

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Poll ``predicate`` until true or ``timeout`` seconds pass (tests, scripts)."""
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                return False
            time.sleep(0.05)
        return True


class TeamJournalHooks:
    """``before_send``/``after_answer`` for the pipeline, on the team database.

    ``before_send`` raises when the row cannot be written (nothing is sent unjournalled, and
    the database refuses a payout its policy holds back); ``after_answer`` never raises: a
    failure is kept in :attr:`last_error` and the row stays pending, to become "outcome
    unknown" for everyone.
    """

    def __init__(self, journal: TeamJournal, environment: str, window: float) -> None:
        self.history = journal
        self.environment = environment
        self.window = window
        self.last_error: Exception | None = None

    def before_send(self, prepared: PreparedRequest, admit: Admit | None = None) -> int:
        import psycopg  # boundary: psycopg (the team extra), with the team database

        try:
            return self.history.begin(self.environment, prepared, window=self.window, admit=admit)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise ApprovalRefusedError(f"Not sent: {exc.diag.message_primary or exc}.") from exc
        except psycopg.Error as exc:
            raise TeamUnavailableError(
                f"The team journal cannot be written ({str(exc).strip()}); nothing was sent."
            ) from exc

    def after_answer(self, record: object, outcome: Outcome) -> None:
        import psycopg  # boundary: psycopg (the team extra), with the team database

        if not isinstance(record, int):
            return
        try:
            self.history.finish(record, outcome)
        except (psycopg.Error, OSError, TeamUnavailableError) as exc:
            self.last_error = exc
            self.history.notify("journal-failed", record)
