"""Currencies, read one way: an ISO 4217 alphabetic code in capitals, with its minor units
(the decimals an amount in it may have), from the generated table
(:mod:`console.core.money.currency_table`, loaded on first use)."""

from __future__ import annotations

from decimal import MAX_PREC, Context, Decimal
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


_EXACT = Context(prec=MAX_PREC)  # adding zeros to a long amount never rounds it


def amount_text(value: Decimal, currency: str = "") -> str:
    """``value`` written exactly, with at least the currency's decimals (two where it has
    none known): 1000.005 BHD is ``1000.005``, never the ``1000.00`` of a two-decimal
    format, and 10.5 EUR is ``10.50``. Totals, summaries and thresholds are written so."""
    places = minor_units(currency) if currency else None
    want = 2 if places is None else places
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and -exponent < want:
        value = value.quantize(Decimal(1).scaleb(-want), context=_EXACT)  # zeros added only
    return f"{value:f}"
