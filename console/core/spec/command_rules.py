"""Which cross-field rules each command has (contract 4.2 and 4.3 "Rules")."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from .amount_rules import amounts_fit_currency
from .checks import ERROR, WARNING
from .codes import Code
from .model import CardType, Necessity, Problem
from .recurring import FIELDS as RECURRING_FIELDS
from .rules import (
    STATE_COUNTRIES,
    Alternatives,
    OneOf,
    Rule,
    Together,
    amount_range,
    date_order,
    expiry,
    state_for_country,
)

# payout-check -----------------------------------------------------------------------------

CARD_SET = ("credit_card_number", "card_printed_name", "expire_month", "expire_year")
# Each kind of receiver and the fields that name it (all of them are needed).
RECEIVER_KINDS: dict[str, tuple[str, ...]] = {
    "card": CARD_SET,
    "card-ref": ("card_recurring_payment_id",),
    "rpi": ("recurring-payment-id",),
    "bank": ("account_number",),
    "ewallet": ("ewallet_wallet",),
    "crypto": ("crypto_wallet_address",),
}
# Any one of these names a receiver of the payout (the card set counts by its number).
RECEIVER_FIELDS = (
    "credit_card_number",
    "card_recurring_payment_id",
    "recurring-payment-id",
    "account_number",
    "ewallet_wallet",
    "crypto_wallet_address",
)


def _stored_card_replaces(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
    """Rule 2: recurring-payment-id replaces cardholder data, so both is ambiguous."""
    if "recurring-payment-id" not in given:
        return
    others = [n for n in ("card_recurring_payment_id", *CARD_SET) if n in given]
    if others:
        out.append(
            Problem(
                ("recurring-payment-id", *others),
                WARNING,
                "recurring-payment-id stands in for the cardholder data, but "
                f"{', '.join(others)} are filled too. Keep only one way of naming the card.",
                Code.EITHER_OR.value,
            )
        )


def _some_callback(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
    """Rule 3 asks for one callback address; without one the outcome must be polled."""
    if "server_callback_url" not in given and "notify_url" not in given:
        out.append(
            Problem(
                ("server_callback_url", "notify_url"),
                WARNING,
                "Neither server_callback_url nor notify_url is filled: no callback will "
                "report the final status, so it can only be learned with the status command.",
                Code.EITHER_OR.value,
            )
        )


def _some_receiver(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
    """Who receives the money. Rule 7 leaves which receiver fields an integration needs to
    the gateway, but a payout with no receiver at all pays nobody: an error."""
    if not any(n in given for n in RECEIVER_FIELDS):
        out.append(
            Problem(
                RECEIVER_FIELDS,
                ERROR,
                "No receiver is given: fill the card details, card_recurring_payment_id, "
                "recurring-payment-id, account_number, ewallet_wallet or crypto_wallet_address.",
                Code.RECEIVER.value,
            )
        )


PAYOUT_RULES: tuple[Rule, ...] = (
    Alternatives(
        "card_recurring_payment_id", CARD_SET, "the card details (" + ", ".join(CARD_SET) + ")"
    ),
    Together(
        CARD_SET,
        "The card details credit_card_number, card_printed_name, expire_month and expire_year",
    ),
    _stored_card_replaces,
    OneOf("server_callback_url", "notify_url"),
    _some_callback,
    Alternatives(
        "redirect_url",
        ("redirect_success_url", "redirect_fail_url"),
        "the pair redirect_success_url and redirect_fail_url",
    ),
    Together(
        ("redirect_success_url", "redirect_fail_url"), "redirect_success_url and redirect_fail_url"
    ),
    state_for_country("receiver_country_code", "receiver_state", WARNING, STATE_COUNTRIES),
    _some_receiver,
    expiry("expire_month", "expire_year"),
    amounts_fit_currency(("amount",)),
)

# create-recurring-payment -----------------------------------------------------------------

# Read off the table so the rules follow it: "Not supported for DST" rows, and the rows that
# are required for SRC (Required + SRC only, and "Required for SRC, optional for DST").
SRC_ONLY_FIELDS = tuple(
    f.name for f in RECURRING_FIELDS if f.card_types == frozenset({CardType.SRC})
)
SRC_REQUIRED_FIELDS = tuple(
    f.name
    for f in RECURRING_FIELDS
    if (f.necessity is Necessity.REQUIRED and f.name in SRC_ONLY_FIELDS)
    or f.note.startswith("Required for SRC")
)
AMOUNT_FIELDS = ("amount", "amount-from", "amount-to", "amount-sequence")
# Rule 1's three ways of giving the amount: exactly one of them, with all its fields.
AMOUNT_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("amount", ("amount",)),
    ("amount-from with amount-to", ("amount-from", "amount-to")),
    ("amount-sequence", ("amount-sequence",)),
)


def _card_type(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
    """SRC needs the payer and expiry fields; DST must not carry the SRC-only ones.

    With no valid card type yet, neither is reported: rp_card_type's own problem says enough.
    """
    kind = given.get("rp_card_type")
    if kind == CardType.DST:
        for name in SRC_ONLY_FIELDS:
            if name in given:
                out.append(
                    Problem(
                        (name,),
                        ERROR,
                        f"{name} is not supported when rp_card_type is DST (the card is the "
                        "receiver's: the profile pays money to it): clear it, or set "
                        "rp_card_type to SRC (the card is the payer's: the profile charges it).",
                        Code.NOT_SUPPORTED.value,
                    )
                )
    elif kind == CardType.SRC:
        for name in SRC_REQUIRED_FIELDS:
            if name not in given:
                out.append(
                    Problem(
                        (name,),
                        ERROR,
                        f"{name} is required when rp_card_type is SRC (the card is the "
                        "payer's: the profile charges it): fill it, or set rp_card_type to DST "
                        "(the card is the receiver's: the profile pays money to it).",
                        Code.REQUIRED.value,
                    )
                )


def _amount_rule(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
    """Rule 1: exactly one of amount, the from/to pair, or amount-sequence."""
    used = [rule for rule, names in AMOUNT_RULES if any(n in given for n in names)]
    if len(used) == 1:
        return
    if not used:
        msg = (
            "No amount is given: fill amount, or amount-from with amount-to, "
            "or amount-sequence (exactly one of these)."
        )
        names: tuple[str, ...] = AMOUNT_FIELDS
    else:
        msg = f"Use exactly one amount rule, but {' and '.join(used)} are filled: keep one."
        names = tuple(n for n in AMOUNT_FIELDS if n in given)
    out.append(Problem(names, ERROR, msg, Code.AMOUNT_RULE.value))


def _state_unless_dst(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
    """state is required for USA, Canada and Australia (DST profiles carry no address)."""
    if given.get("rp_card_type") != CardType.DST:
        _recurring_state(given, today, out)


_recurring_state = state_for_country("country", "state", ERROR, STATE_COUNTRIES)

RECURRING_RULES: tuple[Rule, ...] = (
    _card_type,
    _amount_rule,
    Together(("amount-from", "amount-to"), "amount-from and amount-to"),
    amount_range("amount-from", "amount-to"),
    Together(("period", "interval"), "period and interval", Code.SCHEDULE),
    OneOf("notify_url", "server_callback_url"),
    _state_unless_dst,
    date_order("start-date", "finish-date"),
    expiry("expire-month", "expire-year"),
    amounts_fit_currency(
        ("amount", "amount-from", "amount-to", "amount-sequence"), lists=("amount-sequence",)
    ),
)

RULES: dict[str, tuple[Rule, ...]] = {
    "payout-check": PAYOUT_RULES,
    "create-recurring-payment": RECURRING_RULES,
}
