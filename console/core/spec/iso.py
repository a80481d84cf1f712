"""ISO 4217 currency and ISO 3166 country codes, loaded once on first use.

pycountry reads its JSON databases lazily and scanning them is slow, so the code sets are
built once into frozensets; validation then costs one set lookup per value. pycountry itself
is imported on first use too: the window's start-up does not pay for a list no field has
asked for yet.
"""

from __future__ import annotations

from functools import cache


@cache
def currency_codes() -> frozenset[str]:
    """Every current ISO 4217 alphabetic code (``USD``, ``EUR`` ...)."""
    import pycountry

    return frozenset(c.alpha_3 for c in pycountry.currencies)


@cache
def country_alpha2() -> frozenset[str]:
    """Every ISO 3166-1 alpha-2 code (``US``, ``DE`` ...)."""
    import pycountry

    return frozenset(c.alpha_2 for c in pycountry.countries)


@cache
def country_alpha3() -> frozenset[str]:
    """Every ISO 3166-1 alpha-3 code (``USA``, ``DEU`` ...)."""
    import pycountry

    return frozenset(c.alpha_3 for c in pycountry.countries)


@cache
def country_alpha2_or_3() -> frozenset[str]:
    """Alpha-2 and alpha-3 codes together (``receiver_country_code`` takes either)."""
    return country_alpha2() | country_alpha3()


def preload() -> None:
    """Load the code lists now (about 50 ms), e.g. at start-up, not on the first keystroke."""
    currency_codes()
    country_alpha2_or_3()
