"""A recurring payment profile's schedule on the command line: ``validate`` and ``send`` of
create-recurring-payment print the charges it makes; ``send status`` for a profile before its
first charge says that no charge exists yet and when the first is due (the rules are
:mod:`console.core.schedule_report`'s)."""

from __future__ import annotations

import argparse
import json
from datetime import date
from typing import Any

from console.core.client import Result
from console.core.journals import Journal
from console.core.pipeline import Pipeline, Sent
from console.core.schedule import DATE_FORMAT
from console.core.schedule_report import RECURRING, Schedule, profile_in_journal, schedule_of


def schedule_for(command: str, values: dict[str, str]) -> Schedule | None:
    """The schedule of create-recurring-payment values; None for any other command."""
    return schedule_of(values) if command == RECURRING else None


def print_schedule(schedule: Schedule | None) -> None:
    if schedule is not None:
        print()
        print("\n".join(schedule.lines()))


def no_charge_yet(
    args: argparse.Namespace,
    pipeline: Pipeline,
    journal: Journal,
    sent: Sent,
    outcome_json: Any,
    today: date | None = None,
) -> bool:
    """Say so and return True when ``sent`` is a refused status look-up of a recurring
    profile the journal holds whose first charge is not due yet (the gateway has no order
    for it until then)."""
    outcome = sent.outcome
    if outcome.prepared.command != "status" or sent.result != Result.REJECTED:
        return False
    params = dict(outcome.prepared.params)
    oid = params.get("client_orderid", "")
    profile = profile_in_journal(
        journal, pipeline.gateway(RECURRING), pipeline.environment, oid.strip()
    )
    first = profile.first_due() if profile is not None else None
    if profile is None or first is None or first < (today or date.today()):
        return False
    rpi = f" {profile.recurring_payment_id}" if profile.recurring_payment_id else ""
    if args.json:
        print(
            json.dumps(
                {
                    "result": "no-charge-yet",
                    "client_orderid": oid,
                    "recurring_payment_id": profile.recurring_payment_id or None,
                    "first_charge": first.isoformat(),
                    "schedule": profile.schedule.to_json(),
                    "gateway_answer": outcome_json(outcome),
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return True
    print(
        f"No charge yet: recurring profile{rpi} ({oid}) makes its first charge on "
        f"{first.strftime(DATE_FORMAT)}; until then the gateway holds no order for it "
        f"(it answered: {outcome.summary})"
    )
    print_schedule(profile.schedule)
    return True
