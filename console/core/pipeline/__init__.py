"""The one send pipeline owned by the core; every front (window, command line, status
checks, batches) sends through it.

Public API:
    Pipeline, Check, Decision, Sent, RefusedError, Refusal, card_question: the pipeline (the
        journal it writes through is ``console.core.journals.Journal``).
    Asker, Question, Answered, Ready, Refused, steps: the conversation around a send (the
        refusals and questions in their one order; a front implements an Asker).
    Verdict, Seen, judge, verdict_for, NEW_ORDER_COMMANDS: the double-payout guard (the
        facts of an order it reads, such as its client_orderid: ``console.core.order_facts``).
    SendSummary: what a person confirms.

The guard and the summary are cheap to import (the window reads them before its first
paint); the pipeline itself brings in signing and HTTP, so it loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.lazy import lazy_exports
from console.core.order_facts import NEW_ORDER_COMMANDS

from .guard import (
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
    from .asking import Answered, Asker, Question, Ready, Refused, steps
    from .check import Check, Decision, Refusal, RefusedError, card_question
    from .pipeline import Pipeline, Sent

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
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "NEW_ORDER_COMMANDS",
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
    "blocked_text",
    "card_question",
    "clock_text",
    "judge",
    "resend_note",
    "steps",
    "unknown_question",
    "verdict_for",
]
