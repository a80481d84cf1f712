"""The facts of one order, read the same way by every part of the console.

A request's ``client_orderid`` (``client-orderid`` for create-recurring-payment), where the
money goes (masked), the amount, and the gateway's order id: named by a request (status,
create-card-ref) or given by an answer (``gateway-order-id``, or ``orderid`` in a status
answer). The guard, the confirmation, the journal, team approvals, batches and both fronts
ask here instead of reading fields by hand, so they agree on aliases and white space.

Values are sent exactly as typed (``console.core.spec``); the facts are trimmed, so a
client_orderid pasted with a trailing space is still the same order everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from console.core.masking import mask_pan, pan_fields
from console.core.money import card_number_digits

# The names an order id travels under: create-recurring-payment spells it with a dash.
ORDER_ID_FIELDS = ("client_orderid", "client-orderid")
# Commands that make a new order or profile at the gateway: the ones a repeat would duplicate
# (the double-payout guard's, and what a program made from a request not sent must not carry).
NEW_ORDER_COMMANDS = frozenset({"payout-check", "create-recurring-payment"})
# Where the money goes when no card number is sent, in the order they are looked for.
_RECEIVERS = (
    ("stored card", ("card_recurring_payment_id",)),
    ("recurring payment id", ("recurring-payment-id",)),
    ("bank account", ("account_number",)),
    ("crypto wallet", ("crypto_wallet_address",)),
)

Values = Mapping[str, str] | Iterable[tuple[str, str]]


def _pairs(values: Values) -> list[tuple[str, str]]:
    return list(values.items() if isinstance(values, Mapping) else values)


def first_value(values: Values, *names: str) -> str | None:
    """The first non-blank value under one of ``names`` (in that order), stripped, or None."""
    # one value a name: looked up, not searched (a dict, the usual case, is known before
    # the slower abstract Mapping check)
    if isinstance(values, (dict, Mapping)):
        for name in names:
            value = values.get(name)
            if value and value.strip():
                return value.strip()
        return None
    pairs = _pairs(values)
    for name in names:
        for n, v in pairs:
            if n == name and v.strip():
                return v.strip()
    return None


def client_orderid(values: Values) -> str:
    """The order id a request carries (``client_orderid``, or ``client-orderid``), stripped;
    empty when it has none."""
    return first_value(values, *ORDER_ID_FIELDS) or ""


def amount(values: Values) -> str | None:
    """The amount, or the recurring amount rule (a range or a sequence)."""
    fixed = first_value(values, "amount")
    if fixed:
        return fixed
    low, high = first_value(values, "amount-from"), first_value(values, "amount-to")
    if low and high:
        return f"{low}-{high}"
    return first_value(values, "amount-sequence")


def currency(values: Values) -> str | None:
    """The currency of the amount, as sent."""
    return first_value(values, "currency")


def card_number(values: Values) -> str | None:
    """The card number the request carries (under any of the contract's names), or None."""
    return first_value(values, *sorted(pan_fields()))


def card_numbers_as_digits(values: Mapping[str, str]) -> dict[str, str]:
    """``values`` with every card number field spelled by
    :func:`console.core.money.card_number_digits`."""
    pans = pan_fields()
    return {k: card_number_digits(v) if k in pans else v for k, v in values.items()}


def receiver(values: Values) -> tuple[str | None, str | None]:
    """A masked description of where the money goes (or which card a profile charges), and
    the card's last four digits."""
    pan = card_number(values)
    if pan:
        digits = re.sub(r"\D", "", pan)
        return f"card {mask_pan(pan)}", digits[-4:] if len(digits) >= 4 else None
    for label, names in _RECEIVERS:
        value = first_value(values, *names)
        if value:
            return f"{label} {value}", None
    wallet = first_value(values, "ewallet_wallet")
    if wallet:
        return f"{first_value(values, 'ewallet_type') or 'e-wallet'} {wallet}", None
    return None, None


def requested_order_id(values: Values) -> str | None:
    """The gateway order a request names (``orderid`` of status and create-card-ref)."""
    return first_value(values, "orderid")


def answer_order_id(fields: Values) -> str | None:
    """The gateway's order id an answer gives: ``gateway-order-id`` (payout-check,
    create-recurring-payment), else ``orderid`` (status answers, callbacks)."""
    return first_value(fields, "gateway-order-id", "orderid")


@dataclass(frozen=True, slots=True)
class OrderRef:
    """One order to ask about: the environment it was sent in, its client order id and the
    gateway's order id when known."""

    environment: str
    client_orderid: str
    orderid: str | None = None

    def belongs_to(self, environment: str | None) -> bool:
        """Whether the order is one of ``environment``'s (a name; None: no environment).

        An order belongs to the environment it was sent in, and nowhere else: its status is
        asked there, and a front showing another environment does not offer to ask about it
        (two environments may name different gateways; a sandbox's order id means nothing
        on production)."""
        return environment is not None and environment == self.environment
