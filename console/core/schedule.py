"""The next charges of a recurring payment profile (contract 4.3), for the schedule preview.

Pure functions, no Qt. The rules, from the contract:

* ``period`` and ``interval`` both given: an automatic schedule; both absent: none.
* ``day`` charges every ``interval`` days, ``week`` every ``7 * interval`` days, ``month``
  every ``interval`` months on the start date's day of the month. Months shorter than that
  day are charged on their last day (31 January -> 28/29 February -> 31 March): the
  contract says "whatever the month length", the clamping is how this console reads it.
* The first charge has index 0 and falls on the start date (today when not given).
* ``max-repeats-number``: the profile stops when the current repeats number reaches it, so
  at most that many charges (indices ``0 .. max - 1``) are made.
* ``finish-date`` is the date of the last charge: nothing after it.
* ``amount-sequence``: charge ``i`` uses element ``i``; past the end every charge uses the
  last amount.
"""

from __future__ import annotations

import calendar
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from enum import StrEnum

from console.core.money import amount_or_none

PERIODS = ("day", "week", "month")
DATE_FORMAT = "%d.%m.%Y"
DEFAULT_LIMIT = 12


class StopReason(StrEnum):
    """Why the preview ends where it ends."""

    MAX_REPEATS = "max-repeats"
    FINISH_DATE = "finish-date"
    LIMIT = "limit"  # the schedule goes on; only the first ``limit`` charges are listed


@dataclass(frozen=True, slots=True)
class AmountRule:
    """One of the contract's three amount rules (4.3 rule 1)."""

    kind: str  # "fixed", "range", "sequence"
    amounts: tuple[Decimal, ...]  # fixed: (a,); range: (low, high); sequence: the list

    def for_index(self, index: int) -> tuple[Decimal, ...]:
        """The amount (one value) or range (two values) charged at ``index``."""
        if self.kind == "range":
            return self.amounts
        if self.kind == "sequence":
            return (self.amounts[min(index, len(self.amounts) - 1)],)
        return self.amounts


@dataclass(frozen=True, slots=True)
class Charge:
    """One future charge: index, date and amount (or the random range).

    ``clamped`` is True when the start date's day does not exist in that month and the
    charge moves to the month's last day. ``repeated_last`` is True for sequence charges
    past the end of the list.
    """

    index: int
    when: date
    amounts: tuple[Decimal, ...] = ()
    clamped: bool = False
    repeated_last: bool = False

    @property
    def number(self) -> int:
        """The charge as people count them: 1 is the first."""
        return self.index + 1

    @property
    def amount_text(self) -> str:
        """``10.00``, ``5.00 – 9.00`` or an empty string when no amount rule is known."""
        if len(self.amounts) == 2:
            return f"{self.amounts[0]} – {self.amounts[1]}"
        return str(self.amounts[0]) if self.amounts else ""


@dataclass(frozen=True, slots=True)
class Preview:
    """What the schedule preview shows.

    ``charges`` is empty when there is no schedule; ``reason`` then says why in plain words.
    ``notes`` explain dates the user might not expect (month ends, start date defaulted).
    """

    charges: tuple[Charge, ...] = ()
    stop: StopReason | None = None
    reason: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def has_schedule(self) -> bool:
        return bool(self.charges)


def add_months(start: date, months: int) -> tuple[date, bool]:
    """``start`` moved by ``months``, on the same day or the month's last day if shorter.

    Always computed from the start date, so a 31st comes back to the 31st after a short month.
    Returns the date and whether it was clamped.
    """
    total = start.month - 1 + months
    year, month = start.year + total // 12, total % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return date(year, month, min(start.day, last)), start.day > last


def charge_date(start: date, period: str, interval: int, index: int) -> tuple[date, bool]:
    """The date of charge ``index`` (0 is the start date) and whether it was clamped."""
    if period == "day":
        return start + timedelta(days=interval * index), False
    if period == "week":
        return start + timedelta(days=7 * interval * index), False
    if period == "month":
        return add_months(start, interval * index)
    raise ValueError(f"period must be one of {', '.join(PERIODS)}, not {period!r}")


def next_charges(
    start: date,
    period: str,
    interval: int,
    *,
    max_repeats: int | None = None,
    finish: date | None = None,
    amount_rule: AmountRule | None = None,
    limit: int = DEFAULT_LIMIT,
) -> tuple[tuple[Charge, ...], StopReason]:
    """The first ``limit`` charges of a schedule and why the list ends."""
    if interval < 1:
        raise ValueError("interval must be 1 or more")
    charges: list[Charge] = []
    index = 0
    while True:
        if max_repeats is not None and index >= max_repeats:
            return tuple(charges), StopReason.MAX_REPEATS
        when, clamped = charge_date(start, period, interval, index)
        if finish is not None and when > finish:
            return tuple(charges), StopReason.FINISH_DATE
        if len(charges) >= limit:
            return tuple(charges), StopReason.LIMIT
        amounts = amount_rule.for_index(index) if amount_rule else ()
        repeated = bool(
            amount_rule and amount_rule.kind == "sequence" and index >= len(amount_rule.amounts)
        )
        charges.append(Charge(index, when, amounts, clamped, repeated))
        index += 1


def parse_date(text: str) -> date | None:
    """A DD.MM.YYYY date, or None when the text is not one."""

    try:
        return datetime.strptime(text.strip(), DATE_FORMAT).date()
    except ValueError:
        return None


def amount_rule_from(values: Mapping[str, str]) -> AmountRule | None:
    """The amount rule the values describe, or None when none (or more than one) is usable."""

    def get(name: str) -> str:
        return (values.get(name) or "").strip()

    fixed, low, high, seq = (
        get("amount"),
        get("amount-from"),
        get("amount-to"),
        get("amount-sequence"),
    )
    used = [bool(fixed), bool(low or high), bool(seq)]
    if sum(used) != 1:
        return None
    if fixed:
        value = amount_or_none(fixed)
        return AmountRule("fixed", (value,)) if value is not None else None
    if seq:
        items = [amount_or_none(part) for part in seq.split(",") if part.strip()]
        if not items or any(i is None for i in items):
            return None
        return AmountRule("sequence", tuple(i for i in items if i is not None))
    lo, hi = amount_or_none(low), amount_or_none(high)
    if lo is None or hi is None:
        return None
    return AmountRule("range", (lo, hi))


def preview(
    values: Mapping[str, str], *, today: date | None = None, limit: int = DEFAULT_LIMIT
) -> Preview:
    """The schedule preview for create-recurring-payment form values (wire names).

    Never raises: incomplete or wrong input gives a preview without charges whose ``reason``
    says what is missing (the validator reports the field errors themselves).
    """
    today = today or date.today()

    def get(name: str) -> str:
        return (values.get(name) or "").strip()

    period, interval_text = get("period"), get("interval")
    if not period and not interval_text:
        return Preview(reason="No automatic schedule: period and interval are not given.")
    if not period or not interval_text:
        return Preview(reason="Give both period and interval, or neither.")
    if period not in PERIODS:
        return Preview(reason=f"Period must be one of: {', '.join(PERIODS)}.")
    if not interval_text.isdigit() or int(interval_text) < 1:
        return Preview(reason="Interval must be a whole number of 1 or more.")
    notes: list[str] = []
    start_text = get("start-date")
    start = parse_date(start_text) if start_text else today
    if start is None:
        return Preview(reason="Start date must be written DD.MM.YYYY.")
    if not start_text:
        notes.append("No start date: the first charge is counted from today.")
    finish_text = get("finish-date")
    finish = parse_date(finish_text) if finish_text else None
    if finish_text and finish is None:
        return Preview(reason="Finish date must be written DD.MM.YYYY.")
    max_text = get("max-repeats-number")
    if max_text and not max_text.isdigit():
        return Preview(reason="Max repeats must be a whole number.")
    max_repeats = int(max_text) if max_text else None
    charges, stop = next_charges(
        start,
        period,
        int(interval_text),
        max_repeats=max_repeats,
        finish=finish,
        amount_rule=amount_rule_from(values),
        limit=limit,
    )
    if period == "month" and start.day > 28:
        notes.append(
            f"Charged on day {start.day} of each month; in shorter months on the last day."
        )
    if not charges:
        why = (
            "max repeats is 0"
            if stop is StopReason.MAX_REPEATS
            else "the finish date is before the start date"
        )
        return Preview(stop=stop, reason=f"No charge: {why}.")
    return Preview(charges=charges, stop=stop, notes=tuple(notes))
