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
