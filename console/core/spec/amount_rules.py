"""Amounts against their currency: more than zero, and no more decimals than the currency
has (ISO 4217 minor units: JPY none, USD and EUR two, BHD three).

The contract says amounts are "in the highest currency units with `.` as the delimiter";
an amount of 0, or 10.505 EUR, cannot be paid as written, so both are errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from console.core.money import amount_places, minor_units, thousands_reading

from .checks import ERROR
from .codes import Code
from .model import Problem
from .rules import Rule


def amounts_fit_currency(
    amount_fields: Sequence[str], currency_field: str = "currency", *, lists: Sequence[str] = ()
) -> Rule:
    """Each amount (and each element of an amount list, the fields named in ``lists``) is
    above zero and has no more decimals than the currency's minor units."""

    def rule(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
        currency = given.get(currency_field, "")
        places = minor_units(currency) if len(currency) == 3 else None
        for name in amount_fields:
            raw = given.get(name)
            if raw is None:
                continue
            # only a list field holds several amounts: "424,00" is one amount, not 424 and 0
            for part in raw.split(",") if name in lists else (raw,):
                written = amount_places(part)
                if written is None:
                    continue  # its own check said what is wrong with the writing
                if not part.strip("0."):  # only zeros (the contract's writing has no sign)
                    out.append(
                        Problem(
                            (name,),
                            ERROR,
                            f"{name} {part} is not an amount that can be paid: it must be "
                            "more than 0.",
                            Code.RANGE.value,
                        )
                    )
                elif places is not None and written > places:
                    fix = (
                        "write a whole number"
                        if places == 0
                        else f"write it with at most {places} decimal{'s' if places > 1 else ''}"
                    )
                    if thousands := thousands_reading(part):  # 1.234: a thousands dot?
                        fix += f" (if the dot separates thousands, write {thousands})"
                    out.append(
                        Problem(
                            (name, currency_field),
                            ERROR,
                            f"{name} {part} has more decimals than {currency.upper()} has: {fix}.",
                            Code.FORMAT.value,
                        )
                    )

    return rule
