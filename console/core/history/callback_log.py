"""The journal's callbacks: each callback received, its check, and the request row it names.

The listener (:mod:`console.core.callbacks`) parses and checks a callback, then records it
here. Only a callback whose ``control`` checked out (:attr:`CheckResult.OK`) may change a
final status, and only when it is new and its ``orderid`` and ``client_orderid`` name the
same request row; a callback naming two different rows is recorded as
:attr:`CheckResult.UNMATCHED` and never applied.

A callback is new unless an earlier trusted one had the same ``status``, ``orderid`` and
``client_orderid``: the fields ``control`` covers. ``type`` is not covered, so anyone who saw
a callback could replay it with another ``type`` (or none); such a replay is a duplicate and
changes nothing, however late it comes.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Protocol

_ROW_SQL = (
    "SELECT id, client_orderid, gateway_order_id FROM requests WHERE environment = ?"
    " AND command != 'status' AND {column} = ? ORDER BY created DESC, id DESC LIMIT 1"
)


class CheckResult(StrEnum):
    """What the checks of one callback found (stored as text in the journal)."""

    OK = "ok"
    MISMATCH = "mismatch"  # control does not match: forged or another secret
    MISSING = "missing"  # a secret is set but the callback has no control
    UNVERIFIED = "unverified"  # no merchant control secret: nothing can be checked
    MALFORMED = "malformed"  # a repeated parameter, or an orderid that is not digits
    INCOMPLETE = "incomplete"  # a field control covers is missing or blank
    BAD_STATUS = "bad-status"  # a status that is not one of the transaction status values
    UNMATCHED = "unmatched"  # orderid and client_orderid name different requests

    @property
    def trusted(self) -> bool:
        """Whether the callback may change a final status."""
        return self is CheckResult.OK


@dataclass(frozen=True, slots=True)
class CallbackEvent:
    """One recorded callback, as the callbacks list shows it.

    Attributes:
        params: the parameters, masked, without the ``control`` value.
        check: the check result.
        duplicate_of: the id of the earlier identical callback, or None.
        request_id: the history row it belongs to, or None when none matched.
        updated: history rows whose final status this callback set.
        control: the ``control`` code as received (not stored), for a journal that checks it
            itself before it sets a final status (the team's).
    """

    id: int
    received: datetime
    environment: str
    method: str
    remote: str
    params: tuple[tuple[str, str], ...]
    status: str | None
    type: str | None
    orderid: str | None
    client_orderid: str | None
    check: CheckResult
    duplicate_of: int | None
    request_id: int | None
    updated: tuple[int, ...] = ()
    control: str | None = field(default=None, repr=False)


OrderRow = tuple[int, str | None, str | None]  # id, client_orderid, gateway_order_id


class Orders(Protocol):
    """The journal holding the sends a callback is about: this console's own, or in team
    mode the team's shared journal (``console.core.team.TeamJournal``)."""

    def order_row(self, environment: str, column: str, value: str) -> OrderRow | None: ...

    def set_final_status(
        self,
        environment: str,
        client_orderid: str,
        status: str,
        *,
        orderid: str | None = None,
        source: str,
        control: str | None = None,
    ) -> list[int]: ...


class CallbackStore(Orders, Protocol):
    """The SQLite journal the callbacks are kept in (``History``; this module is its inner
    workings, so it names what it uses instead of importing it back)."""

    def reading(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def writing(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def notify(self, event: str, row_id: int) -> None: ...


def order_row(db: sqlite3.Connection, environment: str, column: str, value: str) -> OrderRow | None:
    """The newest request row (not a status look-up) whose ``column`` is ``value``."""
    found = db.execute(_ROW_SQL.format(column=column), (environment, value)).fetchone()
    return (int(found[0]), found[1], found[2]) if found else None


def _row(orders: Orders, environment: str, column: str, value: str | None) -> OrderRow | None:
    return orders.order_row(environment, column, value) if value else None


def _link(
    orders: Orders, environment: str, orderid: str | None, client_orderid: str | None
) -> tuple[OrderRow | None, bool]:
    """The request row a callback names, and whether its two ids agree on that row."""
    by_client = _row(orders, environment, "client_orderid", client_orderid)
    by_order = _row(orders, environment, "gateway_order_id", orderid)
    if not (orderid and client_orderid) or (by_client is None and by_order is None):
        return by_client or by_order, True
    if by_client is not None:
        # the same order (resends share the client_orderid), or its answer never came
        agree = (by_order is not None and by_order[1] == client_orderid) or (
            by_order is None and by_client[2] is None
        )
        return by_client, agree
    assert by_order is not None
    return by_order, by_order[1] is None


def record_callback(
    history: CallbackStore, event: CallbackEvent, orders: Orders | None = None
) -> CallbackEvent:
    """Store ``event`` (its id, duplicate and row still to find) in ``history``, apply it
    when it may change a final status, and return it as recorded.

    ``orders``: the journal holding the sends (default ``history``); in team mode the
    shared journal, so the callback's order is found among the whole team's sends and its
    final status is set there, for every console (the callback itself stays here), before
    the callback's record here commits: a record here means the shared journal took it."""
    key = (event.status, event.orderid, event.client_orderid)
    ledger: Orders = orders if orders is not None else history
    updated: list[int] = []
    request, agree = _link(ledger, event.environment, event.orderid, event.client_orderid)
    with history.writing() as db:
        duplicate_of = None
        check = event.check
        if check.trusted and not agree:
            check = CheckResult.UNMATCHED
        if check.trusted:
            found = db.execute(
                "SELECT min(id) FROM callbacks WHERE environment = ? AND status IS ?"
                " AND orderid IS ? AND client_orderid IS ? AND check_result = 'ok'",
                (event.environment, *key),
            ).fetchone()
            duplicate_of = found[0]
        cur = db.execute(
            "INSERT INTO callbacks (received, environment, method, remote, params_json,"
            " status, type, orderid, client_orderid, check_result, duplicate_of, request_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                event.received.timestamp(),
                event.environment,
                event.method,
                event.remote,
                json.dumps(event.params),
                event.status,
                event.type,
                event.orderid,
                event.client_orderid,
                str(check),
                duplicate_of,
                # the row, when it is in this journal (in team mode it is the shared one's)
                request[0] if request and ledger is history else None,
            ),
        )
        callback_id = int(cur.lastrowid or 0)
        # the status a trusted, new callback of a known order brings (None: it changes nothing)
        status = event.status if check.trusted and duplicate_of is None and request else None
        order = (event.client_orderid or request[1] or "") if request else ""
        if status and ledger is not history:
            # the shared journal takes the status before this record commits: stopped in
            # between (kill -9, the database gone), nothing is recorded here, the gateway
            # hears no 200 and calls again, and that call is no repeat of a recorded one
            updated = _settle(ledger, event, order, status)
    if status and ledger is history:
        updated = _settle(ledger, event, order, status)
    history.notify("callback", callback_id)
    return replace(
        event,
        id=callback_id,
        check=check,
        duplicate_of=duplicate_of,
        request_id=request[0] if request else None,
        updated=tuple(updated),
    )


def _settle(ledger: Orders, event: CallbackEvent, order: str, status: str) -> list[int]:
    """Set the final status a trusted, new callback brings on its order's rows."""
    return ledger.set_final_status(
        event.environment,
        order,
        status,
        orderid=event.orderid,
        source="callback",
        control=event.control,
    )


def recent_callbacks(history: CallbackStore, limit: int) -> list[CallbackEvent]:
    """The newest recorded callbacks, oldest first (as the list grows downwards)."""
    with history.reading() as db:
        rows = db.execute(
            "SELECT id, received, environment, method, remote, params_json, status, type,"
            " orderid, client_orderid, check_result, duplicate_of, request_id"
            " FROM callbacks ORDER BY received DESC, id DESC LIMIT ?",
            (limit,),
        ).fetchall()
    return [
        CallbackEvent(
            id=r[0],
            received=datetime.fromtimestamp(r[1], UTC),
            environment=r[2],
            method=r[3],
            remote=r[4] or "",
            params=tuple((str(n), str(v)) for n, v in json.loads(r[5])),
            status=r[6],
            type=r[7],
            orderid=r[8],
            client_orderid=r[9],
            check=CheckResult(r[10]),
            duplicate_of=r[11],
            request_id=r[12],
        )
        for r in reversed(rows)
    ]
