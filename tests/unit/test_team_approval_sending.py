"""Sending what a checker approved, and waiting for the decision, against a real PostgreSQL
server: an approval kept when its send is refused before the claim and used up (the
submission "refused") when the pipeline refuses it after, the maker's own answers carried to
the send, and a maker waiting for a decision woken by the database's notice."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.errors import SendRefusedError
from console.core.pipeline import Decision
from console.core.prepared import prepare
from console.core.team import ApprovalRefusedError, Approvals, TeamJournal
from console.core.team.approvals import approval as approval_module
from console.core.team.errors import UnregisteredGatewayError
from tests.helpers.asking import MISTYPED
from tests.helpers.http_server import DROP, Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import (
    FORM,
    NOWHERE,
    accepted,
    audit_entries,
    payout_values,
    pipeline,
    prepare_values,
    prepared_payout,
    prod_policy,
)

psycopg = pytest.importorskip("psycopg")


def test_a_send_refused_before_its_claim_keeps_the_approval(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Refused before anything is claimed (a gateway nobody registered, an order id accepted
    before): the approval stays, and the right request is sent with it afterwards."""

    prod_policy(team_db, "above", thresholds={"USD": "100.00"})
    with (
        serve(lambda r: Reply(200, accepted("p-1"), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        big = prepared_payout(server.url, rsa_key, amount="500.00")
        sid = Approvals(alice).submit("prod", big).id
        Approvals(bob).approve(sid)
        elsewhere = prepare(
            "payout-check",
            payout_values(amount="500.00"),
            base_url="https://pay.example.com/paynet",
            login="merchant",
            private_key=rsa_key,
            endpoint_id="1",
        )
        with pytest.raises(UnregisteredGatewayError) as unregistered:
            Approvals(bob).send_approved(pipeline(bob), sid, elsewhere)
        assert unregistered.value.message.startswith(
            "Not sent: the team has not registered the gateway https://pay.example.com:443/paynet"
        )
        assert "(login merchant) that prod reaches" in unregistered.value.message
        assert Approvals(bob).submission(sid).state == "approved"

        small = prepared_payout(server.url, rsa_key, amount="5.00")  # the same order id
        assert pipeline(alice).send(small, Decision(True)).result == "accepted"
        with pytest.raises(SendRefusedError) as blocked:
            Approvals(bob).send_approved(pipeline(bob), sid, big)
        assert not isinstance(blocked.value, ApprovalRefusedError)  # the guard's refusal
        assert "p-1" in blocked.value.message
        assert Approvals(bob).submission(sid).state == "approved"
        assert len(server.received) == 1
    assert not any(what == "send" and who == "bob" for who, what, _ in audit_entries(team_db))


def test_a_send_the_pipeline_refuses_after_the_claim_ends_the_submission_refused(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The last send of the order id has no known outcome: without the maker's answer to
    resend, the approved send is refused after its claim, nothing goes out, the submission
    ends "refused" with the pipeline's words, and nothing of it stays bound to the order id:
    the checker's own resend of a payout the policy lets through goes."""
    prod_policy(team_db, "above", thresholds={"USD": "100.00"})
    replies = iter([DROP])
    with (
        serve(lambda r: next(replies, Reply(200, accepted("p-1"), FORM))) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        small = prepared_payout(server.url, rsa_key, amount="5.00")
        assert str(pipeline(alice).send(small, Decision(True)).result) == "unknown"
        big = prepared_payout(server.url, rsa_key, amount="500.00")
        sid = Approvals(alice).submit("prod", big).id
        Approvals(bob).approve(sid)
        with pytest.raises(SendRefusedError) as refused:
            Approvals(bob).send_approved(pipeline(bob), sid, big)
        assert len(server.received) == 1  # the first, lost one only
        ended = Approvals(bob).submission(sid)
        assert ended.state == "refused"
        assert ended.reason == refused.value.message
        with pytest.raises(ApprovalRefusedError) as again:
            Approvals(bob).send_approved(pipeline(bob), sid, big, Decision(True, True))
        assert again.value.message.startswith(
            f"#{sid} was approved by bob, but its send was refused"
        )
        assert len(server.received) == 1
        resent = pipeline(bob).send(small, Decision(True, True))
        assert str(resent.result) == "accepted"
        assert len(server.received) == 2
    assert refused.value.message.startswith("The last send of p-1 has an unknown outcome.")
    said = f"send: {refused.value.message}; nothing was sent"
    audit = audit_entries(team_db)
    at = audit.index(("bob", "claim", ""))
    assert audit[at + 1] == ("bob", "refused", said)


def test_the_makers_answers_go_with_the_approved_send(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The maker said yes to sending again after an unknown outcome and to a card number
    failing its check; the approval adds the production confirmation: it is sent."""

    replies = iter([DROP])
    with (
        serve(lambda r: next(replies, Reply(200, accepted("q-1"), FORM))) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        values = payout_values("q-1", card=True) | {"credit_card_number": MISTYPED}
        prepared = prepare_values(server.url, rsa_key, values)
        lost = pipeline(alice).send(prepared, Decision(True, False, True))
        assert str(lost.result) == "unknown"
        prod_policy(team_db)
        for answers in (Decision(False, False, True), Decision(False, True, False)):
            sid = Approvals(alice).submit("prod", prepared).id
            Approvals(bob).approve(sid)
            with pytest.raises(SendRefusedError):
                Approvals(alice).send_approved(pipeline(alice), sid, prepared, answers)
            assert Approvals(bob).submission(sid).state == "refused"
            assert len(server.received) == 1
        sid = Approvals(alice).submit("prod", prepared).id
        Approvals(bob).approve(sid)
        sent = Approvals(alice).send_approved(
            pipeline(alice), sid, prepared, Decision(False, True, True)
        )
        assert str(sent.result) == "accepted"
        assert len(server.received) == 2


def _waited(approvals: Approvals, sid: int, timeout: float) -> tuple[str, float]:
    """What waiting for ``sid``'s decision gave, and how long it took."""
    started = time.monotonic()
    found = approvals.wait_for_decision(sid, timeout)
    return found.state, time.monotonic() - started


def test_a_maker_waiting_hears_the_decision_at_once_and_no_longer_than_asked(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Woken by the database's notice, not the regular look (made rare here, so that a busy
    machine cannot pass for either): the send follows the approval at once; without a
    decision the wait ends when it was asked to."""
    monkeypatch.setattr(approval_module, "LOOK_EVERY", 5.0)
    prod_policy(team_db)
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        sid = Approvals(alice).submit("prod", prepared_payout(NOWHERE, rsa_key)).id
        other = Approvals(alice).submit("prod", prepared_payout(NOWHERE, rsa_key, order="p-2")).id
        state, took = _waited(Approvals(alice), sid, 0.6)
        assert state == "pending"
        assert 0.55 < took < 2.5
        # a decision in the last second of the wait still counts
        threading.Timer(2.5, Approvals(bob).approve, args=(other,)).start()
        assert _waited(Approvals(alice), other, 3.0)[0] == "approved"
        decided = threading.Timer(0.3, Approvals(bob).approve, args=(sid,))
        decided.start()
        state, took = _waited(Approvals(alice), sid, 10)
        decided.join()
        assert state == "approved"
        assert took < 3.0  # the next look would be 5 s after the first


def test_a_maker_waiting_is_told_when_the_submission_expires(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Expiry sends no notice: the once-a-second look ends the wait soon after it."""
    prod_policy(team_db, expiry=timedelta(seconds=0.3))
    with TeamJournal(team_db.dsn("alice")) as alice:
        sid = Approvals(alice).submit("prod", prepared_payout(NOWHERE, rsa_key)).id
        found_state, took = _waited(Approvals(alice), sid, 10)
    assert found_state == "pending"  # expired, not yet marked so: nobody decided
    assert took < 1.7
