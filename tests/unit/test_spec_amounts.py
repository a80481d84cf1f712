"""Amounts that cannot be paid as written are errors: zero, and more decimals than the
currency has (ISO 4217 minor units)."""

from __future__ import annotations

import pytest

from console.core.spec import example_values, validate


def _errors(command: str, **values: str) -> list[str]:
    given = example_values(command)
    given.update(values)
    return [p.message for p in validate(command, given) if p.severity == "error"]


@pytest.mark.parametrize("amount", ["0", "0.00", "0.0"])
def test_a_zero_amount_is_an_error(amount: str) -> None:
    assert any("more than 0" in m for m in _errors("payout-check", amount=amount))


@pytest.mark.parametrize(
    ("amount", "currency"), [("10.505", "EUR"), ("10.5", "JPY"), ("1.2345", "BHD")]
)
def test_more_decimals_than_the_currency_has_is_an_error(amount: str, currency: str) -> None:
    found = _errors("payout-check", amount=amount, currency=currency)
    assert any((currency in m and "decimal" in m) or "whole number" in m for m in found)


@pytest.mark.parametrize(
    ("amount", "currency"), [("10.50", "EUR"), ("10", "JPY"), ("1.234", "BHD"), ("7", "USD")]
)
def test_amounts_within_the_currencys_minor_units_are_fine(amount: str, currency: str) -> None:
    assert _errors("payout-check", amount=amount, currency=currency) == []


def test_a_negative_amount_is_an_error() -> None:
    assert _errors("payout-check", amount="-10.00")


def test_each_amount_of_a_recurring_sequence_fits_the_currency() -> None:
    found = _errors(
        "create-recurring-payment",
        **{"amount": "", "amount-sequence": "10.00,0.00,2.505", "currency": "USD"},
    )
    assert any("0.00" in m and "more than 0" in m for m in found)
    assert any("2.505" in m for m in found)


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("1.234,50", "1234.50"),  # Germany, Italy, Spain...
        ("12.345,67", "12345.67"),
        ("1 234,50", "1234.50"),  # France: a space, often a no-break one
        ("1\u00a0234,50", "1234.50"),
        ("1\u202f234,50", "1234.50"),
        ("1'234.50", "1234.50"),  # Switzerland
        ("1\u2019234.50", "1234.50"),
        ("1,234.50", "1234.50"),
        ("424,00", "424.00"),
    ],
)
def test_a_local_writing_of_an_amount_gets_the_contracts_writing_as_its_only_advice(
    written: str, meant: str
) -> None:
    """One error that names the value meant; never "more decimals" or "not an amount"."""
    given = {**example_values("payout-check"), "amount": written}
    [problem] = [p for p in validate("payout-check", given) if "amount" in p.fields]
    assert problem.message.endswith(f": {written} reads as {meant}. Write {meant}.")
    assert given["amount"] == written  # a suggestion: the value is never rewritten


def test_a_dot_between_thousands_is_offered_as_a_reading_of_too_many_decimals() -> None:
    [message] = _errors("payout-check", amount="1.234", currency="EUR")
    assert "at most 2 decimals (if the dot separates thousands, write 1234)" in message


def test_a_recurring_sequence_still_reads_commas_as_its_separator() -> None:
    found = _errors("create-recurring-payment", **{"amount-sequence": "5.00,0", "amount": ""})
    assert "amount-sequence 0 is not an amount that can be paid: it must be more than 0." in found
