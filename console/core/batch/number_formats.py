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
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

# Parts of a format that show no digits: quoted text, bracketed colours, locales and
# conditions, escaped characters, the space of a character's width, fill characters.
_NOT_DIGITS = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.|_.|\*.')
_EXPONENT = re.compile(r"[eE][+-]")
_THOUSANDS_SCALING = re.compile(r"[0#?](,+)[^0#?]*$")
_PLACEHOLDER = "0#?"


@dataclass(frozen=True, slots=True)
class _Shown:
    """How one section of a format shows a number."""

    decimals: int  # digits after the point (scientific: significant digits - 1 - exponent)
    scale: Decimal  # what the number is multiplied by before it is shown
    percent: bool
    significant: int | None  # scientific formats: the significant digits shown


def _places(text: str) -> int:
    return sum(text.count(c) for c in _PLACEHOLDER)


@lru_cache(maxsize=512)  # a workbook has a few formats and many cells
def _shown(section: str) -> _Shown | None:
    """What ``section`` shows; None where it shows a number whole (``General``, text) or in a
    way this does not read (fractions)."""
    section = _NOT_DIGITS.sub("", section)
    if not any(c in section for c in _PLACEHOLDER) or "/" in section:
        return None
    scientific = _EXPONENT.search(section)
    body = section[: scientific.start()] if scientific else section
    whole, point, fraction = body.partition(".")
    decimals = _places(fraction) if point else 0
    scale = Decimal(100) ** section.count("%")
    if not point and (trailing := _THOUSANDS_SCALING.search(whole)):
        scale /= Decimal(1000) ** len(trailing.group(1))
    significant = max(1, _places(whole)) + decimals if scientific else None
    return _Shown(decimals, scale, "%" in section, significant)


@lru_cache(maxsize=512)
def _sections(number_format: str) -> tuple[str, ...]:
    return tuple(number_format.split(";"))


def shown_number(number: Decimal, number_format: str) -> tuple[Decimal, str] | None:
    """The value the format shows for ``number`` and its text, where that value is not
    ``number`` itself (None: the format shows it as it is, or shows it whole, like
    ``General``, or is one this does not read: a fraction, a date)."""
    sections = _sections(number_format)
    section = sections[0]  # positive;negative;zero;text
    if number < 0 and len(sections) > 1:
        section = sections[1]
    elif number == 0 and len(sections) > 2:
        section = sections[2]
    shown = _shown(section)
    if shown is None:
        return None
    scaled = number * shown.scale if shown.scale != 1 else number
    exponent = scaled.as_tuple().exponent
    places = shown.decimals
    if shown.significant is not None:
        places = shown.significant - 1 - scaled.adjusted() if scaled else shown.decimals
    elif isinstance(exponent, int) and -exponent <= places:
        return None  # no more decimals than shown: shown as it is (the usual cell)
    rounded = scaled.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if rounded == scaled:
        return None
    value = rounded / shown.scale
    return value, f"{rounded:f}%" if shown.percent else f"{value:f}"


def decimals_shown(number_format: str) -> int:
    """How many decimals a plain format (``0.00``, ``#,##0.000``) shows (0: other formats)."""
    shown = _shown(_sections(number_format)[0])
    if shown is None or shown.percent or shown.significant is not None or shown.scale != 1:
        return 0
    return shown.decimals
