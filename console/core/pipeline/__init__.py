"""The one send pipeline owned by the core; every front (window, command line, status
checks, batches) sends through it.

Public API:
    Pipeline, Check, Decision, Sent, RefusedError, Refusal, Journal: the pipeline.
    Verdict, Seen, judge, verdict_for, client_orderid, NEW_ORDER_COMMANDS: the guard.
    SendSummary: what a person confirms.
    masked_outcome: the one masked view of an answer.
"""

from .guard import (
    NEW_ORDER_COMMANDS,
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
from .pipeline import Check, Decision, Journal, Pipeline, Refusal, RefusedError, Sent
from .summary import SendSummary, amount, is_local_address, receiver
from .view import masked_outcome

__all__ = [
    "NEW_ORDER_COMMANDS",
    "Check",
    "Decision",
    "Journal",
    "Pipeline",
    "Refusal",
    "RefusedError",
    "Seen",
    "SendSummary",
    "Sent",
    "Verdict",
    "accepted_verdict",
    "amount",
    "blocked_text",
    "client_orderid",
    "clock_text",
    "is_local_address",
    "judge",
    "masked_outcome",
    "receiver",
    "resend_note",
    "unknown_question",
    "verdict_for",
]
