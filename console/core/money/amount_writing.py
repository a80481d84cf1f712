"""How people write amounts, and the contract's writing of the same value, as a suggestion.

The contract wants digits with ``.`` as the decimal delimiter and no thousands separator.
Spreadsheets and people in Europe and Switzerland write ``1.234,50``, ``1 234,50``,
``1'234.50`` or ``424,00``; English-speaking ones ``1,234.50``. Each is recognised only when
its grouping is unambiguous (groups of three digits after the first), and the result is a
suggestion for the message: nothing is ever rewritten silently.
"""

from __future__ import annotations

import re

_SPACES = " \u00a0\u202f"  # space, no-break space, narrow no-break space (French, Swiss)
_FORMS = (
    # 1.234,50 and 1.234.567,00: dots group thousands, the comma is the decimal delimiter
    re.compile(r"(?P<int>[0-9]{1,3}(?:\.[0-9]{3})+),(?P<dec>[0-9]+)"),
    # 1 234,50 / 1 234.50 / 1 234: spaces group thousands
    re.compile(rf"(?P<int>[0-9]{{1,3}}(?:[{_SPACES}][0-9]{{3}})+)(?:[,.](?P<dec>[0-9]+))?"),
    # 1'234.50 (Swiss; also with a typographic apostrophe) and 1'234,50
    re.compile(r"(?P<int>[0-9]{1,3}(?:['\u2019][0-9]{3})+)(?:[.,](?P<dec>[0-9]+))?"),
    # 1,234.50 and 1,234: commas group thousands
    re.compile(r"(?P<int>[0-9]{1,3}(?:,[0-9]{3})+)(?:\.(?P<dec>[0-9]+))?"),
    # 424,00 and 10,5: the comma is the decimal delimiter
    re.compile(r"(?P<int>[0-9]+),(?P<dec>[0-9]{1,2})"),
)
_GROUPED_BY_DOTS = re.compile(r"[0-9]{1,3}\.[0-9]{3}")


def contract_amount(text: str) -> str | None:
    """The contract's writing of an amount written in a common local form, or None when
    the text is none of them (or already the contract's)."""
    value = text.strip()
    for form in _FORMS:
        if m := form.fullmatch(value):
            whole = re.sub(rf"[.,'\u2019{_SPACES}]", "", m.group("int"))
            return f"{whole}.{m.group('dec')}" if m.group("dec") else whole
    return None


def decimal_comma(text: str) -> bool:
    """Whether ``text`` is an amount written with a decimal comma (``47,11``, ``1.234,50``,
    ``1 234,50``), as spreadsheets set to German, French and many other languages save it."""
    value = text.strip()
    for form in _FORMS:
        if (m := form.fullmatch(value)) and m.group("dec"):
            return value[m.start("dec") - 1] == ","
    return False


def thousands_reading(text: str) -> str | None:
    """``1.234`` may be one thousand two hundred and thirty-four written with a dot between
    thousands: that reading, for a message about too many decimals (else None)."""
    value = text.strip()
    return value.replace(".", "") if _GROUPED_BY_DOTS.fullmatch(value) else None
