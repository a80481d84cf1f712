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

Each part loads on first use: the window's first picture needs none of them (the guard is
asked once a journal is attached, after it), and the pipeline itself brings in signing and
HTTP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.lazy import lazy_exports
from console.core.order_facts import NEW_ORDER_COMMANDS

if TYPE_CHECKING:
    from .asking import Answered, Asker, Question, Ready, Refused, steps
    from .check import Check, Decision, Refusal, RefusedError, card_question
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
    from .pipeline import Claimed, Pipeline, Sent
    from .summary import SendSummary

_LAZY = {
    "Seen": "guard",
    "Verdict": "guard",
    "accepted_verdict": "guard",
    "blocked_text": "guard",
    "clock_text": "guard",
    "judge": "guard",
    "resend_note": "guard",
    "unknown_question": "guard",
    "verdict_for": "guard",
    "SendSummary": "summary",
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
    "Claimed": "pipeline",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "NEW_ORDER_COMMANDS",
    "Answered",
    "Asker",
    "Check",
    "Claimed",
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
