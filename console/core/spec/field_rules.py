"""What validation asks of each field of the contract's tables: its checks, from the Type
and Length columns and the formats some fields have, the pattern those checks hold a value
to, and whether it is always required."""

from __future__ import annotations

from . import checks as c
from . import formats as fm
from .model import CardType, Field, FieldType, Necessity

# Numeric amounts ('.' delimiter) and the one list of amounts.
AMOUNT_FIELDS = frozenset({"amount", "amount-from", "amount-to"})
AMOUNT_LIST_FIELDS = frozenset({"amount-sequence"})
# Numeric in the contract, but real values often carry "+", spaces or letters (see
# checks.check_digits_lenient): a warning, not an error.
LENIENT_NUMERIC_FIELDS = frozenset({"receiver_phone", "receiver_zip_code", "receiver_birthday"})
# Lower bounds of whole numbers; ids and counters are never negative.
INT_MINIMUM = {"interval": 1}

_country_2_or_3 = fm.country_check(alpha3=True)
_country_2 = fm.country_check(alpha3=False)
_callback_url = fm.url_check(callback=True)
_plain_url = fm.url_check(callback=False)
_NAMED_CHECKS: dict[str, tuple[c.FieldCheck, ...]] = {
    "currency": (fm.check_currency,),
    "ipaddress": (fm.check_ip,),
    "customer-ip": (fm.check_ip,),
    "receiver_country_code": (_country_2_or_3,),
    "country": (_country_2,),
    "receiver_email": (fm.check_email,),
    "email": (fm.check_email,),
    "server_callback_url": (_callback_url,),
    "notify_url": (_callback_url,),
    "redirect_url": (_plain_url,),
    "redirect_success_url": (_plain_url,),
    "redirect_fail_url": (_plain_url,),
    "credit_card_number": (fm.check_luhn,),
    "credit-card-number": (fm.check_luhn,),
    "expire_month": (fm.check_month,),
    "expire-month": (fm.check_month,),
    "expire_year": (fm.check_year,),
    "expire-year": (fm.check_year,),
}


def _type_checks(f: Field) -> tuple[c.FieldCheck, ...]:
    """The checks the Type column asks for."""
    if f.name in AMOUNT_LIST_FIELDS:
        return (c.check_amount_sequence,)
    if f.type is FieldType.DATE:
        return (c.check_date,)
    if f.type is FieldType.NUMERIC:
        if f.name in AMOUNT_FIELDS:
            return (c.check_length, c.check_amount)
        if f.name in LENIENT_NUMERIC_FIELDS:
            return (c.check_length, c.check_digits_lenient)
        return (c.check_length, c.check_digits)
    if f.type in (FieldType.INT, FieldType.LONG):
        top = c.INT_MAX if f.type is FieldType.INT else c.LONG_MAX
        return (c.check_length, c.integer_check(INT_MINIMUM.get(f.name, 0), top))
    if f.choices:
        return (c.check_length, c.check_choice)
    return (c.check_length,)


def field_checks(f: Field) -> tuple[c.FieldCheck, ...]:
    """Every check of one field, in the order they run (stopping at the first False)."""
    found = _type_checks(f) + _NAMED_CHECKS.get(f.name, ())
    if f.length.min is None and f.length.max is None:
        # "-": no limit to check
        found = tuple(check for check in found if check is not c.check_length)
    return found


# The checks that hold a value to a pattern (the others weigh it against tables or ranges).
_PATTERNS: dict[c.FieldCheck, str] = {
    c.check_digits: c.DIGITS_PATTERN,
    c.check_amount: c.AMOUNT_PATTERN,
    c.check_amount_sequence: c.AMOUNT_LIST_PATTERN,
    c.check_date: c.DATE_PATTERN,
    fm.check_month: fm.MONTH_PATTERN,
    fm.check_currency: fm.CURRENCY_PATTERN,
    _country_2_or_3: fm.COUNTRY_PATTERNS[True],
    _country_2: fm.COUNTRY_PATTERNS[False],
}


def field_pattern(f: Field) -> str | None:
    """The anchored regular expression every value of ``f`` that passes its format checks
    matches (Python and ECMAScript alike, for JSON Schema); None when no check has one."""
    if f.type in (FieldType.INT, FieldType.LONG):
        found = c.integer_pattern(INT_MINIMUM.get(f.name, 0))
    else:
        # the last check with a pattern is the narrowest (a month's digits 1-12)
        found = next((p for check in reversed(field_checks(f)) if (p := _PATTERNS.get(check))), "")
    return f"^(?:{found})$" if found else None


def always_required(f: Field) -> bool:
    """The field is required whatever else the request holds (validation, OpenAPI)."""
    # Rows "Required" but "Not supported for DST" are required for SRC only; the card-type
    # rule reports them, knowing the profile's type.
    return f.necessity is Necessity.REQUIRED and (
        f.card_types is None or CardType.DST in f.card_types
    )
