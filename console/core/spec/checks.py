"""Checks of one value at a time: length and type (the contract's columns).

Each check has the shape ``check(field, shown_name, value, out) -> bool``: it appends any
problem to ``out`` and returns False when the value is so wrong that the later checks of the
same field would only repeat the bad news (no Luhn check on a number with letters in it).
``shown_name`` is the name as the user typed it (an alias, maybe); ``Problem.fields`` always
carries the field's contract name so forms can find the widget.

Messages never repeat card numbers or verification codes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from decimal import Decimal

from console.core.money import AMOUNT, amount_or_none, is_amount, meant_amount

from .codes import Code
from .model import Field, Problem, Severity

FieldCheck = Callable[[Field, str, str, list[Problem]], bool]

ERROR = Severity.ERROR
WARNING = Severity.WARNING

# The formats these checks hold values to, as regular expressions Python and ECMAScript read
# alike: validation matches with them and the OpenAPI export states them as JSON Schema
# patterns, so the two cannot drift apart (an amount: the money reader's own pattern).
DIGITS_PATTERN = "[0-9]+"
AMOUNT_PATTERN = AMOUNT.pattern
AMOUNT_LIST_PATTERN = f"{AMOUNT_PATTERN}(?:,{AMOUNT_PATTERN})*"
DATE_PATTERN = r"([0-9]{2})\.([0-9]{2})\.([0-9]{4})"
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DATE = re.compile(DATE_PATTERN)
_YEAR_FIRST = re.compile(r"([0-9]{4})[-./]([0-9]{1,2})[-./]([0-9]{1,2})")
_DAY_FIRST_LOOSE = re.compile(r"([0-9]{1,2})[-./ ]([0-9]{1,2})[-./ ]([0-9]{4})")
_SEPARATORS = re.compile(r"[\s-]")

INT_MAX = 2**31 - 1  # "Int": a 32-bit signed integer on the gateway side
LONG_MAX = 2**63 - 1  # "Long": 64-bit


def problem(f: Field, severity: Severity, code: Code, message: str) -> Problem:
    """A problem about one field."""
    return Problem((f.name,), severity, message, code.value)


def is_digits(value: str) -> bool:
    """ASCII digits only (``str.isdigit`` alone would let in superscripts and other scripts):
    :data:`DIGITS_PATTERN`."""
    return value.isascii() and value.isdigit()


def parse_amount(value: str) -> Decimal | None:
    """The amount as a Decimal when it is written the contract's way (exactly, no white
    space around it: it is sent as given), else None."""
    return amount_or_none(value) if is_amount(value) else None


def parse_date(value: str) -> date | None:
    """The date when ``value`` is a real date in DD.MM.YYYY, else None."""
    m = _DATE.fullmatch(value)
    if m is None:
        return None
    try:
        return date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
    except ValueError:
        return None


def _chars(n: int) -> str:
    return "1 character" if n == 1 else f"{n} characters"


def check_length(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """The contract's Length column: at most ``max`` and at least ``min`` characters."""
    n = len(value)
    high, low = f.length.max, f.length.min
    if high is not None and n > high:
        out.append(
            problem(
                f,
                ERROR,
                Code.TOO_LONG,
                f"{shown} is {_chars(n)} long; the contract allows at most {high} "
                f"(length {f.length.text}). Shorten it.",
            )
        )
    elif low is not None and n < low:
        out.append(
            problem(
                f,
                ERROR,
                Code.TOO_SHORT,
                f"{shown} is {_chars(n)} long; the contract needs at least {low} "
                f"(length {f.length.text}).",
            )
        )
    return True


def check_digits(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """Numeric: digits only. Spaces and dashes pasted with a card number are pointed out."""
    if is_digits(value):
        return True
    if is_digits(_SEPARATORS.sub("", value)):
        fix = "remove the spaces and dashes"
        if f.sensitive is None:
            fix += f": {_SEPARATORS.sub('', value)}"
    else:
        fix = "use the digits 0-9 only"
    out.append(problem(f, ERROR, Code.TYPE, f"{shown} must contain digits only (Numeric): {fix}."))
    return False


def check_digits_lenient(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """Numeric fields whose real values often hold other characters (phones, postcodes).

    The contract types them Numeric, but "+44 20 ..." and "SW1A 1AA" are real; the gateway
    decides, so this is a warning.
    """
    if not is_digits(value):
        out.append(
            problem(
                f,
                WARNING,
                Code.TYPE,
                f"{shown} is typed Numeric in the contract (digits only); the gateway may "
                "refuse other characters.",
            )
        )
    return True


def check_amount(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """Amounts: digits with ``.`` as the decimal delimiter, in the highest currency unit.
    A common local writing (``1.234,50``, ``1 234,50``, ``1'234.50``) or an exponent
    (``1E+3``) earns the contract's writing of the same value as a suggestion
    (:func:`console.core.money.meant_amount`); it is never applied."""
    if AMOUNT.fullmatch(value):
        return True
    fixed = meant_amount(value)
    if fixed is not None:
        msg = (
            f"{shown} must use '.' as the decimal delimiter, no thousands separator and no "
            f"exponent: {value} reads as {fixed}. Write {fixed}."
        )
        out.append(problem(f, ERROR, Code.FORMAT, msg))
    else:
        out.append(
            problem(
                f,
                ERROR,
                Code.TYPE,
                f"{shown} must be a number in the highest currency unit with '.' as the "
                "delimiter, for example 10.50.",
            )
        )
    return False


def check_amount_sequence(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """A comma-separated list of amounts; Length applies to each amount.

    The contract gives the list the length 10 of a single amount. Read literally that allows
    two amounts, so each element is held to 10 (an error) and a longer whole list only gets a
    warning: the gateway has the last word.
    """
    parts = value.split(",")
    high = f.length.max
    bad = [p for p in parts if not AMOUNT.fullmatch(p)]
    if bad:
        cleaned = ",".join(p.strip() for p in parts if p.strip())
        hint = f" Write {cleaned}." if all(AMOUNT.fullmatch(p) for p in cleaned.split(",")) else ""
        out.append(
            problem(
                f,
                ERROR,
                Code.FORMAT,
                f"{shown} must be amounts separated by commas without spaces, each with '.' "
                f"as the decimal delimiter, for example 10.00,12.50,15.00.{hint}",
            )
        )
        return False
    if high is not None:
        long_parts = [p for p in parts if len(p) > high]
        if long_parts:
            out.append(
                problem(
                    f,
                    ERROR,
                    Code.TOO_LONG,
                    f"{shown}: each amount may have at most {high} characters; "
                    f"{long_parts[0]} has {len(long_parts[0])}.",
                )
            )
        elif len(value) > high:
            out.append(
                problem(
                    f,
                    WARNING,
                    Code.TOO_LONG,
                    f"{shown} is {len(value)} characters long; the contract's length {high} "
                    "may be meant for the whole list, so the gateway may refuse it.",
                )
            )
    return True


def integer_pattern(minimum: int) -> str:
    """The whole numbers :func:`integer_check` takes from ``minimum`` (0 or 1) up, as a
    pattern (the maximum is the length's to say)."""
    if minimum not in (0, 1):
        raise ValueError(f"no pattern for whole numbers from {minimum}")
    # a sign, then digits; "-0" is zero
    return r"\+?0*[1-9][0-9]*" if minimum == 1 else r"\+?[0-9]+|-0+"


def integer_check(minimum: int, maximum: int) -> FieldCheck:
    """Int and Long: a whole number between ``minimum`` and ``maximum``."""

    def check_integer(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
        if not _INTEGER.fullmatch(value):
            out.append(
                problem(f, ERROR, Code.TYPE, f"{shown} must be a whole number (digits only).")
            )
            return False
        digits = value.lstrip("+-0") or "0"
        if len(digits) > len(str(maximum)) and not value.startswith("-"):
            # longer than any allowed number: said so without converting it
            out.append(problem(f, ERROR, Code.RANGE, f"{shown} is too large: at most {maximum}."))
            return True
        number = int(value)
        if number < minimum:
            need = "a positive whole number" if minimum == 1 else f"at least {minimum}"
            out.append(problem(f, ERROR, Code.RANGE, f"{shown} must be {need}."))
        elif number > maximum:
            out.append(problem(f, ERROR, Code.RANGE, f"{shown} is too large: at most {maximum}."))
        return True

    return check_integer


def check_date(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """Dates are DD.MM.YYYY (contract 4.3 rule 6), and must exist in the calendar."""
    m = _DATE.fullmatch(value)
    if m:
        if parse_date(value) is None:
            out.append(problem(f, ERROR, Code.DATE, f"{shown}: {value} is not a real date."))
            return False
        return True
    if m := _YEAR_FIRST.fullmatch(value):
        right = f"{int(m.group(3)):02d}.{int(m.group(2)):02d}.{m.group(1)}"
        msg = f"{shown} must be written DD.MM.YYYY, day first: {right}, not {value}."
    elif m := _DAY_FIRST_LOOSE.fullmatch(value):
        right = f"{int(m.group(1)):02d}.{int(m.group(2)):02d}.{m.group(3)}"
        msg = f"{shown} must be written DD.MM.YYYY with dots and two-digit day and month: {right}."
    else:
        msg = f"{shown} must be a date written DD.MM.YYYY, for example 01.12.2026."
    out.append(problem(f, ERROR, Code.DATE, msg))
    return False


def check_choice(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """Enumerations: one of ``Field.choices``, spelled exactly."""
    if value in f.choices:
        return True
    allowed = ", ".join(f.choices)
    near = [c for c in f.choices if c.lower() == value.lower()]
    fix = f" Write {near[0]}." if near else ""
    out.append(problem(f, ERROR, Code.CHOICE, f"{shown} must be one of {allowed}.{fix}"))
    return False
