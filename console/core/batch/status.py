"""Status checks for a batch's rows: rows whose last send has an unknown outcome, and
accepted rows without a final status. Each check is a ``status`` command through the send
pipeline, which journals it and sets the order's final status from the answer; a row whose
order the gateway holds then reads as accepted, and a resumed batch skips it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from console.core.batch.results import ResultLine
from console.core.client import Outcome
from console.core.pipeline import Decision, Pipeline

FINAL = frozenset({"approved", "declined", "filtered", "error"})


@dataclass(frozen=True, slots=True)
class StatusAnswer:
    row: int
    client_orderid: str
    outcome: Outcome  # masked

    @property
    def status(self) -> str:
        response = self.outcome.response
        return (response.status or "") if response is not None else ""


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
