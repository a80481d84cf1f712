"""What a person types for team mode, checked before anything is written: submission numbers,
reasons, approval lifetimes and thresholds, "since" times. Each rule raises
:class:`~console.core.team.errors.TeamSetupError` naming the field and the fix."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta

from console.core.money import MoneyFactError, read_amount, read_currency
from console.core.team.errors import TeamSetupError

MAX_ID = 2**63 - 1  # PostgreSQL's bigint
MAX_EXPIRY_HOURS = 24 * 366  # an approval older than a year is not an approval
MAX_REASON = 2000
# what the database's needs_approval compares (a numeric of its own): whole digits, decimals
_MOST_DIGITS, _MOST_DECIMALS = 15, 8
_AGO = re.compile(r"\s*(\d{1,9}(?:\.\d{1,6})?)\s*([mhd])\s*")


def submission_id(text: str) -> int:
    """A submission number as ``team pending`` shows it (#12: 12)."""
    value = text.strip().removeprefix("#")
    if not (value.isascii() and value.isdigit()) or not 0 < int(value) <= MAX_ID:
        raise TeamSetupError(
            f"submission {text!r}: give the number `team pending` shows (1 to {MAX_ID})"
        )
    return int(value)


def reason(text: str) -> str:
    """A rejection's reason: readable text, for the maker."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TeamSetupError(
            "--reason: it is not readable text (bytes that are not UTF-8); type the reason in words"
        ) from None
    cleaned = " ".join(text.split())
    if not cleaned or any(not c.isprintable() for c in cleaned):
        raise TeamSetupError("--reason: say in words why it is rejected (the maker reads it)")
    if len(cleaned) > MAX_REASON:
        raise TeamSetupError(f"--reason: at most {MAX_REASON} characters")
    return cleaned


def expiry(hours: str | float) -> timedelta:
    """How long a pending submission waits for a decision."""
    try:
        value = float(hours)
    except ValueError:
        value = math.nan
    if not (0 < value <= MAX_EXPIRY_HOURS):
        raise TeamSetupError(
            f"--expiry-hours {hours!r}: give hours above 0 and at most {MAX_EXPIRY_HOURS} (e.g. 24)"
        )
    return timedelta(hours=value)


def threshold(currency: str, amount: str) -> str:
    """A currency's approval threshold, an amount the database reads as a number (the core's
    readings of a currency and an amount: :mod:`console.core.money`)."""
    try:
        read_currency(currency, "policy currency")
        value = read_amount(amount, f"policy: the threshold of {currency}")
    except MoneyFactError as exc:
        raise TeamSetupError(f"{exc} (e.g. EUR=1000.00)") from None
    whole, _, decimals = amount.strip().partition(".")
    if len(whole) > _MOST_DIGITS or len(decimals) > _MOST_DECIMALS:
        raise TeamSetupError(
            f"policy: the threshold of {currency} {amount}: at most {_MOST_DIGITS} digits "
            f"before the '.' and {_MOST_DECIMALS} after it (e.g. EUR=1000.00)"
        )
    return f"{value}"


def since(text: str | None, now: datetime | None = None) -> datetime | None:
    """An ISO date/time, or a duration ago (30m, 12h, 7d)."""
    if not text:
        return None
    found = _AGO.fullmatch(text)
    try:
        if found:
            unit = {"m": "minutes", "h": "hours", "d": "days"}[found.group(2)]
            return (now or datetime.now(UTC)) - timedelta(**{unit: float(found.group(1))})
        when = datetime.fromisoformat(text)
        return when if when.tzinfo else when.astimezone()
    except OverflowError:
        raise TeamSetupError(
            f"--since {text!r}: that is before any audit entry; give less"
        ) from None
    except ValueError:
        raise TeamSetupError(
            f"--since {text!r}: give an ISO date/time (2026-05-01T09:00) or a duration "
            "ago (30m, 12h, 7d)"
        ) from None
