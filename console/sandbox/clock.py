"""The sandbox clock and the date math of recurring schedules.

The clock is wall time plus an offset that only moves forward, so tests and people can watch
a year of recurring charges in a second. Request timestamps (OAuth) are always checked
against real time; the sandbox clock decides dates: card expiry, schedules, "today".

Month schedules charge on the start date's day of the month. A month that has no such day
(the 29th-31st) is charged on its last day, and the next month goes back to the start day:
31 January -> 28 (29) February -> 31 March. Every date is computed from the start date,
never from the previous charge, so the day never drifts.
"""

from __future__ import annotations

import calendar
import math
import threading
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta

PERIODS = ("day", "week", "month")
# How far the clock may move: a century per step and in all, so every date it makes stays a
# real calendar date (and a state file written with it always loads again).
MAX_STEP_SECONDS = 36_600 * 86_400
MAX_OFFSET_SECONDS = 2 * MAX_STEP_SECONDS


class SandboxClock:
    """Wall time plus a forward-only offset. Thread-safe."""

    def __init__(self, offset: float = 0.0, wall: Callable[[], float] = time.time) -> None:
        self._offset = float(offset)
        self._wall = wall
        self._lock = threading.Lock()

    @property
    def offset(self) -> float:
        """Seconds the sandbox clock runs ahead of real time."""
        with self._lock:
            return self._offset

    def now(self) -> float:
        """Sandbox time as Unix seconds."""
        return self._wall() + self.offset

    def today(self) -> date:
        """The sandbox's local calendar date."""
        return datetime.fromtimestamp(self.now()).date()

    def advance(self, *, days: float = 0, seconds: float = 0) -> float:
        """Move the clock forward and return the new offset.

        Raises:
            ValueError: a negative, not finite or too large step (the sandbox clock never
                goes back, and never further than a century per step or two in all); the
                clock is left as it was.
        """
        step = days * 86400 + seconds
        if not math.isfinite(step):
            raise ValueError("days and seconds must be finite numbers.")
        if step < 0:
            raise ValueError("The sandbox clock only moves forward: give a positive step.")
        if step > MAX_STEP_SECONDS:
            raise ValueError(
                f"A step may be at most {MAX_STEP_SECONDS // 86400} days; move in smaller steps."
            )
        with self._lock:
            if self._offset + step > MAX_OFFSET_SECONDS:
                raise ValueError(
                    f"The sandbox clock may run at most {MAX_OFFSET_SECONDS // 86400} days "
                    "ahead; start the sandbox with a fresh state to go further."
                )
            self._offset += step
            return self._offset


def add_months(start: date, months: int) -> date:
    """``start`` moved by ``months``, clamped to the month's last day when it is shorter."""
    total = start.month - 1 + months
    year, month = start.year + total // 12, total % 12 + 1
    last_day = calendar.monthrange(year, month)[1]
    return date(year, month, min(start.day, last_day))


def charge_date(start: date, period: str, interval: int, index: int) -> date:
    """The date of charge ``index`` of a schedule (index 0 is the start date).

    Raises:
        ValueError: an unknown period or an interval below 1.
    """
    if interval < 1:
        raise ValueError("interval must be 1 or more")
    if period == "day":
        return start + timedelta(days=interval * index)
    if period == "week":
        return start + timedelta(weeks=interval * index)
    if period == "month":
        return add_months(start, interval * index)
    raise ValueError(f"period must be one of {', '.join(PERIODS)}, not {period!r}")
