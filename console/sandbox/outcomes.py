"""How the sandbox decides a transaction's outcome.

Card payouts (``credit_card_number`` with ``cvv2``) follow the field notes' sandbox
conventions: CVV2 123, 1234 or 111 approved; 217 unknown; 101 declined (expired card); 116
declined (insufficient funds); 119 declined (not permitted); 209 declined (stolen card); any
other CVV2 declined.

``unknown`` is not final: the order stays ``unknown`` (no callback) until someone resolves it
through the control path ``POST /_sandbox/orders/<orderid>/resolve``, as a gateway's staff
would, and then the callbacks go out.

Everything without a CVV2 (stored cards, recurring payment ids, bank accounts, e-wallets,
crypto wallets, card payouts without CVV2, recurring charges) follows the amount's cents (the
sandbox's own rule): ``.13`` declined (insufficient funds), ``.17`` unknown, ``.19`` filtered
(fraud control), anything else approved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from console.sandbox import codes


@dataclass(frozen=True, slots=True)
class Outcome:
    """The status an order ends in, with the reason for anything but approved."""

    status: str
    message: str = ""
    code: int | None = None


APPROVED = Outcome("approved")
_UNKNOWN = Outcome(
    "unknown",
    "The processor did not confirm the outcome; the order needs checking by the gateway",
    codes.OUTCOME_UNKNOWN,
)
CVV2_OUTCOMES: dict[str, Outcome] = {
    "123": APPROVED,
    "1234": APPROVED,
    "111": APPROVED,
    "217": _UNKNOWN,
    "101": Outcome("declined", "Declined: expired card", codes.EXPIRED_CARD),
    "116": Outcome("declined", "Declined: insufficient funds", codes.INSUFFICIENT_FUNDS),
    "119": Outcome("declined", "Declined: transaction not permitted", codes.NOT_PERMITTED),
    "209": Outcome("declined", "Declined: stolen card", codes.STOLEN_CARD),
}
OTHER_CVV2 = Outcome("declined", "Declined by the card issuer", codes.DECLINED_OTHER_CVV2)
AMOUNT_OUTCOMES: dict[int, Outcome] = {
    13: Outcome("declined", "Declined: insufficient funds", codes.DECLINED_BY_AMOUNT),
    17: _UNKNOWN,
    19: Outcome("filtered", "Filtered by fraud control", codes.FILTERED_BY_AMOUNT),
}

# Which body parameter tells what kind of receiver a payout has, first match wins.
_RECEIVERS = (
    ("card_recurring_payment_id", "stored-card"),
    ("recurring-payment-id", "stored-card"),
    ("credit_card_number", "card"),
    ("account_number", "bank"),
    ("ewallet_wallet", "ewallet"),
    ("crypto_wallet_address", "crypto"),
)


def receiver_kind(values: Mapping[str, str]) -> str:
    """``card``, ``stored-card``, ``bank``, ``ewallet``, ``crypto`` or ``other``."""
    for name, kind in _RECEIVERS:
        if values.get(name, "").strip():
            return kind
    return "other"


def by_cvv2(cvv2: str) -> Outcome:
    """The field notes' CVV2 convention."""
    return CVV2_OUTCOMES.get(cvv2.strip(), OTHER_CVV2)


def by_amount(amount: str) -> Outcome:
    """The sandbox's cents rule for everything without a CVV2."""
    try:
        cents = int((Decimal(amount.strip()) * 100) % 100)
    except (InvalidOperation, ValueError):
        return APPROVED
    return AMOUNT_OUTCOMES.get(cents, APPROVED)


def payout_outcome(values: Mapping[str, str]) -> Outcome:
    """The outcome of a payout check order from its body parameters."""
    cvv2 = values.get("cvv2", "").strip()
    if receiver_kind(values) == "card" and cvv2:
        return by_cvv2(cvv2)
    return by_amount(values.get("amount", ""))
