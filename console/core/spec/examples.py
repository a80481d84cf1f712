"""Realistic, valid example values for each command, for "Fill example" and the docs.

The card is the sandbox test card of the field notes (4444 4444 4444 4448, Luhn-valid) with
CVV2 123, which the integration environment approves. Dates are computed from ``today`` so
the expiry is always in the future and the schedule starts tomorrow.
"""

from __future__ import annotations

from datetime import date, timedelta

from .commands import get_command

SANDBOX_CARD = "4444444444444448"
SANDBOX_CVV2 = "123"
CALLBACK_URL = "https://merchant.example/gateway/callback"
# The approved first payment the local sandbox seeds on every start (create-card-ref's ids):
# exported collections for a sandbox use it, so they run with no variable set by hand.
SANDBOX_FIRST_PAYMENT_ORDERID = 9000001
SANDBOX_FIRST_PAYMENT_CLIENT_ORDERID = "first-payment-1"


def _payout_check(today: date) -> dict[str, str]:
    return {
        "client_orderid": "payout-0001",
        "amount": "10.50",
        "currency": "USD",
        "order_desc": "Payout to card",
        "ipaddress": "203.0.113.10",
        "purpose": "Winnings payout",
        "server_callback_url": CALLBACK_URL,
        "redirect_url": "https://merchant.example/payout/done",
        "credit_card_number": SANDBOX_CARD,
        "card_printed_name": "JOHN SMITH",
        "expire_month": "12",
        "expire_year": str(today.year + 3),
        "cvv2": SANDBOX_CVV2,
        "receiver_first_name": "John",
        "receiver_last_name": "Smith",
        "receiver_country_code": "US",
        "receiver_state": "NY",
        "receiver_city": "New York",
        "receiver_zip_code": "10001",
        "receiver_address1": "350 Fifth Avenue",
        "receiver_phone": "12125550100",
        "receiver_email": "john.smith@example.com",
        "merchant_data": "example",
    }


def _create_card_ref(today: date) -> dict[str, str]:
    return {"client_orderid": "sale-0001", "orderid": "1234567"}


def _create_recurring_payment(today: date) -> dict[str, str]:
    start = today + timedelta(days=1)
    finish = (
        start.replace(year=start.year + 1)
        if (start.month, start.day) != (2, 29)
        else (start + timedelta(days=365))
    )
    return {
        "rp_card_type": "SRC",
        "client-orderid": "subscription-0001",
        "credit-card-number": SANDBOX_CARD,
        "cvv2": SANDBOX_CVV2,
        "card-printed-name": "JOHN SMITH",
        "expire-year": str(today.year + 3),
        "expire-month": "12",
        "amount": "9.99",
        "currency": "USD",
        "country": "US",
        "city": "New York",
        "zip-code": "10001",
        "address1": "350 Fifth Avenue",
        "first-name": "John",
        "last-name": "Smith",
        "email": "john.smith@example.com",
        "period": "month",
        "interval": "1",
        "order_desc": "Monthly subscription",
        "phone": "+12125550100",
        "state": "NY",
        "start-date": start.strftime("%d.%m.%Y"),
        "finish-date": finish.strftime("%d.%m.%Y"),
        "max-repeats-number": "12",
        "notify_url": CALLBACK_URL,
    }


def _status(today: date) -> dict[str, str]:
    return {"client_orderid": "payout-0001", "orderid": "1234567"}


_EXAMPLES = {
    "payout-check": _payout_check,
    "create-card-ref": _create_card_ref,
    "create-recurring-payment": _create_recurring_payment,
    "status": _status,
}


def example_values(command: str, *, today: date | None = None) -> dict[str, str]:
    """A complete, valid set of values for ``command`` (a fresh dict each call).

    Raises:
        KeyError: unknown command.
    """
    get_command(command)  # the KeyError message lists the valid names
    return _EXAMPLES[command](today if today is not None else date.today())
