"""Currencies, read one way: an ISO 4217 alphabetic code in capitals, with its minor units
(the decimals an amount in it may have), from the generated table
(:mod:`console.core.money.currency_table`, loaded on first use)."""

from __future__ import annotations

from functools import cache

from console.core.money.errors import MoneyFactError


@cache
def currency_codes() -> frozenset[str]:
    """Every current ISO 4217 alphabetic code (``USD``, ``EUR`` ...)."""
    from console.core.money.currency_table import MINOR_UNITS  # a table: loaded when needed

    return frozenset(MINOR_UNITS)


@cache
def minor_units(currency: str) -> int | None:
    """Decimals the currency has (ISO 4217), or None for a code it does not know."""
    from console.core.money.currency_table import MINOR_UNITS  # a table: loaded when needed

    return MINOR_UNITS.get(currency.upper())


def read_currency(text: str, field: str = "currency") -> str:
    """The ISO 4217 code ``text`` is (white space around it aside).

    Raises:
        MoneyFactError: not a code, or not in capitals (naming the code meant).
    """
    value = text.strip()
    codes = currency_codes()
    if value in codes:
        return value
    if value.upper() in codes:
        raise MoneyFactError(
            field, f"{field} {value}: write currency codes in capitals: {value.upper()}."
        )
    raise MoneyFactError(
        field, f"{field} {value!r} is not an ISO 4217 currency code (for example USD, EUR)."
    )
