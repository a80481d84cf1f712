"""The double-payout guard's verdict for a client_orderid, judged over real journal rows:
accepted blocks, an unknown outcome asks, a rejection or a send that never left lets it go
again and says so."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.client import Outcome
from console.core.errors import NotSentError
from console.core.history import History
from console.core.pipeline import Seen, blocked_text, judge, resend_note
from tests.helpers.history_data import answered, lost, prepared


@pytest.fixture
def history() -> History:
    return History()


def _rows(history: History, key: rsa.RSAPrivateKey, *outcomes: Callable[..., Outcome]) -> Any:
    hooks = history.journal("sb")
    for make in outcomes:
        req = prepared(key, client_orderid="po-9")
        hooks.after_answer(hooks.before_send(req), make(req))
    return history.sent_before(prepared(key).gateway, "payout-check", "po-9")


def _accepted(req: Any) -> Outcome:
    return answered(req, "type=async-response&serial-number=s&gateway-order-id=77")


def _rejected(req: Any) -> Outcome:
    return answered(req, "type=validation-error&serial-number=s&error-message=x&error-code=1")


def _not_sent(req: Any) -> Outcome:
    return Outcome(req, None, NotSentError("Connection refused.", req.url), 0.1)


def test_judge_accepted_wins_over_everything(history: History, rsa_key: Any) -> None:
    verdict = judge("po-9", _rows(history, rsa_key, _rejected, _accepted, lost, _not_sent))
    assert verdict.seen is Seen.ACCEPTED
    assert verdict.gateway_order_id == "77"
    assert verdict.blocks


def test_judge_unknown_asks_rejected_and_not_sent_go(history: History, rsa_key: Any) -> None:
    assert judge("po-9", []).seen is Seen.NEW
    assert judge("po-9", _rows(history, rsa_key, _not_sent)).seen is Seen.NOT_SENT
    rejected = judge("po-9", _rows(history, rsa_key, _rejected))
    assert rejected.seen is Seen.REJECTED
    assert not rejected.blocks
    assert not rejected.asks
    assert "rejected po-9" in resend_note(rejected)
    assert resend_note(rejected).startswith("Sent again: the gateway rejected po-9 at ")
    unknown = judge("po-9", _rows(history, rsa_key, lost))
    assert unknown.seen is Seen.UNKNOWN
    assert unknown.asks


def test_sends_that_never_left_leave_the_order_free_to_send_and_name_the_newest(
    history: History, rsa_key: Any, tmp_path: Path
) -> None:
    rows = _rows(history, rsa_key, _not_sent, _not_sent)
    verdict = judge("po-9", rows)
    assert (verdict.seen, verdict.at) == (Seen.NOT_SENT, max(row.created for row in rows))
    # one rejection among them makes it a resend after a rejection, whichever is newer
    assert judge("po-9", _rows(history, rsa_key, _rejected)).seen is Seen.REJECTED
    with History(tmp_path / "older-rejection.sqlite3") as other:
        older = _rows(other, rsa_key, _rejected, _not_sent, _not_sent)
        assert judge("po-9", older).seen is Seen.REJECTED


def test_judge_follows_the_status_learnt_later(history: History, rsa_key: Any) -> None:
    rows = _rows(history, rsa_key, lost)
    assert judge("po-9", rows).seen is Seen.UNKNOWN
    history.set_final_status("sb", "po-9", "declined", source="status")
    assert (
        judge("po-9", history.sent_before(prepared(rsa_key).gateway, "payout-check", "po-9")).seen
        is Seen.SETTLED
    )
    history.set_final_status("sb", "po-9", "approved", source="callback")
    assert (
        judge("po-9", history.sent_before(prepared(rsa_key).gateway, "payout-check", "po-9")).seen
        is Seen.ACCEPTED
    )


def test_an_order_the_gateway_declined_is_settled_whoever_said_so(
    history: History, rsa_key: Any, tmp_path: Path
) -> None:
    """A status answer or callback after an unknown outcome, or the send's own answer with a
    declined, filtered or error status: the id is spent and a resend is refused."""
    gateway = prepared(rsa_key).gateway
    _rows(history, rsa_key, lost)
    history.set_final_status("sb", "po-9", "declined", source="status", orderid="77")
    settled = judge("po-9", history.sent_before(gateway, "payout-check", "po-9"))
    assert (settled.seen, settled.status, settled.gateway_order_id) == (
        Seen.SETTLED, "declined", "77"
    )  # fmt: skip
    assert settled.blocks
    assert not settled.asks
    assert blocked_text(settled, "payout-check").startswith(
        "Already sent and declined (status declined) at "
    )
    for status in ("declined", "filtered", "error"):
        with History(tmp_path / f"{status}.sqlite3") as other:

            def answered_with(req: Any, status: str = status) -> Outcome:
                body = f"type=async-response&status={status}&gateway-order-id=78&error-code=9"
                return answered(req, body)

            verdict = judge("po-9", _rows(other, rsa_key, answered_with))
            assert (verdict.seen, verdict.status) == (Seen.SETTLED, status)
    # a request the gateway refused (validation-error, type error) made no order: it may go
    with History(tmp_path / "refused.sqlite3") as other:
        assert judge("po-9", _rows(other, rsa_key, _rejected)).seen is Seen.REJECTED


def test_a_callback_that_declines_an_accepted_order_keeps_it_refused(
    history: History, rsa_key: Any
) -> None:
    _rows(history, rsa_key, _accepted)
    history.set_final_status("sb", "po-9", "filtered", source="callback")
    verdict = judge("po-9", history.sent_before(prepared(rsa_key).gateway, "payout-check", "po-9"))
    assert (verdict.seen, verdict.status) == (Seen.SETTLED, "filtered")
    assert "declined (status filtered)" in blocked_text(verdict, "payout-check")
