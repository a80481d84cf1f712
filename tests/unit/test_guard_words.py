"""What the double-payout guard says, word for word, and which journal rows it reads: the
refusal of a send on its way or accepted before (with when and which order), the question
after an unknown outcome, the note on a resend, and the card number question. A person acts
on these sentences, so a changed word or a lost time is a test failure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history import History
from console.core.pipeline import Seen, Verdict, blocked_text, judge, resend_note
from console.core.pipeline.check import card_question
from console.core.pipeline.guard import clock_text, unknown_question, verdict_for
from console.core.spec.codes import Code
from console.core.spec.model import Problem, Severity
from tests.helpers.history_data import answered, prepared

EARLIER = datetime(2026, 1, 2, 10, 15, tzinfo=UTC)


def _hhmm(at: datetime) -> str:
    return f"{at.astimezone():%H:%M}"


def _on(at: datetime) -> str:
    local = at.astimezone()
    return f"{local:%H:%M} on {local:%d.%m.%Y}"


@dataclass(frozen=True)
class Row:
    """A journal row as the guard reads it."""

    id: int = 1
    created: datetime = EARLIER
    outcome: str = "accepted"
    final_status: str | None = None
    gateway_order_id: str | None = None
    recurring_payment_id: str | None = None
    response_type: str | None = None
    response_status: str | None = None


def test_a_send_on_its_way_is_refused_saying_since_when() -> None:
    verdict = judge("po-9", [Row(outcome="rejected"), Row(id=2, outcome="pending")])
    assert verdict.seen is Seen.SENDING
    assert blocked_text(verdict, "payout-check") == (
        f"Not sent: po-9 is being sent right now (since {_on(EARLIER)}), from this or another "
        "console. Wait for its answer in History; for another payout, use a new client_orderid."
    )


def test_an_accepted_payout_is_refused_naming_when_and_its_order() -> None:
    verdict = judge("po-9", [Row(gateway_order_id="77")])
    assert blocked_text(verdict, "payout-check") == (
        f"Already sent and accepted at {_on(EARLIER)} (gateway order 77): po-9. "
        "For another payout, use a new client_orderid."
    )


def test_an_accepted_recurring_profile_is_refused_naming_its_profile() -> None:
    verdict = judge("rp-1", [Row(gateway_order_id="77", recurring_payment_id="700")])
    assert blocked_text(verdict, "create-recurring-payment") == (
        f"Already sent and accepted at {_on(EARLIER)} (recurring-payment-id 700): rp-1. "
        "For another recurring profile, use a new client_orderid."
    )


def test_an_accepted_send_without_an_order_id_or_a_time_says_so_plainly() -> None:
    assert blocked_text(Verdict(Seen.ACCEPTED, "po-9"), "payout-check") == (
        "Already sent and accepted at an earlier time: po-9. "
        "For another payout, use a new client_orderid."
    )


def test_a_refused_request_that_says_declined_is_a_rejection_not_a_settled_order() -> None:
    # a validation-error refuses the request: no order exists, so it may go again
    row = Row(outcome="rejected", response_type="validation-error", response_status="declined")
    assert judge("po-9", [row]).seen is Seen.REJECTED


def test_the_time_is_shown_with_its_date_unless_it_is_today() -> None:
    now = datetime.now(UTC)
    assert clock_text(now) == _hhmm(now)
    assert clock_text(EARLIER, now=datetime(2026, 3, 1, 12, tzinfo=UTC)) == _on(EARLIER)


def test_the_unknown_outcome_question_word_for_word() -> None:
    assert unknown_question(Verdict(Seen.UNKNOWN, "po-9")) == (
        "The last send of po-9 has an unknown outcome. Check its status first; if you resend, "
        "it goes with the same client_orderid so the gateway can refuse a duplicate."
    )


def test_a_resend_note_says_when_the_earlier_send_was() -> None:
    verdict = judge("po-9", [Row(outcome="rejected")])
    assert resend_note(verdict) == f"Sent again: the gateway rejected po-9 at {_on(EARLIER)}."


def test_a_never_sent_verdict_names_its_order_id() -> None:
    assert judge("po-9", []) == Verdict(Seen.NEW, "po-9")


def test_the_card_number_question_word_for_word() -> None:
    problem = Problem(("credit_card_number",), Severity.WARNING, "fails", Code.LUHN)
    params = [("amount", "10"), ("credit_card_number", "4111111111111112")]
    assert card_question([problem], params) == (
        "The card number 411111******1112 fails the card number check digit (Luhn): it is "
        "probably mistyped, and a mistyped number can pay a stranger. Send it only if you have "
        "checked every digit."
    )


@pytest.fixture
def journal(rsa_key: rsa.RSAPrivateKey) -> tuple[History, str]:
    """A journal with po-9 accepted in environment "sb"; and the gateway it went to."""
    history = History()
    hooks = history.journal("sb")
    req = prepared(rsa_key, client_orderid="po-9")
    hooks.after_answer(hooks.before_send(req), answered(req, "type=async-response&serial-number=s"))
    assert req.gateway is not None
    return history, req.gateway


def test_the_guard_reads_the_rows_of_the_gateway_asked_about(journal: Any) -> None:
    history, gateway = journal
    assert verdict_for(history, gateway, "payout-check", " po-9 ", "sb").seen is Seen.ACCEPTED
    assert verdict_for(history, gateway, "payout-check", "po-9", "sb").client_orderid == "po-9"
    other = "https://other.example:443/paynet/api/v4/payout-check/1 merchant"
    assert verdict_for(history, other, "payout-check", "po-9", "sb").seen is Seen.NEW


def test_without_a_gateway_the_rows_of_the_environment_asked_about(journal: Any) -> None:
    history, _gateway = journal
    assert verdict_for(history, None, "payout-check", "po-9", "sb").seen is Seen.ACCEPTED
    assert verdict_for(history, None, "payout-check", "po-9", "live").seen is Seen.NEW
