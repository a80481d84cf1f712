"""The console's ISO 4217 table is the iso4217 package's table, code for code.

The table is generated (scripts/currency_table.py) so that a command does not pay for the
package parsing its XML on import; this test is what keeps the two the same. When it fails
after an iso4217 update, run ``python scripts/currency_table.py``.
"""

from __future__ import annotations

import iso4217

from console.core.money import currency_codes, minor_units
from console.core.money.currency_table import MINOR_UNITS


def test_every_code_of_the_package_has_its_minor_units_in_the_table() -> None:
    assert {c.code: c.exponent for c in iso4217.Currency} == MINOR_UNITS


def test_the_rules_read_the_table() -> None:
    assert currency_codes() == {c.code for c in iso4217.Currency}
    assert (minor_units("JPY"), minor_units("eur"), minor_units("BHD")) == (0, 2, 3)
    assert minor_units("XAU") is None  # gold: no minor units apply
    assert minor_units("ABC") is None
