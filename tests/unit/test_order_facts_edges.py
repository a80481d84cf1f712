"""The facts of an order at their edges: a fixed amount beside a range, half a range, the
currency, the card's last four digits however the number was pasted, an e-wallet's kind, and
a batch row's card number written in groups."""

from __future__ import annotations

import pytest

from console.core.order_facts import amount, card_numbers_as_digits, currency, receiver


def test_a_fixed_amount_is_the_amount() -> None:
    assert amount({"amount": " 10.00 ", "amount-sequence": "1,2"}) == "10.00"
    assert amount([("amount", "10.00")]) == "10.00"


def test_half_a_range_is_no_amount_rule() -> None:
    assert amount({"amount-from": "1.00"}) is None
    assert amount({"amount-to": "9.00"}) is None
    assert amount({"amount-from": "1.00", "amount-to": "9.00"}) == "1.00-9.00"


def test_the_currency_is_read_as_sent() -> None:
    assert currency({"currency": "EUR"}) == "EUR"


@pytest.mark.parametrize(
    ("typed", "last_four"),
    [
        ("4111 1111 1111 1234.", "1234"),  # pasted with a trailing full stop
        ("1234", "1234"),  # four digits are enough to name the card
        ("123", None),
    ],
)
def test_the_cards_last_four_digits_are_its_digits(typed: str, last_four: str | None) -> None:
    assert receiver({"credit_card_number": typed})[1] == last_four


def test_an_e_wallet_is_named_by_its_kind() -> None:
    assert receiver({"ewallet_wallet": "w-1", "ewallet_type": "PayPal"}) == ("PayPal w-1", None)
    assert receiver({"ewallet_wallet": "w-1"}) == ("e-wallet w-1", None)


def test_a_batch_rows_card_number_in_groups_is_its_digits_and_nothing_else_changes() -> None:
    # an account number or a phone number written in groups is sent as typed
    row = {"credit_card_number": "4444 4444 4444 4448", "phone": "555 0100-22"}
    assert card_numbers_as_digits(row) == {
        "credit_card_number": "4444444444444448",
        "phone": "555 0100-22",
    }
