"""A batch file template per receiver type, written by the console: the header names the
columns the contract needs for that receiver, and one example row shows valid values (the
local sandbox's conventions: its test card, whole amounts approved).
"""

from __future__ import annotations

import csv
import io

from console.core.csv_cells import csv_row

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
_CALLBACK = {"server_callback_url": "https://merchant.example/gateway/callback"}

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
    return {**_ORDER, **receiver, **_RECEIVER, **_CALLBACK}


def template_csv(kind: str, delimiter: str = ",") -> str:
    """The CSV template of a receiver type: header and one example row."""
    values = template_values(kind)
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(csv_row(values))
    writer.writerow(csv_row(values.values()))
    return out.getvalue()
