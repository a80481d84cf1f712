"""Printing for ``gateway-console batch``: the validation table, totals, progress, results."""

from __future__ import annotations

import sys
from typing import TextIO

from console.core.batch import BatchReport, Plan, Progress, RowState
from console.core.masking import mask_text
from console.core.spec.model import Severity

_MOST_PROBLEMS = 200  # the table's first rows; the count says how many more there are
_CARD_NUMBER = "not sent unless you pass --confirm-card-numbers"


def print_validation(plan: Plan, *, warnings: bool, out: TextIO | None = None) -> None:
    """The problem table (row, field, message), journal notes, the rows needing a decision,
    and totals per currency."""
    out = out or sys.stdout
    v = plan.validation
    shown = [p for p in v.problems if warnings or p.severity is Severity.ERROR]
    if shown:
        print(f"{'row':>6}  {'severity':8}  {'field':28}  message", file=out)
        for p in shown[:_MOST_PROBLEMS]:
            row = str(p.row) if p.row else "header"
            print(f"{row:>6}  {p.severity:8}  {p.field:28}  {mask_text(p.message)}", file=out)
        if len(shown) > _MOST_PROBLEMS:
            print(f"        ... and {len(shown) - _MOST_PROBLEMS} more", file=out)
    for state in (RowState.ACCEPTED, RowState.UNKNOWN):
        for checked in v.rows_in(state):
            print(
                f"{checked.row.number:>6}  {'journal':8}  {'client_orderid':28}  {checked.note}",
                file=out,
            )
    for checked in plan.undecided:
        field = "credit_card_number"
        note = f"{checked.card_question} ({_CARD_NUMBER})"
        print(f"{checked.row.number:>6}  {'decide':8}  {field:28}  {note}", file=out)
    numbers = {r.row.number for r in v.rows}
    count = len(numbers) + sum(1 for n in v.error_rows if n not in numbers)
    ready = [r for r in plan.to_send if r.state is not RowState.UNKNOWN]
    print(
        f"\n{count} rows: {len(ready)} ready, {len(v.error_rows)} with errors, "
        f"{len(v.rows_in(RowState.ACCEPTED))} accepted before (skipped), "
        f"{len(v.rows_in(RowState.UNKNOWN))} with an unknown outcome, "
        f"{len(plan.undecided)} needing a decision (not sent)",
        file=out,
    )
    for total in sorted(plan.totals.values(), key=lambda t: t.currency):
        print(
            f"  {total.currency}: {total.count} payouts, total {total.total:.2f}, largest "
            f"{total.largest:.2f} (row {total.largest_row})",
            file=out,
        )


def progress_line(p: Progress) -> str:
    left = f", about {p.left:.0f} s left" if p.left is not None else ""
    paused = " (paused)" if p.paused else ""
    return f"{p.done}/{p.total} rows, {p.rate:.1f} rows/s{left}{paused}"


def print_report(report: BatchReport, *, out: TextIO | None = None) -> None:
    """Rows that were not accepted, the counts, and why the batch stopped."""
    out = out or sys.stdout
    counts: dict[str, int] = {}
    for r in report.results:
        counts[r.result] = counts.get(r.result, 0) + 1
        if r.result not in ("accepted", "signed"):
            order = r.checked.row.client_orderid
            print(f"row {r.number} {order}: {r.result}: {mask_text(r.message)}", file=out)
    text = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "nothing sent"
    print(f"{len(report.results)} rows in {report.elapsed:.1f} s: {text}", file=out)
    if report.stopped:
        print(report.stopped, file=out)


def print_plan(plan: Plan, *, out: TextIO | None = None) -> None:
    """One line before a run: what goes, what is skipped and why."""
    v = plan.validation
    parts = [f"{len(plan.to_send)} to send"]
    if v.rows_in(RowState.ACCEPTED):
        parts.append(f"{len(v.rows_in(RowState.ACCEPTED))} accepted before (skipped)")
    if v.error_rows:
        parts.append(f"{len(v.error_rows)} with errors (left out)")
    if plan.undecided:
        parts.append(f"{len(plan.undecided)} needing a decision (skipped: {_CARD_NUMBER})")
    print(f"{v.batch.path.name}: " + ", ".join(parts), file=out or sys.stdout)
