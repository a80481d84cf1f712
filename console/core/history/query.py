"""Rows, filters and the SQL that pages over them, for the history pane and the CLI.

The pane asks :meth:`console.core.history.journal.History.count` once, then
:meth:`~console.core.history.journal.History.fetch` page by page (offset and limit) as it scrolls;
both take a :class:`HistoryFilter`. Rows come newest first, by ``(created, id)``.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

PENDING = "pending"
UNKNOWN = "unknown"
NOT_SENT = "not-sent"
OUTCOME_TEXT = {
    PENDING: "sending…",
    "accepted": "accepted",
    "rejected": "rejected",
    "access-denied": "access denied",
    "gateway-failed": "gateway failed",
    NOT_SENT: "not sent",
    UNKNOWN: "outcome unknown",
}

# The pane's columns, in order: (attribute of HistoryRow, heading).
COLUMNS: tuple[tuple[str, str], ...] = (
    ("created", "Time"),
    ("environment", "Environment"),
    ("command", "Command"),
    ("client_orderid", "Client order id"),
    ("amount_text", "Amount"),
    ("receiver", "Receiver"),
    ("outcome_text", "Outcome"),
    ("final_status", "Final status"),
    ("gateway_order_id", "Gateway order id"),
    ("serial_number", "Serial number"),
)

_ID_COLUMNS = (
    "client_orderid",
    "gateway_order_id",
    "serial_number",
    "card_ref_id",
    "recurring_payment_id",
)
ROW_SQL = (
    "SELECT id, created, finished, environment, command, url, client_orderid, amount, currency,"
    " receiver, last4, outcome, interrupted, http_status, elapsed, response_type,"
    " response_status, gateway_order_id, serial_number, card_ref_id, recurring_payment_id,"
    " summary, final_status, final_status_source, final_status_at, created FROM requests"
)
ORDER_SQL = " ORDER BY created DESC, id DESC"


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One journal row as the pane shows it (card data already masked)."""

    id: int
    created: datetime
    finished: datetime | None
    environment: str
    command: str
    url: str
    client_orderid: str | None
    amount: str | None
    currency: str | None
    receiver: str | None
    last4: str | None
    outcome: str
    interrupted: bool
    http_status: int | None
    elapsed: float | None
    response_type: str | None
    response_status: str | None
    gateway_order_id: str | None
    serial_number: str | None
    card_ref_id: str | None
    recurring_payment_id: str | None
    summary: str | None
    final_status: str | None
    final_status_source: str | None
    final_status_at: datetime | None
    created_ts: float  # ``created`` exactly as stored: the key for paging after this row

    @classmethod
    def from_sql(cls, r: tuple[Any, ...]) -> HistoryRow:
        values = list(r)
        for i in (1, 2, 24):
            values[i] = _time(values[i])
        values[12] = bool(values[12])
        return cls(*values)

    @property
    def amount_text(self) -> str:
        return " ".join(x for x in (self.amount, self.currency) if x)

    @property
    def outcome_text(self) -> str:
        """Plain words; a row left pending by a stopped console reads "outcome unknown"."""
        return OUTCOME_TEXT.get(self.outcome, self.outcome)

    @property
    def outcome_unknown(self) -> bool:
        """The request may have reached the gateway: check its status before resending."""
        return self.outcome == UNKNOWN

    def to_json(self) -> dict[str, Any]:
        """Every column; times as ISO 8601 in UTC."""
        data = {name: getattr(self, name) for name in self.__slots__ if name != "created_ts"}
        for key in ("created", "finished", "final_status_at"):
            if data[key] is not None:
                data[key] = data[key].isoformat()
        data["outcome_text"] = self.outcome_text
        return data


def _time(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


@dataclass(frozen=True, slots=True)
class HistoryFilter:
    """What the pane or CLI wants to see. Empty sets mean "any".

    Attributes:
        search: an id (client order id, gateway order id, serial number, card reference or
            recurring payment id), or the start of one followed by ``*`` (``ord-2026*``),
            or the last four card digits (four digits, or a masked card number such as
            ``444444******4448``). Exact ids are what typing in a search box should send:
            they stay instant on any journal size; a broad ``*`` search may take a second.
            When no whole id matches, :func:`with_parts` widens the search to ids that
            contain the text (the last digits of an order id, a part of a client_orderid).
        part: the search matches a part of an id (set by :func:`with_parts`); this reads
            every row, so it is only asked for when no whole id matched.
        commands, environments, outcomes: allowed values.
        since, until: time window, ``since`` included, ``until`` excluded.
    """

    search: str = ""
    part: bool = False
    commands: frozenset[str] = frozenset()
    environments: frozenset[str] = frozenset()
    outcomes: frozenset[str] = frozenset()
    since: datetime | None = None
    until: datetime | None = None

    @property
    def prefix_search(self) -> bool:
        """True when the search asks for ids starting with the text (it ends with ``*``)."""
        return self.search.strip().endswith("*")

    def where(self, *, dense: bool = False) -> tuple[str, list[Any]]:
        """The SQL ``WHERE`` clause (empty or starting with a space) and its parameters.

        ``dense``: the search matches many rows (a broad ``*``), so the id indexes are
        switched off (unary ``+``) and SQLite walks the time index newest first, testing
        each row, instead of collecting every match and sorting it for one page.
        """
        terms: list[str] = []
        args: list[Any] = []
        for column, values in (
            ("command", self.commands),
            ("environment", self.environments),
            ("outcome", self.outcomes),
        ):
            if values:
                terms.append(f"{column} IN ({', '.join('?' * len(values))})")
                args.extend(sorted(values))
        if self.since is not None:
            terms.append("created >= ?")
            args.append(self.since.timestamp())
        if self.until is not None:
            terms.append("created < ?")
            args.append(self.until.timestamp())
        search = self.search.strip().rstrip("*")
        if search and self.part:
            # no index helps with a part of an id: the rows are read along the time index,
            # newest first. replace() is exact and case-sensitive on SQLite and PostgreSQL
            # alike (LIKE is not: SQLite's ignores case), so both journals find the same rows.
            parts = [f"replace({column}, ?, '') <> {column}" for column in _ID_COLUMNS]
            args.extend([search] * len(_ID_COLUMNS))
            terms.append("(" + " OR ".join(parts) + ")")
        elif search:
            either: list[str] = []
            plus = "+" if dense else ""
            for column in _ID_COLUMNS:  # each an index look-up or range: SQLite unions them
                if self.prefix_search:
                    either.append(f"({plus}{column} >= ? AND {plus}{column} < ?)")
                    args.extend((search, search[:-1] + chr(ord(search[-1]) + 1)))
                else:
                    either.append(f"{plus}{column} = ?")
                    args.append(search)
            last4 = last_four(search)
            if last4:
                either.append(f"{plus}last4 = ?")
                args.append(last4)
            terms.append("(" + " OR ".join(either) + ")")
        return (" WHERE " + " AND ".join(terms) if terms else ""), args


PART_AT_LEAST = 3  # characters of an id a part search needs (fewer find nearly every row)


def with_parts(f: HistoryFilter, count: Callable[[HistoryFilter], int]) -> HistoryFilter:
    """``f``, or, when its search finds no whole id (``count`` of it is 0), the same filter
    finding the ids that contain the search text: a support agent types the last digits of
    an order id, or a part of a client_orderid. Both journals ask this one rule; a ``*``
    search, or one shorter than :data:`PART_AT_LEAST`, is never widened."""
    text = f.search.strip()
    if f.part or f.prefix_search or len(text) < PART_AT_LEAST or count(f) > 0:
        return f
    return replace(f, part=True)


def last_four(text: str) -> str | None:
    """The last four card digits meant by a search: ``4448``, ``444444******4448``, a PAN."""
    compact = re.sub(r"[\s-]", "", text)
    if re.fullmatch(r"\d{4}", compact):
        return compact
    if re.fullmatch(r"\d{0,8}\*+\d{4}|\d{12,19}", compact):
        return compact[-4:]
    return None


@dataclass(frozen=True, slots=True)
class HistoryDetail:
    """One row with its masked request and answer (what the details view shows)."""

    row: HistoryRow
    request: dict[str, Any]
    response: dict[str, Any] | None
    callbacks: tuple[dict[str, Any], ...]


def query_details(
    db: sqlite3.Connection, row_id: int
) -> tuple[dict[str, Any], dict[str, Any] | None, tuple[dict[str, Any], ...]]:
    """The masked request, answer and linked callbacks of one row."""
    request_json, response_json = db.execute(
        "SELECT request_json, response_json FROM request_details WHERE request_id = ?",
        (row_id,),
    ).fetchone() or ("{}", None)
    callbacks = db.execute(
        "SELECT id, received, method, params_json, status, check_result, duplicate_of"
        " FROM callbacks WHERE request_id = ? ORDER BY received",
        (row_id,),
    ).fetchall()
    linked = tuple(
        {
            "id": c[0],
            "received": _time(c[1]),
            "method": c[2],
            "params": json.loads(c[3]),
            "status": c[4],
            "check": c[5],
            "duplicate_of": c[6],
        }
        for c in callbacks
    )
    response = json.loads(response_json) if response_json else None
    return json.loads(request_json), response, linked


def distinct_values(db: sqlite3.Connection, column: str) -> list[str]:
    """Values present in a filter column, skipping through its index one value at a time
    (fast on big journals, unlike ``SELECT DISTINCT`` which reads every entry)."""
    if column not in ("environment", "command", "outcome"):
        raise ValueError(f"Not a filter column: {column}")
    sql = f"SELECT min({column}) FROM requests WHERE {column} > ?"  # noqa: S608 (checked above)
    values: list[str] = []
    while True:
        found = db.execute(sql, (values[-1] if values else "",)).fetchone()[0]
        if found is None:
            return values
        values.append(found)
