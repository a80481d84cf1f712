"""Schedule date math (month ends, intervals) and the forward-only sandbox clock."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from console.core import schedule as preview
from console.sandbox.clock import SandboxClock, add_months, charge_date


def dates(start: date, period: str, interval: int, count: int) -> list[date]:
    return [charge_date(start, period, interval, i) for i in range(count)]


def test_month_schedule_from_the_31st_clamps_and_comes_back() -> None:
    assert dates(date(2027, 1, 31), "month", 1, 5) == [
        date(2027, 1, 31),
        date(2027, 2, 28),
        date(2027, 3, 31),
        date(2027, 4, 30),
        date(2027, 5, 31),
    ]


def test_month_schedule_in_a_leap_year_uses_the_29th_of_february() -> None:
    assert dates(date(2028, 1, 30), "month", 1, 3) == [
        date(2028, 1, 30),
        date(2028, 2, 29),
        date(2028, 3, 30),
    ]


def test_month_schedule_started_on_29_february_keeps_the_29th_where_it_exists() -> None:
    assert dates(date(2028, 2, 29), "month", 12, 5) == [
        date(2028, 2, 29),
        date(2029, 2, 28),
        date(2030, 2, 28),
        date(2031, 2, 28),
        date(2032, 2, 29),
    ]


def test_interval_multiplies_the_period() -> None:
    assert dates(date(2027, 3, 10), "day", 2, 3) == [
        date(2027, 3, 10),
        date(2027, 3, 12),
        date(2027, 3, 14),
    ]
    assert dates(date(2027, 3, 10), "week", 3, 2) == [date(2027, 3, 10), date(2027, 3, 31)]
    assert dates(date(2027, 11, 30), "month", 2, 3) == [
        date(2027, 11, 30),
        date(2028, 1, 30),
        date(2028, 3, 30),
    ]


def test_add_months_crosses_years_both_ways_of_the_calendar() -> None:
    assert add_months(date(2027, 12, 31), 2) == date(2028, 2, 29)
    assert add_months(date(2027, 10, 31), 13) == date(2028, 11, 30)


@pytest.mark.parametrize(("period", "interval"), [("year", 1), ("month", 0)])
def test_bad_schedules_are_refused(period: str, interval: int) -> None:
    with pytest.raises(ValueError, match=r"period|interval"):
        charge_date(date(2027, 1, 1), period, interval, 1)


@settings(max_examples=200, deadline=None)
@given(
    st.dates(min_value=date(2000, 1, 1), max_value=date(2090, 12, 31)),
    st.sampled_from(["day", "week", "month"]),
    st.integers(min_value=1, max_value=13),
)
def test_sandbox_charges_on_the_dates_the_console_previews(
    start: date, period: str, interval: int
) -> None:
    # The window's schedule preview and the sandbox must agree on every date.
    charges, _ = preview.next_charges(start, period, interval, limit=15)
    assert [c.when for c in charges] == dates(start, period, interval, 15)


def test_clock_moves_forward_only() -> None:
    wall = [1_800_000_000.0]
    clock = SandboxClock(wall=lambda: wall[0])
    before = clock.today()
    clock.advance(days=31)
    assert clock.now() == pytest.approx(1_800_000_000 + 31 * 86400)
    assert (clock.today() - before).days == 31
    clock.advance(seconds=60)
    assert clock.offset == 31 * 86400 + 60
    with pytest.raises(ValueError, match="only moves forward"):
        clock.advance(days=-1)
    wall[0] += 10  # real time goes on underneath
    assert clock.now() == pytest.approx(1_800_000_010 + 31 * 86400 + 60)
