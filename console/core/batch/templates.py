"""A batch file template per receiver type, written by the console: the header names the
columns the contract needs for that receiver, and one example row shows valid values (the
local sandbox's conventions: its test card, whole amounts approved). :func:`explain` says
what each column is in plain words.

A template carries no callback address: an example one cannot work (no gateway, nor the
local sandbox, can call it back), so each row would fail its callback. A person who wants
callbacks adds a ``server_callback_url`` column with an address of their own.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from console.core.csv_cells import csv_row
from console.core.spec import get_command
from console.core.spec.model import Necessity

_ORDER = {
    "client_orderid": "batch-0001",
    "amount": "10.00",
    "currency": "USD",
    "order_desc": "Payout",
    "ipaddress": "203.0.113.10",
}
_RECEIVER = {
    "receiver_first_name": "John",
    "receiver_last_name": "Smith",
    "receiver_email": "john.smith@example.com",
    "receiver_country_code": "GB",
}

# receiver type -> (what it is, its own columns with an example value)
TEMPLATES: dict[str, tuple[str, dict[str, str]]] = {
    "card": (
        "a card number (card number and CVV2 stay in your file; the console never writes them)",
        {
            "credit_card_number": "4444444444444448",
            "card_printed_name": "JOHN SMITH",
            "expire_month": "12",
            "expire_year": "2030",
            "cvv2": "123",
        },
    ),
    "stored-card": (
        "a stored card reference (card_recurring_payment_id from create-card-ref)",
        {"card_recurring_payment_id": "5000001"},
    ),
    "recurring-payment-id": (
        "a recurring payment id (recurring-payment-id)",
        {"recurring-payment-id": "5000001"},
    ),
    "bank-account": (
        "a bank account",
        {
            "account_number": "DE89370400440532013000",
            "account_name": "John Smith",
            "bank_name": "Example Bank",
            "bank_bic": "COBADEFFXXX",
        },
    ),
    "ewallet": (
        "an e-wallet",
        {"ewallet_type": "paypal", "ewallet_wallet": "john.smith@example.com"},
    ),
    "crypto": (
        "a crypto wallet",
        {"crypto_wallet_address": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"},
    ),
}


def template_values(kind: str) -> dict[str, str]:
    """The example row of a receiver type, in column order.

    Raises:
        KeyError: an unknown receiver type.
    """
    receiver = TEMPLATES[kind][1]
    return {**_ORDER, **receiver, **_RECEIVER}


def template_csv(kind: str, delimiter: str = ",") -> str:
    """The CSV template of a receiver type: header and one example row."""
    values = template_values(kind)
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(csv_row(values))
    writer.writerow(csv_row(values.values()))
    return out.getvalue()


# What each template column holds, in plain words (the contract's own are terse: "Alias:
# `country`."); the header keeps the contract's names, which the gateway reads.
_WORDS = {
    "client_orderid": "your own id for this payout, one per payout: the console never sends "
    "an id twice, so a run that stopped can be run again",
    "amount": "how much to pay, with a point before the cents (10.00; not 10,00)",
    "currency": "the three-letter currency code (USD, EUR, GBP)",
    "order_desc": "a short description of the payout",
    "ipaddress": "the receiver's IP address (IPv4 or IPv6)",
    "credit_card_number": "the receiver's card number (it stays in your file: the console "
    "writes at most its first six and last four digits)",
    "card_printed_name": "the name as printed on the card",
    "expire_month": "the card's expiry month, 1 to 12",
    "expire_year": "the card's expiry year, four digits",
    "cvv2": "the three or four digits on the back of the card (never written by the console)",
    "card_recurring_payment_id": "a stored card's reference, from an earlier create-card-ref",
    "recurring-payment-id": "a recurring payment profile's id, from create-recurring-payment",
    "account_number": "the receiver's bank account number (or IBAN)",
    "account_name": "the name of the account's holder",
    "bank_name": "the name of the receiver's bank",
    "bank_bic": "the bank's BIC (SWIFT code)",
    "ewallet_type": "the e-wallet service (paypal, for example)",
    "ewallet_wallet": "the receiver's wallet at that service (often an email address)",
    "crypto_wallet_address": "the receiver's crypto wallet address",
    "receiver_first_name": "the receiver's first name",
    "receiver_last_name": "the receiver's last name",
    "receiver_email": "the receiver's email address",
    "receiver_country_code": "the receiver's country, two letters (GB, DE, US)",
}


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a template, explained."""

    name: str  # the contract's name, as the header writes it
    need: str  # required, for this receiver type, or optional
    words: str


def explain(kind: str) -> list[Column]:
    """The columns of a receiver type's template, in order, in plain words.

    Raises:
        KeyError: an unknown receiver type.
    """
    own = TEMPLATES[kind][1]
    fields = {f.name: f for f in get_command("payout-check").fields}

    def need(name: str) -> str:
        if fields[name].necessity is Necessity.REQUIRED:
            return "required"
        return "for this receiver" if name in own else "optional"

    return [Column(name, need(name), _WORDS[name]) for name in template_values(kind)]
