"""CSV cells a spreadsheet opens as text, never as a formula: the one rule for every CSV the
console writes (history export, batch results, batch templates).

Values come from outside (a batch file's ``client_orderid``, a gateway's error message), and
a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab, or a line break) is run as a
formula by Excel and LibreOffice: ``=HYPERLINK(...)`` leaks data, ``+cmd|'/C calc'!A0`` may
start a program. Such a cell is written with a leading apostrophe, as OWASP advises, which
spreadsheets show as text; plain numbers (``-10.50``) are left as they are.
"""

from __future__ import annotations

from collections.abc import Iterable

# What a spreadsheet may read as the start of a formula, also in full-width forms (East Asian
# input methods), and after leading spaces (some imports trim them).
_FORMULA_START = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")


def csv_cell(value: object) -> str:
    """``value`` as text a spreadsheet will not run as a formula (None: empty)."""
    text = "" if value is None else str(value)
    first = text.lstrip(" ")[:1] or text[:1]
    if first and first in _FORMULA_START:
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


def csv_row(values: Iterable[object]) -> list[str]:
    """A row of :func:`csv_cell` cells."""
    return [csv_cell(v) for v in values]
