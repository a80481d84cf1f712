"""Checks of particular fields' formats: codes, addresses, card numbers and expiry.

Same shape as the checks in :mod:`.checks`. Reference data (ISO code lists) is loaded once,
on first use, by :mod:`.iso`. :func:`luhn_valid` is the console's one Luhn check (masking
and the sandbox use it too).
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from console.core.money import currency_codes

from . import iso
from .checks import ERROR, WARNING, FieldCheck, problem
from .codes import Code
from .hidden import hidden_character, is_id_field
from .model import Field, Problem

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s.]+")
_CONTROL_NAMES = {"\x00": "a NUL", "\t": "a tab", "\n": "a line feed", "\r": "a carriage return"}

# Expiry months 1-12, with or without a leading zero; ISO 4217 codes are three capitals (the
# table decides which exist). Patterns Python and ECMAScript read alike (the OpenAPI export).
MONTH_PATTERN = "0?[1-9]|1[0-2]"
CURRENCY_PATTERN = "[A-Z]{3}"
COUNTRY_PATTERNS = {False: "[A-Z]{2}", True: "[A-Z]{2,3}"}  # by alpha3: ISO 3166-1 codes
_MONTH = re.compile(MONTH_PATTERN)

# Ports deployed gateways call back on (field notes, "Callbacks"); others get a warning only.
CALLBACK_PORTS = frozenset({80, 8080, 443, 8443})


def control_character(fields: tuple[str, ...], shown: str, raw: str) -> Problem | None:
    """An error when ``raw`` holds a control character (NUL, CR, LF, tab, other C0, DEL, C1
    such as U+0085) or a line or paragraph separator (U+2028, U+2029); in an id field
    (:data:`~console.core.spec.hidden.ID_FIELDS`) also a format character nobody sees
    (U+200B, U+FEFF, the bidirectional controls such as U+202E).

    The gateway's answers end each value with a line feed, journals and exported files keep
    one value a line, and a NUL ends a value early in C code: a value is one line of text.
    An id with a character nobody sees looks like another id everywhere it is shown.
    The message says which character and where, never the value (it may be card data).
    """
    found = hidden_character(raw, id_field=is_id_field(fields[0]))
    if found is None:
        return None
    if found.char in _CONTROL_NAMES:
        message = (
            f"{shown} holds {_CONTROL_NAMES[found.char]} (character {found.position}): a value "
            "is one line of text without control characters. Remove it: values are sent "
            "exactly as given."
        )
    else:
        message = (
            f"{shown} holds {found.code_point} at position {found.position}: remove it (a "
            "character nobody sees makes a value look like another; values are sent exactly "
            "as given)."
        )
    return Problem(fields, ERROR, message, Code.CONTROL_CHARACTER.value)


def check_currency(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """ISO 4217 alphabetic currency code, in capitals."""
    codes = currency_codes()
    if value in codes:
        return True
    if value.upper() in codes:
        msg = f"{shown}: write currency codes in capitals: {value.upper()}."
    else:
        msg = f"{shown}: {value} is not an ISO 4217 currency code (for example USD, EUR)."
    out.append(problem(f, ERROR, Code.CURRENCY, msg))
    return False


def country_check(*, alpha3: bool) -> FieldCheck:
    """ISO 3166-1 country code: alpha-2, or alpha-2/alpha-3 when ``alpha3`` (each one
    matches ``COUNTRY_PATTERNS[alpha3]``)."""
    kinds = "alpha-2 or alpha-3" if alpha3 else "alpha-2"
    example = "US or USA" if alpha3 else "US"

    def check_country(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
        codes = iso.country_alpha2_or_3() if alpha3 else iso.country_alpha2()
        if value in codes:
            return True
        if value.upper() in codes:
            msg = f"{shown}: write country codes in capitals: {value.upper()}."
        else:
            msg = f"{shown}: {value} is not an ISO 3166 {kinds} country code (e.g. {example})."
        out.append(problem(f, ERROR, Code.COUNTRY, msg))
        return False

    return check_country


def check_ip(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """An IPv4 or IPv6 address."""
    try:
        ipaddress.ip_address(value)
    except ValueError:
        out.append(
            problem(
                f,
                ERROR,
                Code.IP,
                f"{shown} must be an IPv4 address (203.0.113.10) or an IPv6 address (2001:db8::1).",
            )
        )
        return False
    return True


def check_email(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """A rough shape check only: the gateway is the judge of addresses."""
    if not _EMAIL.fullmatch(value):
        out.append(
            problem(
                f,
                WARNING,
                Code.EMAIL,
                f"{shown} does not look like an e-mail address (name@example.com).",
            )
        )
    return True


def url_check(*, callback: bool) -> FieldCheck:
    """An absolute http(s) address; for callbacks also the ports gateways call back on."""

    def check_url(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
        try:
            parts = urlsplit(value)
            port = parts.port
        except ValueError:
            parts, port = None, None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            out.append(
                problem(
                    f,
                    ERROR,
                    Code.URL,
                    f"{shown} must be a full address starting with https:// or http://, "
                    "for example https://merchant.example/callback.",
                )
            )
            return False
        if callback and port is not None and port not in CALLBACK_PORTS:
            out.append(
                problem(
                    f,
                    WARNING,
                    Code.CALLBACK_PORT,
                    f"{shown} uses port {port}; deployed gateways call back only on ports "
                    "80, 8080, 443 and 8443 (field notes).",
                )
            )
        return True

    return check_url


_DOUBLED = (0, 2, 4, 6, 8, 1, 3, 5, 7, 9)  # a digit doubled, its two digits added (ISO/IEC 7812-1)
# The same as ASCII digits, so the doubled digits are summed as bytes (a batch checks every
# row's card number: no Python loop per digit).
_TWICE = bytes.maketrans(b"0123456789", bytes(48 + d for d in _DOUBLED))


def luhn_valid(digits: str) -> bool:
    """True when ``digits`` (ASCII digits, at least one) end in a right Luhn check digit.

    Anything that is not a non-empty run of ASCII digits is not valid. The tests hold this to
    python-stdnum's ``luhn.is_valid`` on every input they try (a library that costs a command
    ~30 ms to import, for five lines of arithmetic).
    """
    if not (digits.isascii() and digits.isdigit()):
        return False
    data = digits.encode("ascii")
    # from the right: the check digit and every second digit as they are, the others doubled
    kept, doubled = data[-1::-2], data[-2::-2].translate(_TWICE)
    return (sum(kept) + sum(doubled) - 48 * len(data)) % 10 == 0


def check_luhn(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """Card numbers carry a Luhn check digit. A warning only: the gateway decides."""
    if not luhn_valid(value):
        out.append(
            problem(
                f,
                WARNING,
                Code.LUHN,
                f"{shown} fails the card number check digit (Luhn); check it for typos.",
            )
        )
    return True


def check_month(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """Expiry month 1-12, one digit or two (:data:`MONTH_PATTERN`)."""
    if not _MONTH.fullmatch(value):
        out.append(problem(f, ERROR, Code.RANGE, f"{shown} must be a month from 1 to 12."))
        return False
    return True


def check_year(f: Field, shown: str, value: str, out: list[Problem]) -> bool:
    """Expiry year: the contract's length 4 is a four-digit year; two digits get a warning."""
    if len(value) != 4:
        out.append(
            problem(
                f,
                WARNING,
                Code.FORMAT,
                f"{shown} should be the full four-digit year, for example 2030.",
            )
        )
    return True
