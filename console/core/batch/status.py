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


# The gateway's error code for a status asked of an order it does not hold (as the sandbox
# answers it): a send whose outcome was unknown never reached it.
ORDER_NOT_FOUND = "207"


@dataclass(frozen=True, slots=True)
class StatusAnswer:
    row: int
    client_orderid: str
    outcome: Outcome  # masked
    unknown_before: bool = False  # the row's last send had an unknown outcome

    @property
    def status(self) -> str:
        response = self.outcome.response
        return (response.status or "") if response is not None else ""

    @property
    def never_arrived(self) -> bool:
        """The gateway holds no order for a row whose send had an unknown outcome: it never
        arrived, and the next step is to send it again with the same client_orderid."""
        response = self.outcome.response
        return (
            self.unknown_before
            and response is not None
            and response.type == "error"
            and response.error_code == ORDER_NOT_FOUND
        )

    @property
    def next_step(self) -> str:
        """What to do about the row now (empty: nothing beyond what its status says)."""
        if not self.never_arrived:
            return ""
        return (
            "the gateway holds no order for it: it never arrived. Send it again, with the "
            "same client_orderid, by running the batch with --resend-unknown (in the window: "
            "Resend rows with an unknown outcome)"
        )


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


_UNKNOWN = frozenset({"unknown", "gateway-failed"})  # outcomes that may have reached it


def needs_check(line: ResultLine) -> bool:
    """A row worth asking about: outcome unknown, or accepted and not final yet."""
    if line.outcome in _UNKNOWN:
        return True
    return line.outcome == "accepted" and line.final_status not in FINAL


def never_arrived_text(answers: Iterable[StatusAnswer]) -> str:
    """One sentence naming the rows a status check proved never arrived, and their next
    step (empty: none)."""
    rows = [str(a.row) for a in answers if a.never_arrived]
    if not rows:
        return ""
    which = (
        f"Row {rows[0]} never arrived"
        if len(rows) == 1
        else f"Rows {', '.join(rows)} never arrived"
    )
    return (
        f"{which} (the gateway holds no order for {'it' if len(rows) == 1 else 'them'}): "
        "send again with the same client_orderid: Resend rows with an unknown outcome "
        "(--resend-unknown)."
    )


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
        unknown = line.outcome in _UNKNOWN
        answer = StatusAnswer(line.row, line.client_orderid, sent.outcome, unknown)
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
