"""Test-data hints for sandbox environments, built from the sandbox's own tables.

The CVV2 outcomes are the field notes' sandbox conventions (public documentation of the
integration environment), so they show on every sandbox; the seeded first payments and the
cents rule belong to the built-in local sandbox only. Production never shows a hint.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.sandbox.outcomes import Outcome
    from console.sandbox.seeds import Seed

TEST_CARD = "4444 4444 4444 4448"  # the card number of public examples (field notes)


@dataclass(frozen=True, slots=True)
class _Tables:
    cvv2: dict[str, Outcome]  # CVV2 -> outcome
    cents: dict[int, Outcome]  # an amount's cents -> outcome (no CVV2)


def _tables() -> _Tables:
    """The sandbox's outcome tables (the payout form's hint, in its first picture)."""
    # boundary: of the sandbox package (its server: a fifth of a second) only its small
    # outcomes module loads for a sandbox's payout hint
    from console.sandbox.outcomes import AMOUNT_OUTCOMES, CVV2_OUTCOMES

    return _Tables(CVV2_OUTCOMES, AMOUNT_OUTCOMES)


def _seeds() -> Sequence[Seed]:
    """The local sandbox's seeded first payments (the card reference form's hint)."""
    # boundary: the seed table brings the sandbox's records, ids and state (about 10 ms of
    # the window's start when the payout form's first picture loaded it too); it loads
    # when the card reference form is first shown on the built-in sandbox
    from console.sandbox.seeds import SEEDS

    return SEEDS


def _cvv2_line() -> str:
    groups: dict[str, list[str]] = {}  # outcome words -> CVV2 values, table order
    for cvv2, outcome in _tables().cvv2.items():
        words = outcome.message.removeprefix("Declined: ") if outcome.message else ""
        if outcome.status == "declined":
            words = f"declined ({words})" if words else "declined"
        elif outcome.status != "approved" or not words:
            words = outcome.status
        groups.setdefault(words, []).append(cvv2)
    parts = [f"{' or '.join(codes)} {html.escape(words)}" for words, codes in groups.items()]
    return (
        f"<b>Sandbox test card</b> {TEST_CARD} (any Luhn-valid number works). "
        f"The CVV2 picks the outcome: {', '.join(parts)}; any other CVV2 declined. "
        "<i>From the field notes' sandbox conventions.</i>"
    )


def _cents_line() -> str:
    parts = [f".{cents:02d} {html.escape(o.status)}" for cents, o in _tables().cents.items()]
    return (
        "Without a CVV2 (stored cards, bank accounts, wallets) the local sandbox decides by "
        f"the amount's cents: {', '.join(parts)}, anything else approved "
        "<i>(the local sandbox's own rule)</i>."
    )


def _seeds_line() -> str:
    parts = [
        f"<a href='seed:{s.client_orderid}:{s.orderid}'>{html.escape(s.client_orderid)} / "
        f"{s.orderid}</a> {html.escape(s.status)}"
        for s in _seeds()
    ]
    return (
        "<b>Seeded first payments</b> in the local sandbox (click one to fill it in): "
        + "; ".join(parts)
        + ". <i>From the local sandbox's own seed table.</i>"
    )


@dataclass(frozen=True, slots=True)
class Hint:
    """Test data beside a form: one line (``short``) until the person asks for all of it."""

    short: str
    full: str


def _card_short() -> str:
    cvv2 = _tables().cvv2
    approved = next(c for c, o in cvv2.items() if o.status == "approved")
    declined = next(c for c, o in cvv2.items() if o.status == "declined")
    return f"<b>Sandbox test card</b> {TEST_CARD}: CVV2 {approved} approved, {declined} declined."


def _seeds_short() -> str:
    seed = next(s for s in _seeds() if s.status == "approved")
    return (
        f"<b>Seeded first payment</b> <a href='seed:{seed.client_orderid}:{seed.orderid}'>"
        f"{html.escape(seed.client_orderid)} / {seed.orderid}</a> (click to fill it in)."
    )


def hint_for(command: str, kind: str | None) -> Hint | None:
    """The hint (rich text) for ``command`` on an environment of ``kind``; None for none."""
    if kind not in ("sandbox", "local-sandbox"):
        return None  # production (or nothing chosen yet): real money, no test data
    local = kind == "local-sandbox"
    if command == "payout-check":
        return Hint(_card_short(), _cvv2_line() + ("<br>" + _cents_line() if local else ""))
    if command == "create-card-ref" and local:
        return Hint(_seeds_short(), _seeds_line())
    return None


def sandbox_example(command: str, kind: str | None) -> dict[str, str]:
    """Example values that work on this kind of sandbox: on the built-in one, a card
    reference is made from its first seeded approved payment (the contract's example ids
    name no payment there)."""
    if command != "create-card-ref" or kind != "local-sandbox":
        return {}
    seed = next(s for s in _seeds() if s.status == "approved")
    return {"client_orderid": seed.client_orderid, "orderid": str(seed.orderid)}


def seed_link(link: str) -> dict[str, str]:
    """The form values a seed link (``seed:CLIENT_ORDERID:ORDERID``) fills in."""
    _, client_orderid, orderid = link.split(":", 2)
    return {"client_orderid": client_orderid, "orderid": orderid}
