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
from console.core.pipeline import Seen, judge, resend_note
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
        is Seen.REJECTED
    )
    history.set_final_status("sb", "po-9", "approved", source="callback")
    assert (
        judge("po-9", history.sent_before(prepared(rsa_key).gateway, "payout-check", "po-9")).seen
        is Seen.ACCEPTED
    )
