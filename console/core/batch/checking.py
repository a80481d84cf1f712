"""Checking a batch before anything is sent: every row against the contract's rules, ids
repeated inside the file, ids the journal already holds for this environment (through the
pipeline's double-payout guard), and totals per currency of what would be sent.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from console.core.batch.source import COMMAND, BatchFile, Row
from console.core.batch.totals import Total, count_row
from console.core.money import decimal_comma
from console.core.order_facts import receiver
from console.core.pipeline import Seen, Verdict, blocked_text, card_question, clock_text
from console.core.spec import validate_rows
from console.core.spec.model import Problem, Severity


class RowState(StrEnum):
    """What a batch run does with a row."""

    READY = "ready"  # valid and never accepted: sent
    INVALID = "invalid"  # an error in the row or a repeated id: never sent
    ACCEPTED = "accepted-before"  # the journal holds it as accepted: skipped
    DECLINED = "declined-before"  # the gateway declined it (send, status, callback): skipped
    UNKNOWN = "unknown"  # its last send has an unknown outcome: the person decides
    CARD_NUMBER = "card-number"  # a card number fails its check digit: the person decides


@dataclass(slots=True)  # not frozen: a large file makes one for most rows, and frozen
class RowProblem:  # dataclasses are several times slower to build
    """One line of the validation table."""

    row: int
    field: str
    message: str
    severity: Severity = Severity.ERROR


@dataclass(frozen=True, slots=True)
class CheckedRow:
    """A row of the file with its state and what the journal said of its id.

    ``card_question`` is the pipeline's question about a card number failing its check digit
    (empty: none): the row is sent only where the batch decided so (``--confirm-card-numbers``).
    """

    row: Row
    state: RowState
    verdict: Verdict
    note: str = ""  # one line for tables: why it is skipped, what the journal says
    card_question: str = ""


@dataclass(slots=True)
class Validation:
    """The whole file checked: rows with their state, the problem table and the totals
    (of the rows that would be sent).

    ``counted``: ready rows counted in the totals but not kept in ``rows`` (a file checked
    as a stream, :func:`check_stream`: every other row is kept).
    """

    batch: BatchFile
    rows: list[CheckedRow] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)
    totals: dict[str, Total] = field(default_factory=dict)
    header_broken: bool = False  # a column cannot be used, or the file is not read whole
    counted: int = 0
    # rows with an error met reading the file (a cell's format showing another value): such
    # a row is never sent, whatever the contract's checks say of its values
    file_error_rows: set[int] = field(default_factory=set)

    def rows_in(self, state: RowState) -> list[CheckedRow]:
        return [r for r in self.rows if r.state is state]

    @property
    def error_rows(self) -> list[int]:
        """Row numbers with at least one error (also rows that could not be read)."""
        return sorted({p.row for p in self.problems if p.severity is Severity.ERROR and p.row})

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity is Severity.ERROR)


def totals_of(rows: Iterable[CheckedRow]) -> dict[str, Total]:
    """Count, sum and largest payout per currency."""
    totals: dict[str, Total] = {}
    for checked in rows:
        count_row(totals, checked.row)
    return totals


def receiver_text(row: Row) -> str:
    """Where a row's money goes, masked (first six and last four of a card)."""
    return receiver(row.values)[0] or ""


def check_batch(batch: BatchFile, verdict: Callable[[str], Verdict]) -> Validation:
    """Check every row; ``verdict(client_orderid)`` is the guard's verdict for this
    environment (``Pipeline.verdict`` for payout-check)."""
    out = _file_problems(batch)
    ids = [row.client_orderid for row in batch.rows]
    seen: dict[str, list[int]] = defaultdict(list)
    for row, order_id in zip(batch.rows, ids, strict=True):
        if order_id:
            seen[order_id].append(row.number)
    found = validate_rows(COMMAND, [row.values for row in batch.rows])
    for row, problems, order_id in zip(batch.rows, found, ids, strict=True):
        out.rows.append(CheckedRow(row, *_check_row(out, row, problems, order_id, seen, verdict)))
    out.totals = totals_of(out.rows_in(RowState.READY))
    return out


def check_stream(
    batch: BatchFile,
    rows: Callable[..., Iterator[Row]],
    verdicts: Callable[[Iterable[str]], Callable[[str], Verdict]],
    *,
    chunk: int = 500,
) -> Validation:
    """:func:`check_batch` of a file read as a stream (``reading.stream_batch``): the same
    problems, states and totals, in memory only for the rows that are not ready (ready
    rows are counted: such a plan is shown, never run). The journal is asked for the
    verdicts of ``chunk`` ids at a time (``verdicts(ids)``, ``Pipeline.verdicts``).

    Most files are read once. A file with a repeated id or a problem of its shape is read
    twice, as soon as one is met: the ids first (a repeated id names every row it is on, and
    the file's problems come first), then the rows.
    """
    once = _like(batch)
    found = _check_rows(batch, rows(once), {}, verdicts, chunk, once)
    if found is not None:
        return found
    first = _like(batch)
    where: dict[str, int] = {}
    repeated: dict[str, list[int]] = {}
    for row in rows(first, ids_only=True):
        order_id = row.client_orderid
        if order_id and where.setdefault(order_id, row.number) != row.number:
            repeated.setdefault(order_id, [where[order_id]]).append(row.number)
    del where
    batch.problems.extend(first.problems)  # the file's problems come first, as read whole
    # the file's problems were taken on the first reading
    again = _check_rows(batch, rows(_like(batch)), repeated, verdicts, chunk)
    assert again is not None  # only a first reading gives up
    return again


def _check_rows(
    batch: BatchFile,
    rows: Iterator[Row],
    repeated: Mapping[str, Sequence[int]],
    verdicts: Callable[[Iterable[str]], Callable[[str], Verdict]],
    chunk: int,
    once: BatchFile | None = None,
) -> Validation | None:
    """The rows checked a chunk at a time, ``repeated`` naming the rows of each repeated
    id. ``once``: a first and only reading, its problems met in ``once``; None where it meets
    a repeated id or a problem of the file's shape (the file must be read twice)."""
    out = _file_problems(batch)
    today = date.today()
    waiting: list[Row] = []
    where: dict[str, int] = {}  # a first reading's ids: order id -> its row

    def check() -> bool:
        ids = [row.client_orderid for row in waiting]
        if once is not None:
            for row, order_id in zip(waiting, ids, strict=True):
                if order_id and where.setdefault(order_id, row.number) != row.number:
                    return False
            if once.problems:
                return False
        verdict = verdicts(ids)
        problems = validate_rows(COMMAND, [row.values for row in waiting], today=today)
        for row, order_id, said in zip(waiting, ids, problems, strict=True):
            found = _check_row(out, row, said, order_id, repeated, verdict)
            if found[0] is _READY:  # counted, not kept
                out.counted += 1
                count_row(out.totals, row)
            else:
                out.rows.append(CheckedRow(row, *found))
        waiting.clear()
        return True

    for row in rows:
        waiting.append(row)
        if len(waiting) >= chunk and not check():
            return None
    return out if check() else None


def _like(batch: BatchFile) -> BatchFile:
    """An empty file like ``batch``, for the problems met reading it again."""
    return BatchFile(batch.path, batch.format, delimiter=batch.delimiter, sheet=batch.sheet)


def _file_problems(batch: BatchFile) -> Validation:
    out = Validation(batch)
    for p in batch.problems:
        out.header_broken |= p.row == 0 or p.field == "(file)"
        if p.severity is Severity.ERROR and p.row:
            out.file_error_rows.add(p.row)
        out.problems.append(RowProblem(p.row, p.field, p.message, p.severity))
    return out


def _fields_text(fields: tuple[str, ...]) -> str:
    """A problem's fields as the table shows them (one string per set of fields, not one
    per row: a large file repeats the same few)."""
    text = _FIELDS_TEXT.get(fields)
    if text is None:
        text = _FIELDS_TEXT.setdefault(fields, ", ".join(fields))
    return text


_FIELDS_TEXT: dict[tuple[str, ...], str] = {}


# One message for every row whose amount has a decimal comma, so that a file saved by a
# spreadsheet in such a language gets one line naming its rows, not a "Write 47.11" a row.
DECIMAL_COMMA = (
    "The file writes amounts with a decimal comma (47,11), as a spreadsheet set to German, "
    "French and many other languages saves them; the contract writes 47.11. Save the file "
    "again with '.' as the decimal separator (LibreOffice: Tools > Options > Language "
    "Settings > Languages, decimal separator; Excel: File > Options > Advanced, untick Use "
    "system separators, decimal separator '.'), or replace the commas in the amount column."
)
_ERROR, _READY = Severity.ERROR, RowState.READY  # looked up once: a file has many rows
# What _check_row finds of a row (a CheckedRow's fields after the row itself): its state,
# the journal's verdict, the note and the card number question. A ready row of a file
# checked as a stream is only counted, so nothing more is built for it.
_Found = tuple[RowState, Verdict, str, str]


def _check_row(
    out: Validation,
    row: Row,
    problems: list[Problem],
    order_id: str,
    seen: Mapping[str, Sequence[int]],
    verdict: Callable[[str], Verdict],
) -> _Found:
    """The state of ``row``, whose contract checks found ``problems`` (added to ``out``)."""
    errors = row.number in out.file_error_rows
    card = ""
    if problems:
        number, add = row.number, out.problems.append
        comma = decimal_comma(row.values.get("amount", ""))
        for p in problems:
            message = DECIMAL_COMMA if comma and p.fields == ("amount",) else p.message
            add(RowProblem(number, _fields_text(p.fields), message, p.severity))
            errors |= p.severity is _ERROR
        card = card_question(problems, row.values.items())
    others = [n for n in seen[order_id] if n != row.number] if order_id in seen else []
    if others:
        rows = ", ".join(str(n) for n in others)
        out.problems.append(
            RowProblem(
                row.number,
                "client_orderid",
                f"client_orderid {order_id} is also on row {rows}: each payout needs its own "
                "client_orderid (the gateway would refuse the second one).",
            )
        )
        errors = True
    found = verdict(order_id) if order_id else Verdict(Seen.NEW, "")
    if found.blocks:
        state = RowState.DECLINED if found.seen is Seen.SETTLED else RowState.ACCEPTED
        return state, found, blocked_text(found, COMMAND), ""
    if errors or out.header_broken:
        return RowState.INVALID, found, "has errors: not sent", ""
    if found.asks:
        note = (
            f"the last send at {clock_text(found.at)} has an unknown outcome: check its "
            "status before it goes again"
        )
        return RowState.UNKNOWN, found, note, card
    if card:
        return RowState.CARD_NUMBER, found, card, card
    return RowState.READY, found, "", ""
