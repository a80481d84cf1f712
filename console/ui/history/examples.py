"""Example values taken from the journal: an order that really exists on the gateway.

The contract's status example names an order no gateway knows (the sandbox answers 207), so
the window's "Fill with example" on the status form uses the last payout sent instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.history import UNKNOWN, HistoryFilter

if TYPE_CHECKING:
    from console.core.history import HistoryRow
    from console.core.journals import JournalStore

# Payouts the gateway took (accepted) or may have taken (outcome unknown): the ones whose
# status can be asked for. A rejected or unsent payout created no order.
_HAS_ORDER = frozenset({"accepted", UNKNOWN})
SEND_A_PAYOUT_FIRST = (
    "These are the contract's example ids: no such order exists on the gateway. "
    "Send a payout first; then Fill with example takes its ids."
)


def last_payout(history: JournalStore, environment: str) -> HistoryRow | None:
    """The newest payout of ``environment`` that may have created an order, if any."""
    wanted = HistoryFilter(
        commands=frozenset({"payout-check"}),
        environments=frozenset({environment}),
        outcomes=_HAS_ORDER,
    )
    for row in history.fetch(wanted, limit=20):
        if row.client_orderid:
            return row
    return None


def status_example(row: HistoryRow) -> tuple[dict[str, str], str]:
    """The status form's values for ``row`` and a line saying where they came from."""
    values = {"client_orderid": row.client_orderid or ""}
    words = f"Filled from your last payout: client_orderid {row.client_orderid}"
    if row.gateway_order_id:
        values["orderid"] = row.gateway_order_id
        words += f", gateway order id {row.gateway_order_id}"
    return values, words + "."
