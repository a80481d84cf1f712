"""Printing for ``gateway-console batch``: the validation table, totals, progress, results."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from console.core.batch import Plan, RowState, Validation
from console.core.masking import mask_text
from console.core.spec.model import Severity

if TYPE_CHECKING:  # running a batch only: checking one does not load the runner
    from console.core.batch import BatchReport, Progress

_MOST_PROBLEMS = 200  # the table's first rows; the count says how many more there are
_CARD_NUMBER = "not sent unless you pass --confirm-card-numbers"


def print_validation(plan: Plan, *, warnings: bool, out: TextIO | None = None) -> None:
    """The problem table (row, field, message), journal notes, the rows needing a decision,
    and totals per currency."""
    out = out or sys.stdout
    v = plan.validation
    # the same problem in many rows (a column missing everywhere) is one line naming them
    shown: dict[tuple[str, str, str], list[int]] = {}
    for p in v.problems:
        if warnings or p.severity is Severity.ERROR:
            shown.setdefault((p.severity, p.field, p.message), []).append(p.row)
    if shown:
        print(f"{'row':>6}  {'severity':8}  {'field':28}  message", file=out)
        for (severity, field, message), rows in list(shown.items())[:_MOST_PROBLEMS]:
            row = str(rows[0]) if rows[0] else "header"
            also = f" (the same in {len(rows)} rows: {_spans(rows)})" if len(rows) > 1 else ""
            print(f"{row:>6}  {severity:8}  {field:28}  {mask_text(message)}{also}", file=out)
        if len(shown) > _MOST_PROBLEMS:
            print(f"        ... and {len(shown) - _MOST_PROBLEMS} more", file=out)
    for state in (RowState.ACCEPTED, RowState.DECLINED, RowState.UNKNOWN):
        for checked in v.rows_in(state):
            print(
                f"{checked.row.number:>6}  {'journal':8}  {'client_orderid':28}  {checked.note}",
                file=out,
            )
    for checked in plan.undecided:
        field = "credit_card_number"
        note = f"{checked.card_question} ({_CARD_NUMBER})"
        print(f"{checked.row.number:>6}  {'decide':8}  {field:28}  {note}", file=out)
    numbers = {r.row.number for r in v.rows}  # ready rows of a large file: counted only
    count = len(numbers) + v.counted + sum(1 for n in v.error_rows if n not in numbers)
    unknown = len(v.rows_in(RowState.UNKNOWN)) if plan.resend_unknown else 0
    refused = plan.refusal()
    if v.header_broken and refused is not None:  # every row waits for the file's fix
        print(f"\n{refused}", file=out)
    print(
        f"\n{_rows(count)}: {plan.send_count - unknown} ready, {len(v.error_rows)} with errors, "
        f"{len(v.rows_in(RowState.ACCEPTED))} accepted before (skipped), "
        f"{_declined(v)}"
        f"{len(v.rows_in(RowState.UNKNOWN))} with an unknown outcome, "
        f"{len(plan.undecided)} needing a decision (not sent)",
        file=out,
    )
    for total in sorted(plan.totals.values(), key=lambda t: t.currency):
        print(
            f"  {total.currency}: {total.count} payouts, total {total.total_text}, largest "
            f"{total.largest_text} (row {total.largest_row})",
            file=out,
        )


def _declined(v: Validation) -> str:
    """The rows the gateway declined before, when there are any (skipped)."""
    declined = len(v.rows_in(RowState.DECLINED))
    return f"{declined} declined before (skipped), " if declined else ""


def _rows(count: int) -> str:
    return f"{count} row" if count == 1 else f"{count} rows"


def _spans(numbers: list[int]) -> str:
    """Row numbers as spans: 2-51, 60."""
    spans: list[list[int]] = []
    for n in sorted(set(numbers)):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


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
    print(f"{_rows(len(report.results))} in {report.elapsed:.1f} s: {text}", file=out)
    if report.stopped:
        print(report.stopped, file=out)


def print_plan(plan: Plan, *, out: TextIO | None = None) -> None:
    """One line before a run: what goes, what is skipped and why."""
    v = plan.validation
    parts = [f"{len(plan.to_send)} to send"]
    if v.rows_in(RowState.ACCEPTED):
        parts.append(f"{len(v.rows_in(RowState.ACCEPTED))} accepted before (skipped)")
    if v.rows_in(RowState.DECLINED):
        parts.append(f"{len(v.rows_in(RowState.DECLINED))} declined before (skipped)")
    if v.error_rows:
        parts.append(f"{len(v.error_rows)} with errors (left out)")
    if plan.undecided:
        parts.append(f"{len(plan.undecided)} needing a decision (skipped: {_CARD_NUMBER})")
    print(f"{v.batch.path.name}: " + ", ".join(parts), file=out or sys.stdout)


@contextmanager
def summarised_log(name: str, out: TextIO | None = None) -> Iterator[None]:
    """Hold back the warnings of logger ``name`` (a dry run's sandbox) and say each kind
    once when done, with how often it happened: 50 rows with one callback address are one
    line, not 50."""
    kinds: dict[str, tuple[str, int]] = {}

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            text = mask_text(record.getMessage())
            kind = re.sub(r"\d+", "#", text)  # the same but for its ids and counts
            first, count = kinds.get(kind, (text, 0))
            kinds[kind] = (first, count + 1)

    logger = logging.getLogger(name)
    handler = Collect(logging.WARNING)
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
        for first, count in kinds.values():
            more = f" (and {count - 1} more like it)" if count > 1 else ""
            print(f"{first}{more}", file=out or sys.stderr)
