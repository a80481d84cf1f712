"""Recurring profiles on the sandbox clock: amount rules, repeats, Stopped."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal

import pytest

from console.sandbox.app import Sandbox
from console.sandbox.records import Order, Profile
from console.sandbox.recurring import AmountRule


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    box = Sandbox(callback_delay=0)
    yield box
    box.stop()


def add_profile(box: Sandbox, **fields: object) -> Profile:
    values: dict[str, object] = {
        "rpi": box.ids.rpi(),
        "login": "demo",
        "endpoint_id": "1001",
        "client_orderid": "sub-1",
        "card_type": "SRC",
        "masked_pan": "444444******4448",
        "pan_token": "t",
        "currency": "USD",
        "amount_kind": "fixed",
        "amounts": "9.99",
        "start_date": box.clock.today().isoformat(),
        "created_at": time.time(),
        "period": "day",
        "interval": 1,
    }
    values.update(fields)
    profile = Profile(**values)  # type: ignore[arg-type]
    box.db.insert(profile)
    return profile


def charges(box: Sandbox, profile: Profile) -> list[Order]:
    return box.db.select(
        Order, "rpi = ? AND kind = 'recurring'", (profile.rpi,), order="repeat_index"
    )


def stored(box: Sandbox, profile: Profile) -> Profile:
    found = box.db.get(Profile, profile.rpi)
    assert found is not None
    return found


def test_amount_rules() -> None:
    fixed = AmountRule.from_values({"amount": "9.9"})
    assert [fixed.amount("p", i) for i in range(2)] == [Decimal("9.90")] * 2
    seq = AmountRule.from_values({"amount-sequence": "1.00, 2.50,3"})
    assert [str(seq.amount("p", i)) for i in range(5)] == ["1.00", "2.50", "3.00", "3.00", "3.00"]
    rng = AmountRule.from_values({"amount-from": "5.00", "amount-to": "6.00"})
    drawn = [rng.amount("p", i) for i in range(200)]
    assert all(Decimal("5.00") <= a <= Decimal("6.00") for a in drawn)
    assert len(set(drawn)) > 20  # really random across charges ...
    assert drawn == [rng.amount("p", i) for i in range(200)]  # ... and the same on every run


def test_amount_rule_needs_numbers() -> None:
    with pytest.raises(ValueError, match="not a number"):
        AmountRule.from_values({"amount": "ten"})
    with pytest.raises(ValueError, match="no amount rule"):
        AmountRule.from_values({})


def test_start_date_today_charges_today_and_daily_after(sandbox: Sandbox) -> None:
    profile = add_profile(sandbox)
    assert len(sandbox.recurring.run_due()) == 1
    sandbox.advance_clock(days=3)
    made = charges(sandbox, profile)
    today = sandbox.clock.today()
    assert [o.charge_date for o in made] == [
        (today - timedelta(days=3 - i)).isoformat() for i in range(4)
    ]
    assert [o.repeat_index for o in made] == [0, 1, 2, 3]
    assert all(o.status == "approved" and o.amount == "9.99" for o in made)
    assert stored(sandbox, profile).repeats == 4


def test_sequence_repeats_its_last_amount(sandbox: Sandbox) -> None:
    profile = add_profile(sandbox, amount_kind="sequence", amounts="1.00,2.00")
    sandbox.advance_clock(days=4)
    assert [o.amount for o in charges(sandbox, profile)] == ["1.00", "2.00", "2.00", "2.00", "2.00"]


def test_failed_charges_count_and_max_repeats_stops(sandbox: Sandbox) -> None:
    profile = add_profile(sandbox, amount_kind="sequence", amounts="1.13,2.00", max_repeats=3)
    sandbox.advance_clock(days=10)
    made = charges(sandbox, profile)
    assert [o.status for o in made] == ["declined", "approved", "approved"]
    assert made[0].error_message  # the decline says why
    after = stored(sandbox, profile)
    assert (after.state, after.repeats, after.stop_reason) == (
        "stopped",
        3,
        "max-repeats-number reached",
    )


def test_finish_date_is_the_last_charge_and_stops_the_profile(sandbox: Sandbox) -> None:
    today = sandbox.clock.today()
    profile = add_profile(
        sandbox, period="week", finish_date=(today + timedelta(days=14)).isoformat()
    )
    sandbox.advance_clock(days=13)
    assert stored(sandbox, profile).state == "active"
    sandbox.advance_clock(days=30)
    assert len(charges(sandbox, profile)) == 3  # day 0, 7 and 14 (the finish date)
    assert stored(sandbox, profile).stop_reason == "finish-date reached"


def test_monthly_profile_from_the_31st_over_a_year(sandbox: Sandbox) -> None:
    today = sandbox.clock.today()
    # a start on the next 31st, so the schedule meets the short months
    start = next(
        today + timedelta(days=d) for d in range(62) if (today + timedelta(days=d)).day == 31
    )
    profile = add_profile(sandbox, period="month", start_date=start.isoformat())
    sandbox.advance_clock(days=(start - today).days + 366)
    made = [date.fromisoformat(o.charge_date) for o in charges(sandbox, profile)]
    assert len(made) == 13
    assert made[0] == start
    for when in made:
        next_day = when + timedelta(days=1)
        assert when.day == 31 or next_day.month != when.month  # the 31st or a month's end


def test_no_schedule_means_no_charges(sandbox: Sandbox) -> None:
    profile = add_profile(sandbox, period="", interval=0, state="no-schedule")
    sandbox.advance_clock(days=400)
    assert charges(sandbox, profile) == []


def test_a_schedule_running_past_year_9999_stops_instead_of_failing(sandbox: Sandbox) -> None:
    profile = add_profile(sandbox, period="month", interval=100_000)
    sandbox.recurring.run_due()
    after = stored(sandbox, profile)
    assert (after.state, after.repeats, after.stop_reason) == (
        "stopped",
        1,
        "no further charge date",
    )
