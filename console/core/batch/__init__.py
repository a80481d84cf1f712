"""Batch payouts from a file: read, check, plan, dry run, send once, resume, results.

Every row goes through the one send pipeline (``console.core.pipeline``): the double-payout
guard, the journal row committed before its send, masking. Running the same file again skips
the rows the journal holds as accepted in that environment, so a batch killed halfway is
resumed by running it again, and nobody is paid twice.

Public API:
    read_batch, stream_batch, BatchFile, Row, FileProblem, BatchFileError, detect_delimiter:
        reading (stream_batch: a CSV file's rows one at a time).
    TEMPLATES, template_csv, template_values, explain: a file template per receiver type,
        and its columns in plain words.
    check_batch, check_stream, Validation, CheckedRow, RowState, RowProblem: checking
        (check_stream: a large file checked for showing, ready rows counted).
    Total: count, exact sum and largest payout of a currency (totals).
    Plan, BatchSummary, BatchDecision, BatchRefusedError, Refused: what a run may send.
    BatchLimits, limits_for, set_limits, LimitsFileError: per-environment limits.
    BatchRunner, sign_rows, RowResult, Progress, BatchReport, TransportPool, MAX_CONCURRENCY,
        LeavingRows (told of rows before they may leave: the results file):
        running (and the sign-only dry run).
    ResultsFile, journal_rows, result_lines, results_path, results_environment, write_results,
        COLUMNS: the results CSV.
    check_rows, check_results, needs_check, never_arrived_text, StatusAnswer: status checks
        of unknown or unfinished rows (check_results writes the results file from their
        answers; never_arrived_text names the rows the gateway holds no order for).
    standing, tally, STANDINGS, NOT_PAID, NOT_FINAL: what each row came to, counted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.lazy import lazy_exports

from .checking import (
    CheckedRow,
    RowProblem,
    RowState,
    Validation,
    check_batch,
    check_stream,
)
from .limits import MAX_CONCURRENCY, BatchLimits, LimitsFileError, limits_for, set_limits
from .plan import BatchDecision, BatchRefusedError, BatchSummary, Plan, Refused
from .reading import read_batch, stream_batch
from .source import (
    COMMAND,
    BatchFile,
    BatchFileError,
    FileProblem,
    Row,
    detect_delimiter,
)
from .templates import TEMPLATES, explain, template_csv, template_values
from .totals import Total

if TYPE_CHECKING:  # loaded on first use: running and status checks need the HTTP client,
    # which checking a file (``batch validate``) does not
    from .results import (
        COLUMNS,
        ResultLine,
        ResultsFile,
        check_results_path,
        journal_rows,
        result_lines,
        results_environment,
        results_path,
        write_results,
    )
    from .runner import (
        SIGNED,
        SKIPPED,
        BatchReport,
        BatchRunner,
        LeavingRows,
        Progress,
        RowResult,
        TransportPool,
        sign_rows,
    )
    from .status import (
        NOT_FINAL,
        NOT_PAID,
        STANDINGS,
        StatusAnswer,
        check_results,
        check_rows,
        needs_check,
        never_arrived_text,
        standing,
        tally,
    )

_HOMES = {
    "COLUMNS": "results",
    "ResultLine": "results",
    "ResultsFile": "results",
    "check_results_path": "results",
    "journal_rows": "results",
    "result_lines": "results",
    "results_environment": "results",
    "results_path": "results",
    "write_results": "results",
    "SIGNED": "runner",
    "SKIPPED": "runner",
    "BatchReport": "runner",
    "BatchRunner": "runner",
    "LeavingRows": "runner",
    "Progress": "runner",
    "RowResult": "runner",
    "TransportPool": "runner",
    "sign_rows": "runner",
    "NOT_FINAL": "status",
    "NOT_PAID": "status",
    "STANDINGS": "status",
    "StatusAnswer": "status",
    "check_results": "status",
    "check_rows": "status",
    "needs_check": "status",
    "never_arrived_text": "status",
    "standing": "status",
    "tally": "status",
}

__all__ = [
    "COLUMNS",
    "COMMAND",
    "MAX_CONCURRENCY",
    "NOT_FINAL",
    "NOT_PAID",
    "SIGNED",
    "SKIPPED",
    "STANDINGS",
    "TEMPLATES",
    "BatchDecision",
    "BatchFile",
    "BatchFileError",
    "BatchLimits",
    "BatchRefusedError",
    "BatchReport",
    "BatchRunner",
    "BatchSummary",
    "CheckedRow",
    "FileProblem",
    "LeavingRows",
    "LimitsFileError",
    "Plan",
    "Progress",
    "Refused",
    "ResultLine",
    "ResultsFile",
    "Row",
    "RowProblem",
    "RowResult",
    "RowState",
    "StatusAnswer",
    "Total",
    "TransportPool",
    "Validation",
    "check_batch",
    "check_results",
    "check_results_path",
    "check_rows",
    "check_stream",
    "detect_delimiter",
    "explain",
    "journal_rows",
    "limits_for",
    "needs_check",
    "never_arrived_text",
    "read_batch",
    "result_lines",
    "results_environment",
    "results_path",
    "set_limits",
    "sign_rows",
    "standing",
    "stream_batch",
    "tally",
    "template_csv",
    "template_values",
    "write_results",
]


__getattr__ = lazy_exports(__name__, _HOMES)
