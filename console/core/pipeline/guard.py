"""No accidental double payout: what the journal says about a client_orderid before it is sent.

A payout POST is not idempotent (field notes, "Sending money safely"), so before a payout or
a recurring profile leaves, its (gateway, command, client_orderid) is looked up in the
journal. The gateway is its identity (:mod:`console.core.gateway_identity`: normalised
address, endpoint or group, login), not the name of the environment that reached it. The
final look-up and the pending row are one step inside the journal (``before_send``'s
``admit``), so of two processes sending one id at once, exactly one sends:

* accepted before (by the gateway's answer, a status answer or a callback): refused until
  the id changes;
* settled (the gateway said what became of the order: a send answer, a status answer or a
  callback said declined, filtered or error): refused like an accepted one, since the
  gateway holds an order under that id and a resend of it is a duplicate;
* on its way right now (a pending row of a console that still runs): refused;
* outcome unknown (a lost answer, a 500, a row left pending): the person decides, after a
  status check or on purpose;
* rejected before (validation-error or error: no order was made), or never arrived: sent,
  and the person is told;
* never sent: sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

from console.core.order_facts import NEW_ORDER_COMMANDS

# Statuses that mean the gateway holds the order and may pay it (status check or callback).
_GATEWAY_HAS_IT = frozenset({"approved", "processing"})
# Statuses that mean it was not paid: the gateway decided the order, so the id is spent.
_NOT_PAID = frozenset({"declined", "filtered", "error"})
# Answer types that refuse the request itself: no order exists under the id afterwards.
_REQUEST_REFUSED = frozenset({"validation-error", "error"})
_UNKNOWN_OUTCOMES = frozenset({"unknown", "gateway-failed"})
_IN_FLIGHT = "pending"  # a console that still runs is sending it (stopped ones: recovered)
_REJECTED_OUTCOMES = frozenset({"rejected", "access-denied"})


class SentRow(Protocol):
    """What the guard reads of one journal row."""

    @property
    def id(self) -> int: ...
    @property
    def created(self) -> datetime: ...
    @property
    def outcome(self) -> str: ...
    @property
    def final_status(self) -> str | None: ...
    @property
    def gateway_order_id(self) -> str | None: ...
    @property
    def recurring_payment_id(self) -> str | None: ...
    @property
    def response_type(self) -> str | None: ...
    @property
    def response_status(self) -> str | None: ...


class Seen(StrEnum):
    """What became of earlier sends of one client_orderid."""

    NEW = "new"  # never sent
    NOT_SENT = "not-sent"  # sent, but it never reached the gateway
    REJECTED = "rejected"  # the gateway refused the request (validation-error, error, 403)
    UNKNOWN = "unknown"  # it may have arrived: check the status before resending
    ACCEPTED = "accepted"  # the gateway took it: another send would be a second order
    SENDING = "sending"  # on its way right now
    SETTLED = "settled"  # the gateway declined the order (declined, filtered, error)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The earlier sends of one client_orderid, as far as they matter for sending it again."""

    seen: Seen
    client_orderid: str
    at: datetime | None = None  # when the deciding send was made (UTC)
    gateway_order_id: str | None = None
    recurring_payment_id: str | None = None  # a recurring profile's: what names it
    status: str | None = None  # a settled order's status (declined, filtered, error)

    @property
    def blocks(self) -> bool:
        """True when sending it again would risk a second order."""
        return self.seen in _BLOCKING

    @property
    def asks(self) -> bool:
        """True when the person must decide (after a status check) before it goes again."""
        return self.seen is Seen.UNKNOWN


NEW = Verdict(Seen.NEW, "")
# a set: a batch asks this of each row
_BLOCKING = frozenset({Seen.ACCEPTED, Seen.SETTLED, Seen.SENDING})


class SentBefore(Protocol):
    """The journal's look-up of earlier sends (``History.sent_before``)."""

    def sent_before(
        self, gateway: str | None, command: str, client_orderid: str, environment: str = ""
    ) -> list[Any]: ...


def verdict_for(
    journal: SentBefore, gateway: str | None, command: str, order_id: str, environment: str = ""
) -> Verdict:
    """What the journal says of sending ``order_id`` with ``command`` to ``gateway`` (rows
    journalled before gateways were recorded, or every row when ``gateway`` is None: in
    ``environment``). A look-up for showing;
    the deciding one is inside the journal's claim (:func:`judge` via ``admit``)."""
    order_id = order_id.strip()
    if command not in NEW_ORDER_COMMANDS or not order_id:
        return NEW
    rows: list[SentRow] = journal.sent_before(gateway, command, order_id, environment)
    return judge(order_id, rows)


def accepted_verdict(command: str, order_id: str, gateway_order_id: str | None) -> Verdict | None:
    """The verdict an accepted answer gives its order id (None when it makes no new order)."""
    if command not in NEW_ORDER_COMMANDS or not order_id.strip():
        return None
    return Verdict(Seen.ACCEPTED, order_id.strip(), datetime.now(UTC), gateway_order_id)


def judge(order_id: str, rows: Sequence[SentRow]) -> Verdict:
    """The verdict for a client_orderid from its journal rows (any order)."""
    if not rows:  # never sent (a batch asks this of most of its rows)
        return Verdict(Seen.NEW, order_id)

    def verdict(seen: Seen, row: SentRow, status: str | None = None) -> Verdict:
        return Verdict(
            seen, order_id, row.created, row.gateway_order_id, row.recurring_payment_id, status
        )

    newest = sorted(rows, key=lambda r: (r.created, r.id), reverse=True)
    for row in newest:
        if row.final_status in _GATEWAY_HAS_IT or (
            row.outcome == "accepted" and row.final_status not in _NOT_PAID
        ):
            return verdict(Seen.ACCEPTED, row)
    for row in newest:
        status = settled_status(row)
        if status:
            return verdict(Seen.SETTLED, row, status)
    for row in newest:
        if row.outcome == _IN_FLIGHT:
            return verdict(Seen.SENDING, row)
    for row in newest:
        if row.outcome in _UNKNOWN_OUTCOMES:
            return verdict(Seen.UNKNOWN, row)
    for row in newest:
        if row.outcome in _REJECTED_OUTCOMES:
            return verdict(Seen.REJECTED, row)
    return verdict(Seen.NOT_SENT, newest[0])


def settled_status(row: SentRow) -> str | None:
    """The status that settled a sent order without paying it (declined, filtered, error),
    from a status answer or callback, or from the send's own answer; None when the gateway
    has not said so. A validation-error or error answer refused the request, not an order."""
    if row.final_status in _NOT_PAID:
        return row.final_status
    answered = (row.response_status or "").strip().lower()
    if answered in _NOT_PAID and row.response_type not in _REQUEST_REFUSED:
        return answered
    return None


def clock_text(at: datetime | None, now: datetime | None = None) -> str:
    """Local "HH:MM", with the date when it was not today."""
    if at is None:
        return "an earlier time"
    local = at.astimezone()
    today = (now or datetime.now(UTC)).astimezone().date()
    return f"{local:%H:%M}" if local.date() == today else f"{local:%H:%M} on {local:%d.%m.%Y}"


def blocked_text(verdict: Verdict, command: str) -> str:
    """Why a send is refused, and what to do instead."""
    if verdict.seen is Seen.SENDING:
        return (
            f"Not sent: {verdict.client_orderid} is being sent right now (since "
            f"{clock_text(verdict.at)}), from this or another console. Wait for its answer in "
            "History; for another payout, use a new client_orderid."
        )
    what, order = "payout", verdict.gateway_order_id and f"gateway order {verdict.gateway_order_id}"
    how = f"declined (status {verdict.status})" if verdict.seen is Seen.SETTLED else "accepted"
    if command != "payout-check":  # a profile's own id names it; an order id is one charge's
        what, order = "recurring profile", verdict.recurring_payment_id
        order = order and f"recurring-payment-id {order}"
    order = f" ({order})" if order else ""
    return (
        f"Already sent and {how} at {clock_text(verdict.at)}{order}: {verdict.client_orderid}."
        f" For another {what}, use a new client_orderid."
    )


def unknown_question(verdict: Verdict) -> str:
    """The question before resending an id whose last send has an unknown outcome."""
    return (
        f"The last send of {verdict.client_orderid} has an unknown outcome. Check its status "
        "first; if you resend, it goes with the same client_orderid so the gateway can refuse "
        "a duplicate."
    )


def resend_note(verdict: Verdict) -> str:
    """A sentence for the result when an earlier send of the same id is worth naming."""
    when = clock_text(verdict.at)
    if verdict.seen is Seen.REJECTED:
        return f"Sent again: the gateway rejected {verdict.client_orderid} at {when}."
    if verdict.seen is Seen.NOT_SENT:
        return f"Sent again: the send of {verdict.client_orderid} at {when} never arrived."
    if verdict.seen is Seen.UNKNOWN:
        return f"Resent with the same client_orderid after an unknown outcome at {when}."
    return ""
