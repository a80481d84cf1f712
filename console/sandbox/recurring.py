"""Recurring payment profiles running on the sandbox clock (contract 4.3 and section 3).

* Charge ``i`` falls on ``charge_date(start, period, interval, i)`` (see ``clock.py`` for
  month ends); the first, index 0, on the start date itself.
* The amount rule: fixed; random in the range (whole cents, the same for the same profile
  and index on every run); or the sequence, whose last amount repeats past its end.
* The current repeats number counts every charge attempt, failed ones too. When it reaches
  ``max-repeats-number`` the profile is Stopped, so at most that many charges are made.
* ``finish-date`` is the date of the last possible charge; the profile is Stopped when the
  sandbox clock reaches it.
* Without ``period`` and ``interval`` there is no automatic schedule (state
  ``no-schedule``).
* A charge's outcome follows the amount rule of ``outcomes.by_amount`` (``.13`` declined,
  ``.17`` unknown, ``.19`` filtered); a charge is final at once and is announced by callback.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from console.sandbox.clock import SandboxClock, charge_date
from console.sandbox.lifecycle import Lifecycle
from console.sandbox.outcomes import by_amount
from console.sandbox.records import Order, Profile
from console.sandbox.state import Database

CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class AmountRule:
    """``fixed`` (one amount), ``range`` (low, high) or ``sequence`` (the list)."""

    kind: str
    amounts: tuple[Decimal, ...]

    @classmethod
    def from_values(cls, values: Mapping[str, str]) -> AmountRule:
        """The rule the request gives (validation has made sure there is exactly one).

        Raises:
            ValueError: no rule, or amounts that are not numbers.
        """

        def get(name: str) -> str:
            return values.get(name, "").strip()

        try:
            if get("amount-sequence"):
                items = [Decimal(p) for p in get("amount-sequence").split(",") if p.strip()]
                return cls("sequence", tuple(items))
            if get("amount-from") or get("amount-to"):
                return cls("range", (Decimal(get("amount-from")), Decimal(get("amount-to"))))
            if get("amount"):
                return cls("fixed", (Decimal(get("amount")),))
        except InvalidOperation:
            raise ValueError("an amount of the amount rule is not a number") from None
        raise ValueError(
            "no amount rule: give amount, amount-from with amount-to, or amount-sequence"
        )

    @classmethod
    def from_profile(cls, profile: Profile) -> AmountRule:
        return cls(profile.amount_kind, tuple(Decimal(a) for a in profile.amounts.split(",")))

    def text(self) -> str:
        """The amounts as stored in a profile."""
        return ",".join(str(a) for a in self.amounts)

    def amount(self, seed: str, index: int) -> Decimal:
        """The amount of charge ``index``; ``seed`` makes random amounts repeatable."""
        if self.kind == "sequence":
            return self.amounts[min(index, len(self.amounts) - 1)].quantize(CENT)
        if self.kind == "range":
            low, high = (int((a * 100).to_integral_value()) for a in self.amounts)
            cents = random.Random(f"{seed}:{index}").randint(min(low, high), max(low, high))
            return (Decimal(cents) / 100).quantize(CENT)
        return self.amounts[0].quantize(CENT)


class Recurring:
    """Makes the charges that the sandbox clock says are due."""

    def __init__(
        self,
        db: Database,
        clock: SandboxClock,
        lifecycle: Lifecycle,
        next_orderid: Callable[[], int],
    ) -> None:
        self.db = db
        self.clock = clock
        self.lifecycle = lifecycle
        self._next_orderid = next_orderid

    def run_due(self) -> list[Order]:
        """Charge every active profile up to the sandbox's today; returns the new charges."""
        today = self.clock.today()
        made: list[Order] = []
        with self.db.transaction():
            for profile in self.db.select(Profile, "state = 'active'"):
                made += self._run(profile, today)
        for order in made:
            self.lifecycle.accepted(order)
        return made

    def _run(self, profile: Profile, today: date) -> list[Order]:
        start = date.fromisoformat(profile.start_date)
        finish = date.fromisoformat(profile.finish_date) if profile.finish_date else None
        rule = AmountRule.from_profile(profile)
        made = []
        while True:
            if profile.max_repeats is not None and profile.repeats >= profile.max_repeats:
                profile.state, profile.stop_reason = "stopped", "max-repeats-number reached"
                break
            try:
                when = charge_date(start, profile.period, profile.interval, profile.repeats)
            except (ValueError, OverflowError):  # past year 9999, or a schedule made invalid
                profile.state, profile.stop_reason = "stopped", "no further charge date"
                break
            if when > today or (finish is not None and when > finish):
                break
            made.append(self._charge(profile, rule, when))
            profile.repeats += 1
        if profile.state == "active" and finish is not None and today >= finish:
            profile.state, profile.stop_reason = "stopped", "finish-date reached"
        self.db.update(profile, "repeats", "state", "stop_reason")
        return made

    def _charge(self, profile: Profile, rule: AmountRule, when: date) -> Order:
        amount = str(rule.amount(str(profile.rpi), profile.repeats))
        outcome = by_amount(amount)
        now = time.time()  # like every order; the schedule date is in charge_date
        order = Order(
            orderid=self._next_orderid(),
            kind="recurring",
            client_orderid=profile.client_orderid,
            status=outcome.status,
            planned_status=outcome.status,
            created_at=now,
            due_at=now,
            login=profile.login,
            endpoint_id=profile.endpoint_id,
            error_message=outcome.message,
            error_code=str(outcome.code or ""),
            amount=amount,
            currency=profile.currency,
            receiver="stored-card",
            masked_pan=profile.masked_pan,
            pan_token=profile.pan_token,
            server_callback_url=profile.server_callback_url,
            notify_url=profile.notify_url,
            rpi=profile.rpi,
            repeat_index=profile.repeats,
            charge_date=when.isoformat(),
            finished_at=now,
        )
        self.db.insert(order)
        return order
