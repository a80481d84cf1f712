"""The one send pipeline owned by the core; every front (window, command line, status
checks, batches) sends through it.

Public API:
    Pipeline, Check, Decision, Sent, RefusedError, Refusal: the pipeline (the journal it
        writes through is ``console.core.journals.Journal``).
    Verdict, Seen, judge, verdict_for, NEW_ORDER_COMMANDS: the double-payout guard (the
        facts of an order it reads, such as its client_orderid: ``console.core.order_facts``).
    SendSummary: what a person confirms.
    masked_outcome: the one masked view of an answer.

The guard and the summary are cheap to import (the window reads them before its first
paint); the pipeline itself brings in signing and HTTP, so it loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.lazy import lazy_exports

from .guard import (
    NEW_ORDER_COMMANDS,
    Seen,
    Verdict,
    accepted_verdict,
    blocked_text,
    clock_text,
    judge,
    resend_note,
    unknown_question,
    verdict_for,
)
from .summary import SendSummary

if TYPE_CHECKING:
    from .pipeline import Check, Decision, Pipeline, Refusal, RefusedError, Sent
    from .view import masked_outcome

_LAZY = {
    "Check": "pipeline",
    "Decision": "pipeline",
    "Pipeline": "pipeline",
    "Refusal": "pipeline",
    "RefusedError": "pipeline",
    "Sent": "pipeline",
    "masked_outcome": "view",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "NEW_ORDER_COMMANDS",
    "Check",
    "Decision",
    "Pipeline",
    "Refusal",
    "RefusedError",
    "Seen",
    "SendSummary",
    "Sent",
    "Verdict",
    "accepted_verdict",
    "blocked_text",
    "clock_text",
    "judge",
    "masked_outcome",
    "resend_note",
    "unknown_question",
    "verdict_for",
]
