"""The results file: a CSV beside the input with each row's outcome, gateway order id, final
status and error, rebuilt from the journal (the record of what was sent) and updated as rows
finish. Written atomically, so a reader or a crash never sees half a file.

Card data: the receiver column holds at most the first six and last four digits of a card
number; CVV2 is never written (the journal's summaries are masked already).
"""

from __future__ import annotations

import csv
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from console.core.atomic import write_atomic, write_atomic_bytes
from console.core.batch.checking import RowState, Validation, receiver_text
from console.core.batch.runner import SIGNED, SKIPPED, RowResult
from console.core.batch.source import COMMAND
from console.core.batch.spreadsheet import first_row, workbook_bytes
from console.core.csv_cells import csv_row
from console.core.errors import InputError
from console.core.masking import mask_text
from console.core.pipeline import Pipeline, Refusal, Seen
from console.core.spec.model import Severity
from console.core.spec.status import FINAL_STATUSES as FINAL

COLUMNS = (
    "row",
    "client_orderid",
    "amount",
    "currency",
    "receiver",
    "outcome",
    "gateway_order_id",
    "final_status",
    "error",
    "environment",
)
# The journal's outcomes, as the results file words them.
_JOURNAL_OUTCOME = {"pending": "unknown", "unknown": "unknown"}
_NOT_SENT_YET = "not sent yet"
# A row a run is about to send: on disk before its request may leave, so a process killed
# meanwhile leaves a file that never says "not sent yet" of an order the gateway may hold.
_MAY_HAVE_LEFT = (
    "Sent, outcome unknown: the batch was sending it when this file was written, so the "
    "gateway may hold the order. Until batch status FILE --check says otherwise, do not pay "
    "it any other way."
)
FAILED_FINAL = FINAL - {"approved"}  # final statuses whose reason the results file carries


@dataclass(frozen=True, slots=True)
class ResultLine:
    row: int
    client_orderid: str
    amount: str
    currency: str
    receiver: str
    outcome: str
    gateway_order_id: str = ""
    final_status: str = ""
    error: str = ""
    environment: str = ""

    def cells(self) -> list[str]:
        return [str(getattr(self, c)) for c in COLUMNS]


def results_path(source: Path) -> Path:
    """``payouts.csv`` -> ``payouts.results.csv``, beside it."""
    return source.with_name(f"{source.stem}.results.csv")


def check_results_path(source: Path, out: Path) -> Path:
    """``out``, unless it is the input itself (which is the person's and never written)."""
    if out.resolve() == source.resolve():
        raise InputError(f"--results {out} is the input file: name another file.")
    if out.exists() and not out.is_file():  # /dev/full, a pipe, a folder: never replaced
        raise InputError(
            f"--results {out} is not a regular file (a device, a pipe or a folder): name a file."
        )
    return out


def _from_journal(
    line: ResultLine, rows: Sequence[Any], checks: Callable[[], Sequence[Any]]
) -> ResultLine:
    """``line`` with the outcome, gateway order id, final status and error of one id's
    journal rows (newest first); ``checks`` gives its status checks, newest first, whose
    answer is the reason of an order that ended declined, filtered or in error."""
    if not rows:
        return line
    row = deciding_row(rows)
    outcome = _JOURNAL_OUTCOME.get(row.outcome, row.outcome)
    status = row.final_status or ""
    if status:  # a status answer or a callback: the gateway holds the order
        outcome = "accepted"
    error = "" if outcome == "accepted" else (row.summary or "")
    if outcome == "unknown" and not error:  # a pending row: its request may be at the gateway
        error = _MAY_HAVE_LEFT
    if status in FAILED_FINAL:
        error = next(
            (c.summary for c in checks() if c.final_status == status and c.summary),
            f"The order ended {status} (said by a callback, which gives no reason).",
        )
    return replace(
        line,
        outcome=outcome,
        gateway_order_id=row.gateway_order_id or "",
        final_status=status,
        error=error,
    )


def deciding_row(rows: Sequence[Any]) -> Any:
    """The send that tells what became of an id (rows newest first): the accepted one, else
    one the gateway gave a status, else one whose outcome is still unknown, else the newest.
    A resend the gateway refused as a duplicate never hides the first send's order."""
    for wanted in (
        lambda r: r.outcome == "accepted",
        lambda r: bool(r.final_status),
        lambda r: r.outcome in _JOURNAL_OUTCOME,
    ):
        found = next((r for r in rows if wanted(r)), None)
        if found is not None:
            return found
    return rows[0]


def journal_rows(pipeline: Pipeline, command: str = COMMAND) -> Callable[[str], Sequence[Any]]:
    """``client_orderid`` -> its ``command`` rows (payout-check, or status checks) in the
    pipeline's journal and environment, newest first (none without a journal)."""
    journal = pipeline.journal
    if journal is None:
        return lambda _oid: []
    env, gateway = pipeline.environment, pipeline.gateway(command)
    return lambda oid: journal.sent_before(gateway, command, oid, env) if oid else []


def result_lines(validation: Validation, pipeline: Pipeline) -> dict[int, ResultLine]:
    """Every row's line, from the file and the pipeline's journal in its environment."""
    journal = journal_rows(pipeline)
    checks = journal_rows(pipeline, "status")
    errors: dict[int, list[str]] = {}
    for p in validation.problems:
        if p.severity is Severity.ERROR:
            errors.setdefault(p.row, []).append(p.message)
    lines: dict[int, ResultLine] = {}
    for checked in validation.rows:
        row = checked.row
        values = row.values
        base = ResultLine(
            row.number,
            row.client_orderid,
            values.get("amount", ""),
            values.get("currency", ""),
            receiver_text(row),
            _NOT_SENT_YET,
            environment=pipeline.environment,
        )
        if checked.state is RowState.INVALID:
            line = replace(base, outcome="invalid", error=" | ".join(errors.get(row.number, [])))
        else:
            oid = row.client_orderid
            line = _from_journal(base, journal(oid), partial(checks, oid))
        lines[row.number] = line
    for number, messages in errors.items():
        if number and number not in lines:  # a row that could not be read at all
            lines[number] = ResultLine(
                number, "", "", "", "", "invalid", error=" | ".join(messages)
            )
    return lines


def apply_result(lines: dict[int, ResultLine], result: RowResult) -> None:
    """Update a row's line with what its send (or skip) just came to."""
    line = lines.get(result.number)
    if line is None or result.result == SIGNED:
        return
    if result.result == SKIPPED:  # not sent; "accepted-before" only when that is why
        before = result.refusal in (Refusal.ACCEPTED_BEFORE, Refusal.DECLINED_BEFORE)
        outcome = result.refusal if before else SKIPPED
        lines[result.number] = replace(line, outcome=outcome, error=mask_text(result.message))
        return
    if result.result == "rejected" and result.checked.verdict.seen is Seen.UNKNOWN:
        # a resend after an unknown outcome, refused (the gateway's duplicate check, say):
        # the refusal is the resend's; the first send's order is as unknown as before
        lines[result.number] = replace(
            line,
            outcome="unknown",
            error=mask_text(
                "Resent after an unknown outcome; the gateway refused the resend: "
                f"{result.message} The first send's outcome is still unknown: check its "
                "status (batch status --check) before paying it any other way."
            ),
        )
        return
    status = ""
    response = result.outcome.response if result.outcome is not None else None
    if response is not None and response.status:
        status = response.status
    accepted = result.result == "accepted"
    lines[result.number] = replace(
        line,
        outcome=str(result.result),
        gateway_order_id=result.gateway_order_id or line.gateway_order_id,
        final_status=status if status in FINAL else "",
        error="" if accepted and status not in FAILED_FINAL else mask_text(result.message),
    )


def write_results(path: Path, lines: dict[int, ResultLine]) -> None:
    """Write the results file atomically, rows in file order: an Excel workbook when its
    name ends in .xlsx, else CSV."""
    _write_rows(path, [_cells(path, lines[n]) for n in sorted(lines)])


def _workbook(path: Path) -> bool:
    return path.suffix.lower() == ".xlsx"


def _cells(path: Path, line: ResultLine) -> list[str]:
    """A line's cells as ``path``'s kind of file holds them (CSV: never a formula)."""
    return line.cells() if _workbook(path) else csv_row(line.cells())


def _write_rows(path: Path, rows: list[list[str]]) -> None:
    if _workbook(path):
        write_atomic_bytes(path, workbook_bytes(COLUMNS, rows))
        return

    def write(fh: TextIO) -> None:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows)

    write_atomic(path, write)


class ResultsFile:
    """The results CSV kept current during a run: rewritten at most every ``every``
    seconds, by :meth:`flush` at the end, and before rows leave (:meth:`leaving`: a row
    whose request may be at the gateway is never "not sent yet" on disk). Each line's cells
    are made once and again only when its row changes (a large batch rewrites the file
    many times)."""

    def __init__(self, path: Path, lines: dict[int, ResultLine], every: float = 1.0) -> None:
        self.path = path
        self.lines = lines
        self.every = every
        self._written = 0.0
        self._cells: dict[int, list[str]] = {}
        self._lock = threading.RLock()  # rows finish and leave in several threads at once

    def update(self, result: RowResult) -> None:
        with self._lock:
            apply_result(self.lines, result)
            self._cells.pop(result.number, None)
            if time.monotonic() - self._written >= self.every:
                self.flush()

    def leaving(self, numbers: Sequence[int]) -> None:
        """Rows about to be sent: "sent, outcome unknown" on disk before any of them leaves
        (each is rewritten with its answer as it comes)."""
        with self._lock:
            self._mark(numbers)
            self.flush()

    def _mark(self, numbers: Sequence[int]) -> None:
        for number in numbers:
            line = self.lines.get(number)
            if line is not None and line.outcome == _NOT_SENT_YET:
                self.lines[number] = replace(line, outcome="unknown", error=_MAY_HAVE_LEFT)
                self._cells.pop(number, None)

    def stayed(self, numbers: Sequence[int]) -> None:
        """Rows told as :meth:`leaving` that the run never sent: not sent yet again (on disk
        with the next flush)."""
        with self._lock:
            for number in numbers:
                line = self.lines.get(number)
                if line is not None and line.error == _MAY_HAVE_LEFT:
                    self.lines[number] = replace(line, outcome=_NOT_SENT_YET, error="")
                    self._cells.pop(number, None)

    def flush(self) -> None:
        with self._lock:
            self._flush()

    def _flush(self) -> None:
        cells = self._cells
        rows = []
        for number in sorted(self.lines):
            row = cells.get(number)
            if row is None:
                row = cells[number] = _cells(self.path, self.lines[number])
            rows.append(row)
        _write_rows(self.path, rows)
        self._written = time.monotonic()


def results_environment(path: Path) -> str | None:
    """The environment a results file was written for (None: no such file or column)."""
    if path.suffix.lower() == ".xlsx":
        return (first_row(path) or {}).get("environment") or None
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            row = next(csv.DictReader(fh), None)
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    return (row or {}).get("environment") or None
