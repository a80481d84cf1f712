"""The recurring schedule preview (contract 4.3 rules 2, 3 and 5)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from console.core.schedule import (
    AmountRule,
    StopReason,
    add_months,
    amount_rule_from,
    charge_date,
    next_charges,
    preview,
)

TODAY = date(2025, 1, 15)


def _values(**kw: str) -> dict[str, str]:
    return {k.replace("_", "-"): v for k, v in kw.items()}


def test_no_schedule_without_period_and_interval() -> None:
    p = preview({"amount": "10.00"}, today=TODAY)
    assert not p.has_schedule
    assert "No automatic schedule" in p.reason


@pytest.mark.parametrize("given_", [{"period": "day"}, {"interval": "2"}])
def test_period_and_interval_go_together(given_: dict[str, str]) -> None:
    p = preview(given_, today=TODAY)
    assert not p.has_schedule
    assert "both" in p.reason


def test_day_interval_multiplies_the_period() -> None:
    p = preview(_values(period="day", interval="2", start_date="01.03.2025"), today=TODAY)
    assert [c.when for c in p.charges[:3]] == [date(2025, 3, 1), date(2025, 3, 3), date(2025, 3, 5)]
    assert [c.index for c in p.charges[:3]] == [0, 1, 2]


def test_week_is_seven_days_times_interval() -> None:
    p = preview(_values(period="week", interval="3", start_date="06.01.2025"), today=TODAY)
    assert p.charges[1].when - p.charges[0].when == timedelta(days=21)


def test_month_keeps_the_start_day_and_clamps_short_months() -> None:
    p = preview(_values(period="month", interval="1", start_date="31.01.2024"), today=TODAY)
    dates = [c.when for c in p.charges[:4]]
    assert dates == [date(2024, 1, 31), date(2024, 2, 29), date(2024, 3, 31), date(2024, 4, 30)]
    assert [c.clamped for c in p.charges[:4]] == [False, True, False, True]
    assert any("last day" in n for n in p.notes)


def test_month_interval_crosses_years() -> None:
    assert charge_date(date(2025, 11, 30), "month", 3, 1) == (date(2026, 2, 28), True)
    assert add_months(date(2025, 12, 15), 1) == (date(2026, 1, 15), False)


def test_start_date_defaults_to_today_and_says_so() -> None:
    p = preview(_values(period="day", interval="1"), today=TODAY)
    assert p.charges[0].when == TODAY
    assert any("today" in n for n in p.notes)


def test_max_repeats_limits_the_number_of_charges() -> None:
    p = preview(_values(period="day", interval="1", max_repeats_number="3"), today=TODAY)
    assert [c.index for c in p.charges] == [0, 1, 2]
    assert p.stop is StopReason.MAX_REPEATS


def test_max_repeats_zero_means_no_charge() -> None:
    p = preview(_values(period="day", interval="1", max_repeats_number="0"), today=TODAY)
    assert not p.has_schedule
    assert "max repeats" in p.reason


def test_finish_date_is_the_last_charge_date_inclusive() -> None:
    p = preview(
        _values(period="week", interval="1", start_date="01.01.2025", finish_date="15.01.2025"),
        today=TODAY,
    )
    assert [c.when for c in p.charges] == [date(2025, 1, 1), date(2025, 1, 8), date(2025, 1, 15)]
    assert p.stop is StopReason.FINISH_DATE


def test_finish_before_start_gives_no_charge() -> None:
    p = preview(
        _values(period="day", interval="1", start_date="10.01.2025", finish_date="09.01.2025"),
        today=TODAY,
    )
    assert not p.has_schedule
    assert "finish date" in p.reason


def test_open_schedule_is_cut_at_the_limit() -> None:
    p = preview(_values(period="day", interval="1"), today=TODAY, limit=5)
    assert len(p.charges) == 5
    assert p.stop is StopReason.LIMIT


def test_sequence_repeats_the_last_amount() -> None:
    p = preview(_values(period="day", interval="1", amount_sequence="1.00, 2.00,3.50"), today=TODAY)
    assert [c.amount_text for c in p.charges[:5]] == ["1.00", "2.00", "3.50", "3.50", "3.50"]
    assert [c.repeated_last for c in p.charges[:5]] == [False, False, False, True, True]


def test_fixed_and_range_amounts() -> None:
    fixed = preview(_values(period="day", interval="1", amount="9.99"), today=TODAY)
    assert fixed.charges[3].amount_text == "9.99"
    ranged = preview(
        _values(period="day", interval="1", amount_from="5.00", amount_to="7.50"), today=TODAY
    )
    assert ranged.charges[0].amount_text == "5.00 – 7.50"


def test_ambiguous_amount_rule_gives_dates_without_amounts() -> None:
    p = preview(_values(period="day", interval="1", amount="1", amount_sequence="2"), today=TODAY)
    assert p.has_schedule
    assert p.charges[0].amount_text == ""
    assert amount_rule_from({"amount": "1", "amount-sequence": "2"}) is None


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"period": "year", "interval": "1"}, "Period"),
        ({"period": "day", "interval": "0"}, "Interval"),
        ({"period": "day", "interval": "x"}, "Interval"),
        ({"period": "day", "interval": "1", "start-date": "2025-01-01"}, "Start date"),
        ({"period": "day", "interval": "1", "finish-date": "1.1.25"}, "Finish date"),
        ({"period": "day", "interval": "1", "max-repeats-number": "-1"}, "Max repeats"),
    ],
)
def test_bad_input_explains_without_raising(values: dict[str, str], words: str) -> None:
    p = preview(values, today=TODAY)
    assert not p.has_schedule
    assert words in p.reason


def test_next_charges_rejects_bad_interval() -> None:
    with pytest.raises(ValueError, match="interval"):
        next_charges(TODAY, "day", 0)


@settings(max_examples=150, deadline=None)
@given(
    start=st.dates(min_value=date(2000, 1, 1), max_value=date(2090, 12, 31)),
    interval=st.integers(min_value=1, max_value=14),
    count=st.integers(min_value=1, max_value=30),
)
def test_monthly_charges_land_on_start_day_or_month_end(
    start: date, interval: int, count: int
) -> None:
    charges, _ = next_charges(start, "month", interval, max_repeats=count, limit=100)
    assert len(charges) == count
    for c in charges:
        months = (c.when.year - start.year) * 12 + c.when.month - start.month
        assert months == interval * c.index
        nxt = c.when + timedelta(days=1)
        assert c.when.day == start.day or (c.clamped and nxt.month != c.when.month)


@settings(max_examples=100, deadline=None)
@given(seq=st.lists(st.integers(min_value=1, max_value=999), min_size=1, max_size=6))
def test_sequence_rule_property(seq: list[int]) -> None:
    rule = AmountRule("sequence", tuple(Decimal(v) for v in seq))
    charges, _ = next_charges(TODAY, "day", 1, amount_rule=rule, limit=10)
    for c in charges:
        expected = seq[c.index] if c.index < len(seq) else seq[-1]
        assert c.amounts == (Decimal(expected),)
