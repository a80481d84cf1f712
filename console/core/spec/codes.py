"""Stable problem codes: the ``Problem.code`` values validation produces.

Fronts, the sandbox and scripts may match on these strings; they never change meaning.
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Why a value or a combination of values is a problem."""

    REQUIRED = "required"  # a required field (or one required by another value) is empty
    TOO_LONG = "too-long"  # longer than the contract's Length
    TOO_SHORT = "too-short"  # shorter than the lower end of a range such as 3-4 or 7-45
    TYPE = "type"  # not of the contract's Type (Numeric digits, Int/Long whole numbers)
    FORMAT = "format"  # right type, wrong spelling (amount with a comma, 2-digit year, list)
    CHOICE = "choice"  # not one of an enumeration's values (SRC/DST, day/week/month)
    DATE = "date"  # not a real date in DD.MM.YYYY
    EITHER_OR = "either-or"  # two alternatives given where only one may be (or none given)
    TOGETHER = "together"  # part of a set that goes together is missing
    NOT_SUPPORTED = "not-supported"  # a field the profile's card type does not support
    LUHN = "luhn"  # card number fails the Luhn check digit
    EXPIRED = "expired"  # card expiry in the past
    RANGE = "range"  # a number outside its allowed range (month 1-12, interval >= 1, from <= to)
    CURRENCY = "currency"  # not an ISO 4217 currency code
    COUNTRY = "country"  # not an ISO 3166 country code
    IP = "ip"  # not an IPv4 or IPv6 address
    EMAIL = "email"  # does not look like an e-mail address
    URL = "url"  # not an absolute http(s) address
    CALLBACK_PORT = "callback-port"  # a port deployed gateways do not call back on
    ALIAS_DUPLICATE = "alias-duplicate"  # a field given under both its name and its alias
    STATE_REQUIRED = "state-required"  # state missing for a country with states
    AMOUNT_RULE = "amount-rule"  # not exactly one amount rule (recurring)
    SCHEDULE = "schedule"  # period and interval not given together
    DATE_ORDER = "date-order"  # finish-date before start-date
    RECEIVER = "receiver"  # no receiver of a payout given
    UNKNOWN_FIELD = "unknown-field"  # a name the command does not have; sent as typed
    NOT_BODY = "not-body"  # a name that never goes into the body (login)
    SURROUNDING_SPACE = "surrounding-space"  # white space around a value: sent as given
    CALLBACK_UNHEARD = "callback-unheard"  # a callback address on this computer, nobody there
    CONTROL_CHARACTER = "control-character"  # NUL, line feed, U+2028; in an id also U+200B, U+202E


PROBLEM_CODES: tuple[str, ...] = tuple(c.value for c in Code)
