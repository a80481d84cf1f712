"""ISO 4217 currency and ISO 3166 country codes, loaded once on first use.

The code sets are built once into frozensets; validation then costs one set lookup per
value. Currencies come from ``console.core.money`` (a table generated from the iso4217
package, whose own import parses XML), countries from the iso3166 library (a table written
as Python); each is loaded on first use: neither the window's start-up nor a request
without a country field pays for it. The country table includes Kosovo's ``XK``/``XKX``, the
user-assigned codes banks and payment networks use for it.
"""

from __future__ import annotations

from functools import cache

from console.core.money import currency_codes


@cache
def country_alpha2() -> frozenset[str]:
    """Every ISO 3166-1 alpha-2 code (``US``, ``DE`` ...)."""
    import iso3166  # boundary: the country table, only for a country field (sign loads none)

    return frozenset(c.alpha2 for c in iso3166.countries)


@cache
def country_alpha3() -> frozenset[str]:
    """Every ISO 3166-1 alpha-3 code (``USA``, ``DEU`` ...)."""
    import iso3166  # boundary: the country table, only for a country field (sign loads none)

    return frozenset(c.alpha3 for c in iso3166.countries)


@cache
def country_alpha2_or_3() -> frozenset[str]:
    """Alpha-2 and alpha-3 codes together (``receiver_country_code`` takes either)."""
    return country_alpha2() | country_alpha3()


def preload() -> None:
    """Load the code lists now (about 20 ms), e.g. at start-up, not on the first keystroke."""
    currency_codes()
    country_alpha2_or_3()
