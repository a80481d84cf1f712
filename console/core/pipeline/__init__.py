"""The one send pipeline owned by the core; every front (window, command line, status
checks, batches) sends through it.

Public API:
    Pipeline, Check, Decision, Sent, RefusedError, Refusal, card_question: the pipeline (the
        journal it writes through is ``console.core.journals.Journal``).
    Asker, Question, Answered, Ready, Refused, steps: the conversation around a send (the
        refusals and questions in their one order; a front implements an Asker).
    Verdict, Seen, judge, verdict_for, client_orderid, NEW_ORDER_COMMANDS, ORDER_ID_FIELDS:
        the double-payout guard.
    SendSummary, receiver, amount: what a person confirms.
    masked_outcome: the one masked view of an answer.

The guard and the summary are cheap to import (the window reads them before its first
paint); the pipeline itself brings in signing and HTTP, so it loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.lazy import lazy_exports

from .guard import (
    NEW_ORDER_COMMANDS,
    ORDER_ID_FIELDS,
    Seen,
    Verdict,
    accepted_verdict,
    blocked_text,
    client_orderid,
    clock_text,
    judge,
    resend_note,
    unknown_question,
    verdict_for,
)
from .summary import SendSummary, amount, receiver

if TYPE_CHECKING:
    from .asking import Answered, Asker, Question, Ready, Refused, steps
    from .check import Check, Decision, Refusal, RefusedError, card_question
    from .pipeline import Pipeline, Sent
    from .view import masked_outcome

_LAZY = {
    "Answered": "asking",
    "Asker": "asking",
    "Question": "asking",
    "Ready": "asking",
    "Refused": "asking",
    "steps": "asking",
    "Check": "check",
    "Decision": "check",
    "Refusal": "check",
    "RefusedError": "check",
    "card_question": "check",
    "Pipeline": "pipeline",
    "Sent": "pipeline",
    "masked_outcome": "view",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "NEW_ORDER_COMMANDS",
    "ORDER_ID_FIELDS",
    "Answered",
    "Asker",
    "Check",
    "Decision",
    "Pipeline",
    "Question",
    "Ready",
    "Refusal",
    "Refused",
    "RefusedError",
    "Seen",
    "SendSummary",
    "Sent",
    "Verdict",
    "accepted_verdict",
    "amount",
    "blocked_text",
    "card_question",
    "client_orderid",
    "clock_text",
    "judge",
    "masked_outcome",
    "receiver",
    "resend_note",
    "steps",
    "unknown_question",
    "verdict_for",
]
