"""Status checks for a batch's rows: rows whose last send has an unknown outcome, and
accepted rows without a final status. Each check is a ``status`` command through the send
pipeline, which journals it and sets the order's final status from the answer; a row whose
order the gateway holds then reads as accepted, and a resumed batch skips it. The results
file is written again from the journal afterwards (:func:`check_results`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from console.core.batch.checking import Validation
from console.core.batch.results import ResultLine, result_lines, write_results
from console.core.client import Outcome
from console.core.pipeline import Decision, Pipeline
from console.core.spec.status import FINAL_STATUSES as FINAL

# What a row came to, in the order a summary counts them.
STANDINGS = (
    "approved",
    "declined",
    "filtered",
    "error",
    "rejected",
    "processing",
    "unknown",
    "invalid",
    "not sent",
)
NOT_PAID = frozenset({"declined", "filtered", "error", "rejected"})  # final, and no payout
NOT_FINAL = frozenset({"processing", "invalid", "not sent"})  # nothing final yet
_BY_OUTCOME = {
    "accepted": "processing",  # the gateway took it; no final status heard yet
    "unknown": "unknown",
    "gateway-failed": "unknown",
    "rejected": "rejected",
    "invalid": "invalid",
}


@dataclass(frozen=True, slots=True)
class StatusAnswer:
    row: int
    client_orderid: str
    outcome: Outcome  # masked

    @property
    def status(self) -> str:
        response = self.outcome.response
        return (response.status or "") if response is not None else ""


def standing(line: ResultLine) -> str:
    """What a row came to: its final status when the gateway said one, else from its send
    (accepted and not final: ``processing``; never sent, or refused before sending:
    ``not sent``)."""
    if line.final_status:  # the gateway's word (a later one, e.g. a chargeback, as it came)
        return line.final_status
    return _BY_OUTCOME.get(line.outcome, "not sent")


def tally(lines: Iterable[ResultLine]) -> dict[str, int]:
    """How many rows stand where (:func:`standing`), in :data:`STANDINGS` order (a status
    outside it last)."""
    counts = dict.fromkeys(STANDINGS, 0)
    for line in lines:
        where = standing(line)
        counts[where] = counts.get(where, 0) + 1
    return {k: n for k, n in counts.items() if n}


def needs_check(line: ResultLine) -> bool:
    """A row worth asking about: outcome unknown, or accepted and not final yet."""
    if line.outcome == "unknown" or line.outcome == "gateway-failed":
        return True
    return line.outcome == "accepted" and line.final_status not in FINAL


def check_rows(
    pipeline: Pipeline,
    connection: Mapping[str, Any],
    lines: Sequence[ResultLine],
    on_answer: Callable[[StatusAnswer], None] | None = None,
) -> list[StatusAnswer]:
    """Ask the gateway for the status of each line's order, one at a time (read-only)."""
    answers: list[StatusAnswer] = []
    for line in lines:
        values = {"client_orderid": line.client_orderid}
        if line.gateway_order_id:
            values["orderid"] = line.gateway_order_id
        check = pipeline.prepare("status", values, **connection)
        sent = pipeline.send(check.prepared, Decision())
        answer = StatusAnswer(line.row, line.client_orderid, sent.outcome)
        answers.append(answer)
        if on_answer is not None:
            on_answer(answer)
    return answers


def check_results(
    pipeline: Pipeline,
    connection: Mapping[str, Any],
    validation: Validation,
    out: Path,
    on_answer: Callable[[StatusAnswer], None] | None = None,
) -> dict[int, ResultLine]:
    """Check the status of every row worth asking about, then write the results file ``out``
    from the journal, where the answers have set the final statuses: the file says what the
    gateway said, whichever front asked. Returns every row's line."""
    asked = [line for line in result_lines(validation, pipeline).values() if needs_check(line)]
    check_rows(pipeline, connection, asked, on_answer)
    lines = result_lines(validation, pipeline)
    write_results(out, lines)
    return lines
