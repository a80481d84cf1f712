"""What a spreadsheet cell's number format shows of the number it holds.

A workbook stores a number and a format to show it with: 1234.56 under ``0.0`` is shown as
1234.6, 10.04 under ``0.0`` as 10.0, 1234.56 under ``#,##0`` as 1,235. A batch pays the
number stored, always; where the format shows another value, the person has seen (and
checked) a different amount than the one that would be paid, so the reader names both
(:mod:`console.core.batch.spreadsheet`). The format's rounding is Excel's and LibreOffice's:
half away from zero, after scaling (``%`` multiplies by 100, a ``,`` after the last digit
placeholder divides by 1000).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

# Parts of a format that show no digits: quoted text, bracketed colours, locales and
# conditions, escaped characters, the space of a character's width, fill characters.
_NOT_DIGITS = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.|_.|\*.')
_PLACEHOLDER = "0#?"


def _section(number_format: str, number: Decimal) -> str:
    """The section that shows ``number``: positive;negative;zero;text."""
    sections = number_format.split(";")
    if number < 0 and len(sections) > 1:
        return sections[1]
    if number == 0 and len(sections) > 2:
        return sections[2]
    return sections[0]


def shown_number(number: Decimal, number_format: str) -> tuple[Decimal, str] | None:
    """The value the format shows for ``number`` and its text, where that value is not
    ``number`` itself (None: the format shows it as it is, or shows it whole, like
    ``General``, or is one this does not read: a fraction, a date)."""
    section = _NOT_DIGITS.sub("", _section(number_format, number))
    if not any(c in section for c in _PLACEHOLDER) or "/" in section:
        return None
    body = re.split(r"[eE][+-]", section)[0] if re.search(r"[eE][+-]", section) else section
    whole, _, fraction = body.partition(".")
    decimals = sum(fraction.count(c) for c in _PLACEHOLDER)
    scale = Decimal(100) ** section.count("%")
    trailing = re.search(r"[0#?](,+)(?:[^0#?]*)$", whole if fraction == "" else "")
    if trailing:
        scale /= Decimal(1000) ** len(trailing.group(1))
    scaled = number * scale
    if body is not section:  # scientific: so many significant digits
        digits = max(1, sum(whole.count(c) for c in _PLACEHOLDER)) + decimals
        places = digits - 1 - scaled.adjusted() if scaled else decimals
    else:
        places = decimals
    shown = scaled.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if shown == scaled:
        return None
    value = shown / scale
    text = f"{shown:f}%" if "%" in section else f"{value:f}"
    return value, text


def decimals_shown(number_format: str) -> int:
    """How many decimals a plain format (``0.00``, ``#,##0.000``) shows (0: other formats)."""
    section = _NOT_DIGITS.sub("", number_format.split(";")[0])
    if "%" in section or re.search(r"[eE][+-]", section) or "/" in section:
        return 0
    _, point, fraction = section.partition(".")
    return sum(fraction.count(c) for c in _PLACEHOLDER) if point else 0
