"""A recurring payment profile's charges in words and as JSON: each charge's date, amount and
the rule that made it, for the command line (``validate``/``send create-recurring-payment``)
and for a profile the journal holds (``send status`` before its first charge).

The dates and amounts are :mod:`console.core.schedule`'s (the window's preview): one rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from console.core.schedule import DATE_FORMAT, Charge, Preview, StopReason, preview

RECURRING = "create-recurring-payment"
_STOPS = {
    StopReason.MAX_REPEATS: "max-repeats-number ends the profile after these charges",
    StopReason.FINISH_DATE: "finish-date ends the profile after these charges",
    StopReason.LIMIT: "the profile goes on after these",
}


@dataclass(frozen=True, slots=True)
class Schedule:
    """The charges a profile's values make, from ``start`` (today when not given)."""

    values: Mapping[str, str]
    preview: Preview

    @property
    def currency(self) -> str:
        return (self.values.get("currency") or "").strip().upper()

    def rule(self, charge: Charge) -> str:
        """Why this charge falls on its date with its amount, in plain words."""
        period = self.values.get("period", "").strip()
        step = int(self.values.get("interval", "1").strip() or 1) * charge.index
        when = (
            "the start date"
            if charge.index == 0
            else f"start date + {step} {period}{'s' if step != 1 else ''}"
        )
        if charge.clamped:
            when += " (a shorter month: its last day)"
        if len(charge.amounts) == 2:
            amount = "a random amount in amount-from .. amount-to"
        elif (self.values.get("amount-sequence") or "").strip():
            amount = (
                "the last amount-sequence item, repeated"
                if charge.repeated_last
                else f"amount-sequence item {charge.number}"
            )
        else:
            amount = "the fixed amount" if charge.amounts else "no usable amount rule"
        return f"{when}; {amount}"

    def lines(self) -> list[str]:
        """The schedule as text: one line per charge, then why it ends, and notes."""
        p = self.preview
        if not p.has_schedule:
            return [f"Schedule: {p.reason}"]
        count = len(p.charges)
        more = "+" if p.stop is StopReason.LIMIT else ""
        out = [f"Schedule: {count}{more} charges"]
        for c in p.charges:
            amount = " ".join(x for x in (c.amount_text, self.currency) if x) or "-"
            out.append(
                f"  {c.number:>3}  {c.when.strftime(DATE_FORMAT)}  {amount:>14}  {self.rule(c)}"
            )
        if p.stop is not None:
            out.append(f"  ({_STOPS[p.stop]})")
        out += [f"  Note: {n}" for n in p.notes]
        return out

    def to_json(self) -> dict[str, Any]:
        p = self.preview
        return {
            "charges": [
                {
                    "number": c.number,
                    "date": c.when.isoformat(),
                    "amount": c.amount_text.replace(" – ", ".."),
                    "currency": self.currency,
                    "rule": self.rule(c),
                }
                for c in p.charges
            ],
            "count": len(p.charges),
            "more": p.stop is StopReason.LIMIT,
            "ends": str(p.stop) if p.stop is not None else None,
            "reason": p.reason or None,
            "notes": list(p.notes),
        }


def schedule_of(values: Mapping[str, str], *, today: date | None = None) -> Schedule:
    """The schedule of create-recurring-payment values (wire names)."""
    return Schedule(dict(values), preview(values, today=today))


@dataclass(frozen=True, slots=True)
class Profile:
    """A recurring payment profile the journal holds as created."""

    client_orderid: str
    recurring_payment_id: str
    schedule: Schedule

    def first_due(self) -> date | None:
        charges = self.schedule.preview.charges
        return charges[0].when if charges else None


def profile_in_journal(
    journal: Any, gateway: str | None, environment: str, client_orderid: str
) -> Profile | None:
    """The accepted create-recurring-payment of ``client_orderid`` in ``journal`` (its
    schedule counted from the day it was created when it names no start date), or None."""
    if not client_orderid or not hasattr(journal, "details"):
        return None
    rows: Sequence[Any] = journal.sent_before(gateway, RECURRING, client_orderid, environment)
    row = next((r for r in rows if r.outcome == "accepted"), None)
    if row is None:
        return None
    params = journal.details(row.id).request.get("params") or []
    values = {str(n): str(v) for n, v in params}
    created = row.created.date() if row.created else None
    return Profile(
        client_orderid, row.recurring_payment_id or "", schedule_of(values, today=created)
    )
