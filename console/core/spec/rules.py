"""Rules across fields: the either-or, together, amount and schedule rules of the contract.

A rule has the shape ``rule(given, today, out)``: ``given`` maps each field's contract name
to its trimmed, non-empty value. Rules only reason about combinations; whether a single value
is well formed was already checked field by field, so rules parse quietly and skip what does
not parse.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from .checks import ERROR, WARNING, is_digits, parse_amount, parse_date
from .codes import Code
from .model import Problem, Severity

Rule = Callable[[Mapping[str, str], date, list[Problem]], None]

# Countries with states: alpha-2 and alpha-3 spellings of USA, Canada and Australia.
STATE_COUNTRIES = frozenset({"US", "USA", "CA", "CAN", "AU", "AUS"})


def _names(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _add(out: list[Problem], names: Sequence[str], sev: Severity, code: Code, msg: str) -> None:
    out.append(Problem(tuple(names), sev, msg, code.value))


@dataclass(frozen=True, slots=True)
class OneOf:
    """Send ``first`` or ``second``, never both (callback addresses).

    A rule as data, so the OpenAPI description says the same rule as schema.
    """

    first: str
    second: str

    def __call__(self, given: Mapping[str, str], today: date, out: list[Problem]) -> None:
        first, second = self.first, self.second
        if first in given and second in given:
            _add(
                out,
                (first, second),
                ERROR,
                Code.EITHER_OR,
                f"{first} and {second} are both filled. Send only one of them: clear the other.",
            )


@dataclass(frozen=True, slots=True)
class Together:
    """All of ``names`` or none of them (``what`` names them in a message)."""

    names: tuple[str, ...]
    what: str
    code: Code = Code.TOGETHER

    def __call__(self, given: Mapping[str, str], today: date, out: list[Problem]) -> None:
        names = self.names
        present = [n for n in names if n in given]
        if present and len(present) < len(names):
            missing = [n for n in names if n not in given]
            _add(
                out,
                (*missing, *present),
                ERROR,
                self.code,
                f"{self.what} go together: fill {_names(missing)} as well, or clear "
                f"{_names(present)}.",
            )


@dataclass(frozen=True, slots=True)
class Alternatives:
    """``single`` or the fields of ``group`` (``what`` names them), not both forms at once."""

    single: str
    group: tuple[str, ...]
    what: str

    def __call__(self, given: Mapping[str, str], today: date, out: list[Problem]) -> None:
        single = self.single
        present = [n for n in self.group if n in given]
        if single in given and present:
            _add(
                out,
                (single, *present),
                ERROR,
                Code.EITHER_OR,
                f"{single} is filled together with {_names(present)}. Use either {single} or "
                f"{self.what}, not both: clear one of them.",
            )


def expiry(month_name: str, year_name: str) -> Rule:
    """Warn about a card that expired before ``today`` (the gateway decides)."""

    def rule(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
        expired = _expired(given.get(month_name, ""), given.get(year_name, ""), today)
        if expired is not None:
            month, year = expired
            _add(
                out,
                (month_name, year_name),
                WARNING,
                Code.EXPIRED,
                f"The card expired in {month:02d}/{year}; check {month_name} and {year_name}.",
            )

    return rule


@lru_cache(maxsize=1024)  # a file's rows repeat a few expiry dates
def _expired(month: str, year: str, today: date) -> tuple[int, int] | None:
    """The month and four-digit year of a card that expired before ``today``, else None."""
    if not (is_digits(month) and is_digits(year)) or len(month) > 2 or len(year) > 4:
        return None  # the fields' own checks say what is wrong
    if not 1 <= int(month) <= 12:
        return None
    y = int(year) + (2000 if len(year) <= 2 else 0)
    return (int(month), y) if (y, int(month)) < (today.year, today.month) else None


def state_for_country(
    country_name: str, state_name: str, severity: Severity, countries: frozenset[str]
) -> Rule:
    """A state is needed for USA, Canada and Australia."""

    def rule(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
        country = given.get(country_name, "").upper()
        if country in countries and state_name not in given:
            need = "is required" if severity is ERROR else "should be given"
            _add(
                out,
                (state_name,),
                severity,
                Code.STATE_REQUIRED,
                f"{state_name} {need} for {country} (USA, Canada and Australia have states): "
                "enter the state code.",
            )

    return rule


def amount_range(low: str, high: str) -> Rule:
    """``low`` must not exceed ``high``."""

    def rule(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
        a, b = parse_amount(given.get(low, "")), parse_amount(given.get(high, ""))
        if a is not None and b is not None and a > b:
            _add(
                out,
                (low, high),
                ERROR,
                Code.RANGE,
                f"{low} ({a}) is greater than {high} ({b}): swap them or correct one.",
            )

    return rule


def date_order(start: str, finish: str) -> Rule:
    """``finish`` must not be before ``start``."""

    def rule(given: Mapping[str, str], today: date, out: list[Problem]) -> None:
        a, b = parse_date(given.get(start, "")), parse_date(given.get(finish, ""))
        if a is not None and b is not None and b < a:
            _add(
                out,
                (start, finish),
                ERROR,
                Code.DATE_ORDER,
                f"{finish} ({given[finish]}) is before {start} ({given[start]}): "
                "the last charge cannot come before the first.",
            )

    return rule
