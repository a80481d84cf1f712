"""No accidental double payout: what the journal says about a client_orderid before it is sent.

A payout POST is not idempotent (field notes, "Sending money safely"), so before a payout or
a recurring profile leaves, the window looks its (environment, command, client_orderid) up
in the history journal:

* accepted before (or on its way from this window): Send stays off until the id changes;
* outcome unknown (a lost answer, a 500, a row left pending): ask first, offer Check status;
* rejected before, or never arrived: send, and say so in the result line;
* never sent: send.

The look-up is one indexed query on a read-only connection of its own, so a long read of the
history pane (which holds the journal's lock) never makes Send wait.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, SignalInstance, Slot

from console.core.history import sent_before

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.history import History, HistoryRow

Key = tuple[str, str, str]  # environment, command, client_orderid

# Statuses that mean the gateway holds the order and may pay it (status check or callback).
_GATEWAY_HAS_IT = frozenset({"approved", "processing"})
# Statuses that mean it was not paid: a resend is the gateway's to accept or refuse.
_NOT_PAID = frozenset({"declined", "filtered", "error"})
_UNKNOWN_OUTCOMES = frozenset({"pending", "unknown", "gateway-failed"})
_REJECTED_OUTCOMES = frozenset({"rejected", "access-denied"})


class Seen(StrEnum):
    """What became of earlier sends of one client_orderid."""

    NEW = "new"  # never sent
    NOT_SENT = "not-sent"  # sent, but it never reached the gateway
    REJECTED = "rejected"  # the gateway said no (validation-error, error, declined, 403)
    UNKNOWN = "unknown"  # it may have arrived: check the status before resending
    ACCEPTED = "accepted"  # the gateway took it: another send would be a second order
    SENDING = "sending"  # on its way from this window right now


@dataclass(frozen=True, slots=True)
class Verdict:
    """The earlier sends of one client_orderid, as far as they matter for sending it again."""

    seen: Seen
    client_orderid: str
    at: datetime | None = None  # when the deciding send was made (UTC)
    gateway_order_id: str | None = None

    @property
    def blocks(self) -> bool:
        """True when sending it again would risk a second order."""
        return self.seen in (Seen.ACCEPTED, Seen.SENDING)

    @property
    def asks(self) -> bool:
        return self.seen is Seen.UNKNOWN


def judge(client_orderid: str, rows: Sequence[HistoryRow]) -> Verdict:
    """The verdict for a client_orderid from its journal rows (any order)."""

    def verdict(seen: Seen, row: HistoryRow) -> Verdict:
        return Verdict(seen, client_orderid, row.created, row.gateway_order_id)

    newest = sorted(rows, key=lambda r: (r.created, r.id), reverse=True)
    for row in newest:
        if row.outcome == "accepted" or row.final_status in _GATEWAY_HAS_IT:
            return verdict(Seen.ACCEPTED, row)
    for row in newest:
        if row.outcome in _UNKNOWN_OUTCOMES and row.final_status not in _NOT_PAID:
            return verdict(Seen.UNKNOWN, row)
    for row in newest:
        if row.outcome in _REJECTED_OUTCOMES or row.final_status in _NOT_PAID:
            return verdict(Seen.REJECTED, row)
    if newest:
        return verdict(Seen.NOT_SENT, newest[0])
    return Verdict(Seen.NEW, client_orderid)


def clock_text(at: datetime | None, now: datetime | None = None) -> str:
    """Local "HH:MM", with the date when it was not today."""
    if at is None:
        return "an earlier time"
    local = at.astimezone()
    today = (now or datetime.now(UTC)).astimezone().date()
    return f"{local:%H:%M}" if local.date() == today else f"{local:%H:%M} on {local:%d.%m.%Y}"


def blocked_text(verdict: Verdict, command: str) -> str:
    """What stands next to a Send that stays off, and what to do instead."""
    if verdict.seen is Seen.SENDING:
        return f"{verdict.client_orderid} is being sent now; its answer appears here."
    order = f" (gateway order {verdict.gateway_order_id})" if verdict.gateway_order_id else ""
    what = "payout" if command == "payout-check" else "recurring profile"
    return (
        f"Already sent and accepted at {clock_text(verdict.at)}{order}. For another {what}, "
        "generate a new client_orderid (Ctrl+G)."
    )


def unknown_question(verdict: Verdict) -> str:
    """The question before resending an id whose last send has an unknown outcome."""
    return (
        f"The last send of {verdict.client_orderid} has an unknown outcome. Check its status "
        "first; if you resend, it goes with the same client_orderid so the gateway can refuse "
        "a duplicate."
    )


def resend_note(verdict: Verdict) -> str:
    """A sentence for the result line when an earlier send of the same id is worth naming."""
    when = clock_text(verdict.at)
    if verdict.seen is Seen.REJECTED:
        return f"Sent again: the gateway rejected {verdict.client_orderid} at {when}."
    if verdict.seen is Seen.NOT_SENT:
        return f"Sent again: the send of {verdict.client_orderid} at {when} never arrived."
    if verdict.seen is Seen.UNKNOWN:
        return f"Resent with the same client_orderid after an unknown outcome at {when}."
    return ""


def accepted_verdict(outcome: Outcome) -> Verdict | None:
    """The verdict an answer in this window gives its client_orderid (None: not accepted)."""
    prepared = outcome.prepared
    order = prepared.value("client_orderid") or prepared.value("client-orderid") or ""
    if str(outcome.result) != "accepted" or not order.strip():
        return None
    gateway = outcome.response.get("gateway-order-id") if outcome.response else None
    return Verdict(Seen.ACCEPTED, order.strip(), datetime.now(UTC), gateway)


class SendGuard(QObject):
    """The window's memory of which client_orderids must not go again.

    Look-ups are remembered until the journal changes (a status check, a callback, a send),
    and answers seen in this window count even when the journal could not store them.

    Args:
        on_change: called (in the GUI thread) when a remembered verdict may be stale.
        parent: the window; closing it closes the read-only connection.
    """

    def __init__(self, on_change: Callable[[], None], parent: QObject) -> None:
        super().__init__(parent)
        self._on_change = on_change
        self._db: sqlite3.Connection | None = None
        self._history: History | None = None
        self._cache: dict[Key, Verdict] = {}
        self._seen_here: dict[Key, Verdict] = {}
        self.sending: Key | None = None  # the key of the request on its way, if any
        self.notes: dict[str, str] = {}  # per command: said in the result line after the send
        parent.installEventFilter(self)

    def bind(self, history: History, changed: Sequence[SignalInstance]) -> None:
        """Read ``history``; ``changed``: signals (with a row id) telling of its changes."""
        if self._history is history:
            return
        self._close()
        self._history = history
        self._cache.clear()
        for signal in changed:
            signal.connect(self._journal_changed)

    @property
    def bound(self) -> bool:
        return self._history is not None

    def lookup(self, key: Key, *, fresh: bool = False) -> Verdict:
        """The verdict for ``key``; ``fresh`` asks the journal again (just before sending)."""
        if key == self.sending:
            return Verdict(Seen.SENDING, key[2])
        if key in self._seen_here:
            return self._seen_here[key]
        if fresh or key not in self._cache:
            self._cache[key] = judge(key[2], self._rows(key))
        return self._cache[key]

    def remember(self, key: Key, verdict: Verdict) -> None:
        """An answer seen in this window (accepted): it blocks whatever the journal says."""
        self._seen_here[key] = verdict
        self._cache.pop(key, None)

    def forget(self) -> None:
        """Drop remembered look-ups (the journal changed)."""
        self._cache.clear()

    def _rows(self, key: Key) -> list[HistoryRow]:
        if self._history is None:
            return []
        try:
            return sent_before(self._connection(), *key)
        except sqlite3.Error:
            # the own connection cannot be had (a journal on a read-only medium): the shared one
            return self._history.sent_before(*key)

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            assert self._history is not None
            uri = self._history.path.resolve().as_uri() + "?mode=ro"
            self._db = sqlite3.connect(uri, uri=True, timeout=1.0)
        return self._db

    @Slot(int)
    def _journal_changed(self, _row_id: int) -> None:
        self._cache.clear()
        self._on_change()

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parent() and event.type() == QEvent.Type.Close:
            self._close()
        return False
