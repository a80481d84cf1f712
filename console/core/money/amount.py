"""Amounts, read one way: the contract's writing (digits, ``.`` between units and subunits,
no sign, no exponent, no thousands separator), taken as the exact :class:`~decimal.Decimal`
it writes, or refused with the value meant.

Every entrance reads amounts here: the contract's checks, batch totals, the schedule
preview, team thresholds, batch limits and the command line. ``Decimal(text)`` alone would
take ``1E+3``, ``NaN``, ``-5`` or ``٣`` (an Arabic-Indic digit), none of which the gateway
reads as the person meant.
"""

from __future__ import annotations

import re
from decimal import Decimal

from console.core.money.amount_writing import contract_amount
from console.core.money.errors import MoneyFactError

# The contract: "in the highest currency units with `.` as the delimiter". ASCII digits only
# (a regex's \d would take other scripts' digits).
AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_MOST_CHARACTERS = 64  # far beyond any amount; a longer text is not read as a number
# a number written with an exponent or a sign, which Decimal would read (an exponent of a few
# digits: Decimal refuses one beyond its range, and such a text means no amount anyway)
_DECIMAL_LIKE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


def is_amount(text: str) -> bool:
    """Whether ``text`` (as it is, no white space around) is written the contract's way."""
    return AMOUNT.fullmatch(text) is not None


def amount_or_none(text: str) -> Decimal | None:
    """The exact amount ``text`` writes (white space around it aside), else None; for what
    counts or previews rows whose own checks name the mistake."""
    value = text.strip()
    return Decimal(value) if is_amount(value) else None


def amount_places(text: str) -> int | None:
    """The decimals of an amount written the contract's way (``10.50``: 2), else None."""
    if not is_amount(text):
        return None
    point = text.find(".")
    return 0 if point < 0 else len(text) - point - 1


def meant_amount(text: str) -> str | None:
    """The contract's writing of the value ``text`` most likely means (``1.234,50``: 1234.50,
    ``1E+3``: 1000), or None when that is not clear (or it is written right already)."""
    value = text.strip()
    if is_amount(value):
        return None
    local = contract_amount(value)
    if local is not None:
        return local
    if len(value) <= _MOST_CHARACTERS and _DECIMAL_LIKE.fullmatch(value):
        number = Decimal(value)
        if number > 0 and abs(number.adjusted()) <= 20:
            return f"{number:f}"
    return None


def read_amount(text: str, field: str = "amount", *, above_zero: bool = False) -> Decimal:
    """The exact amount ``text`` writes (white space around it aside).

    Raises:
        MoneyFactError: not written the contract's way (naming the value meant, where it is
            clear), or 0 where ``above_zero``.
    """
    value = text.strip()
    if is_amount(value):
        number = Decimal(value)
        if above_zero and not number:
            raise MoneyFactError(field, f"{field} {value} is not above 0.")
        return number
    meant = meant_amount(value)
    shown = value if len(value) <= _MOST_CHARACTERS else value[:_MOST_CHARACTERS] + "..."
    if meant is not None:
        raise MoneyFactError(
            field,
            f"{field} {shown!r}: write {meant} (digits with '.' between units and subunits, "
            "no thousands separator, no exponent).",
        )
    raise MoneyFactError(
        field,
        f"{field} {shown!r} is not an amount: write digits with '.' between units and "
        "subunits, for example 10.50.",
    )
