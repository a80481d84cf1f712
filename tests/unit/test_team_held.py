"""The core's hold for approval (what every front calls), and what becomes of a claimed send
that is then refused, against a real PostgreSQL server."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.failures import EXIT_OK, EXIT_SUBMITTED
from console.cli.output import print_outcome
from console.core.history import History
from console.core.pipeline import Decision, Refusal, RefusedError
from console.core.team import Approvals, TeamJournal, connect, content_hash
from console.core.team.approvals.held import Awaiting, Held, hold
from console.core.team.approvals.submissions import Submission
from console.core.team.errors import (
    ApprovalPendingError,
    ApprovalRefusedError,
    CardDataNeedsWaitingError,
    NotApprovedError,
    RejectedBeforeError,
    UnregisteredGatewayError,
)
from tests.helpers.batch_files import ACCOUNT_HEADER, account_row, write_csv
from tests.helpers.http_server import DROP, Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import Gateway, sender_here
from tests.helpers.team import (
    FORM,
    NOWHERE,
    PAN,
    accepted,
    audit_entries,
    pipeline,
    prepared_payout,
    register_policy,
)

pytest.importorskip("psycopg")


def _policy(db: TeamDatabase, mode: str = "all", environment: str = "prod") -> None:
    with TeamJournal(db.dsn("root_admin")) as admin:
        register_policy(admin, environment, mode)


def test_hold_applies_only_where_a_team_policy_says_so(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    prepared = prepared_payout(NOWHERE, rsa_key)
    with History() as own:  # one person: nothing is ever held
        assert hold(pipeline(own), pipeline(own).check(prepared)) is None
    with TeamJournal(team_db.dsn("alice")) as alice:
        assert hold(pipeline(alice), pipeline(alice).check(prepared)) is None  # no policy
        _policy(team_db)
        held = hold(pipeline(alice), pipeline(alice).check(prepared))
        assert isinstance(held, Held)
        assert held.ACTION == "Submit for approval"
        assert "prod (every payout and recurring profile needs approval)" in held.text
        status = pipeline(alice).prepare(
            "status",
            {"client_orderid": "p-1", "orderid": "1"},
            base_url=NOWHERE,
            login="merchant",
            private_key=rsa_key,
            endpoint_id="1",
        )
        assert hold(pipeline(alice), status) is None  # a status look-up moves no money


def test_card_data_is_submitted_only_by_a_console_that_waits(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _policy(team_db)
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        card = prepared_payout(server.url, rsa_key, card=True)
        held = hold(pipeline(alice), pipeline(alice).check(card))
        assert held is not None
        assert held.card_data
        assert "keeps it in memory" in held.text
        with pytest.raises(CardDataNeedsWaitingError) as refused:
            held.submit(waiting=False)
        assert refused.value.message == (
            "The approval policy of prod needs a checker's approval, and this request carries "
            "card data, which never goes to the team database: only the console holding it can "
            "send it, so that console must wait for the approval. Nothing was submitted."
        )
        assert Approvals(bob).pending() == []  # nothing was stored

        awaiting = held.submit(waiting=True)
        with pytest.raises(ApprovalPendingError) as pending:
            awaiting.send()
        assert pending.value.message == (
            f"No decision on #{awaiting.id} yet; nothing was sent. Its card data is only in "
            "this console's memory: if this console stops waiting, submit it again."
        )
        assert pending.value.submission_id == awaiting.id
        threading.Timer(0.2, Approvals(bob).approve, args=(awaiting.id,)).start()
        assert awaiting.wait(10).state == "approved"
        # a console that holds the card data sends it itself: its outcome is its own send
        assert awaiting.outcome(10).result == "accepted"
        assert PAN in server.received[0].body.decode()
        with pytest.raises(NotApprovedError, match="not sent again"):
            awaiting.send()
        assert len(server.received) == 1


def test_a_rejected_submission_is_never_sent_and_says_why(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _policy(team_db)
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        prepared = prepared_payout(server.url, rsa_key)
        held = hold(pipeline(alice), pipeline(alice).check(prepared))
        assert held is not None
        assert not held.card_data
        assert held.rejection == ""
        awaiting = held.submit(waiting=False)
        with pytest.raises(ApprovalPendingError) as pending:
            awaiting.send()
        assert pending.value.message == f"No decision on #{awaiting.id} yet; nothing was sent."
        assert pending.value.submission_id == awaiting.id
        Approvals(bob).reject(awaiting.id, "wrong receiver")
        with pytest.raises(NotApprovedError, match="rejected by bob: wrong receiver") as ended:
            awaiting.send()
        assert ended.value.state == "rejected"
        assert server.received == []

        # the same order id again, even with another amount: the rejection is said, and
        # it is submitted again only when the maker says so
        for again in (prepared, prepared_payout(server.url, rsa_key, amount="26.00")):
            held = hold(pipeline(alice), pipeline(alice).check(again))
            assert held is not None
            assert held.rejection.startswith(
                f"The same request #{awaiting.id} was rejected before by bob at "
            )
            assert held.rejection.endswith(
                ": wrong receiver. Submitting it again, after that rejection, is written in "
                "the audit trail and shown to the checkers."
            )
            assert held.text.endswith(f"approval. {held.rejection}")
        with pytest.raises(RejectedBeforeError, match="Not submitted: the same request #"):
            held.submit(waiting=False)
        assert Approvals(bob).pending() == []
        resubmitted = held.submit(waiting=False, decision=Decision(after_rejection=True))
        assert [s.id for s in Approvals(bob).pending()] == [resubmitted.id]
        assert Approvals(bob).submission(resubmitted.id).after_rejection_of == awaiting.id
        assert server.received == []


def test_a_gateway_the_team_has_not_registered_is_refused_before_anything_is_asked(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    far = prepared_payout("https://far.example/paynet", rsa_key)
    with TeamJournal(team_db.dsn("alice")) as alice:
        with pytest.raises(UnregisteredGatewayError) as refused:
            hold(pipeline(alice, "far away"), pipeline(alice, "far away").check(far))
        assert Approvals(alice).pending() == []
    assert refused.value.message == (
        "Not sent: the team has not registered the gateway "
        "https://far.example:443/paynet/api/v4/payout-check/1 "
        "(login merchant) that far away reaches, and a console of the team sends only to "
        "registered gateways. An admin registers it: gateway-console team gateway add NAME "
        "--base-url URL --login LOGIN --endpoint-id N."
    )


def test_a_request_the_pipeline_would_refuse_is_not_submitted(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    with serve(lambda r: DROP) as server, TeamJournal(team_db.dsn("alice")) as alice:
        pipeline(alice).send(prepared_payout(server.url, rsa_key), Decision(True))
        assert alice.fetch()[0].outcome_unknown
        _policy(team_db)
        again = prepared_payout(server.url, rsa_key)
        held = hold(pipeline(alice), pipeline(alice).check(again))
        assert held is not None
        with pytest.raises(RefusedError) as refused:
            held.submit(waiting=False)
        assert refused.value.code == Refusal.UNKNOWN_OUTCOME
        assert Approvals(alice).pending() == []
        resend = held.submit(waiting=False, decision=Decision(resend_after_unknown=True))
        assert Approvals(alice).submission(resend.id).state == "pending"


def test_a_claimed_send_refused_by_the_guard_ends_refused_for_everyone(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    with serve(lambda r: DROP) as server, TeamJournal(team_db.dsn("alice")) as alice:
        pipeline(alice).send(prepared_payout(server.url, rsa_key), Decision(True))  # unknown
        _policy(team_db)
        sid = Approvals(alice).submit("prod", prepared_payout(server.url, rsa_key)).id
        with TeamJournal(team_db.dsn("bob")) as bob:
            Approvals(bob).approve(sid)
            with pytest.raises(RefusedError) as refused:  # bob never decided to resend
                Approvals(bob).send_approved(
                    pipeline(bob), sid, prepared_payout(server.url, rsa_key)
                )
            assert refused.value.code == Refusal.UNKNOWN_OUTCOME
        assert len(server.received) == 1  # only the first send
    with TeamJournal(team_db.dsn("carol")) as carol:
        seen = Approvals(carol).submission(sid)
        assert seen.state == "refused"
        assert "outcome" in (seen.reason or "")
    refusals = [(w, d) for w, a, d in audit_entries(team_db) if a == "refused"]
    assert refusals[-1][0] == "bob"
    assert refusals[-1][1].startswith("send: ")
    assert "nothing was sent" in refusals[-1][1]


def test_a_claimed_send_refused_for_plain_http_ends_refused(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    far = "http://192.0.2.10"  # not this computer: plain http is refused before sending
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all", base_url=far)
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        sid = Approvals(alice).submit("prod", prepared_payout(far, rsa_key)).id
        Approvals(bob).approve(sid)
        with pytest.raises(RefusedError, match="plain http"):
            Approvals(bob).send_approved(pipeline(bob), sid, prepared_payout(far, rsa_key))
        assert Approvals(alice).submission(sid).state == "refused"
        assert alice.fetch() == []
        with pytest.raises(Exception, match="its send was refused: Not sent: http"):  # final
            Approvals(bob).send_approved(pipeline(bob), sid, prepared_payout(far, rsa_key))


def test_a_claim_whose_console_is_gone_ends_refused(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _policy(team_db)
    prepared = prepared_payout(NOWHERE, rsa_key)
    with TeamJournal(team_db.dsn("alice")) as alice:
        sid = Approvals(alice).submit("prod", prepared).id
    with TeamJournal(team_db.dsn("bob")) as bob:
        Approvals(bob).approve(sid)
    with connect(team_db.dsn("carol")) as carol:  # claims, then its console dies
        key = carol.execute("SELECT key FROM gateway.team_key").fetchone()[0]
        assert (
            carol.execute(
                "SELECT gateway.claim(%s, %s)", (sid, content_hash("prod", prepared, key))
            ).fetchone()[0]
            == "ok"
        )
        with TeamJournal(team_db.dsn("bob")) as bob:  # carol's console still lives
            assert Approvals(bob).submission(sid).state == "sending"
    with TeamJournal(team_db.dsn("bob")) as bob:  # opening the journal finds it
        found = Approvals(bob).submission(sid)
        assert (found.state, found.sender) == ("refused", "carol")
        assert "stopped before sending" in (found.reason or "")
    assert ("bob", "refused", "send: the console that claimed it stopped; nothing was sent") in (
        audit_entries(team_db)
    )


def test_the_same_request_held_again_finds_its_waiting_submission(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _policy(team_db)
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):

        def held_card() -> Held:
            card = prepared_payout(server.url, rsa_key, card=True)
            found = hold(pipeline(alice), pipeline(alice).check(card))
            assert found is not None
            return found

        first = held_card().submit(waiting=True)
        assert first.submitted_text == f"Submitted for approval as #{first.id}"
        again = held_card().submit(waiting=True)  # a second console with the same card data
        assert again.id == first.id
        assert again.submitted_text == (
            f"An identical payout-check is already waiting for a checker's decision as "
            f"#{first.id} (submitted by alice); nothing new was submitted"
        )
        assert [s.id for s in Approvals(bob).pending()] == [first.id]
        Approvals(bob).approve(first.id)
        later = held_card().submit(waiting=True)
        assert "already approved by bob and waits to be sent" in later.submitted_text
        assert later.send().result == "accepted"  # it holds the same card data: it sends it
        with pytest.raises(ApprovalRefusedError, match="is sent by alice: it is not sent again"):
            Approvals(bob).send_approved(
                pipeline(bob), first.id, prepared_payout(server.url, rsa_key, card=True)
            )
        assert len(server.received) == 1
        sent = pipeline(alice).check(prepared_payout(server.url, rsa_key, card=True))
        assert hold(pipeline(alice), sent) is None  # sent: the guard refuses it, none held
    assert ("bob", "refused", "send: sent") in audit_entries(team_db)


def test_where_the_team_sender_serves_a_request_goes_to_it_and_its_outcome_is_read_back(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    """No policy holds it (a gateway on this computer, not registered): the team sender,
    which holds the key, sends it at once; the maker's console waits for its outcome."""
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        sender_here(team_db, "prod", server.url, rsa_key, other_rsa_key) as said,
        TeamJournal(team_db.dsn("alice")) as alice,
    ):
        prepared = prepared_payout(server.url, rsa_key)
        held = hold(pipeline(alice), pipeline(alice).check(prepared))
        assert held is not None
        assert held.text == "The team sender, which holds the key of prod, sends it."
        awaiting = held.submit(waiting=False)
        sent = awaiting.send()
        assert sent.result == "accepted"
        shown = io.StringIO()
        print_outcome(sent.outcome, shown)  # what the command line prints of the sender's send
        assert shown.getvalue().startswith(f"payout-check -> ACCEPTED: {sent.outcome.summary}\n")
        assert awaiting.submitted_text == f"Submitted to the team sender as #{awaiting.id}"
        assert awaiting.outcome(5).result == "accepted"  # read again: not sent again
    assert len(server.received) == 1
    assert said == [f"#{awaiting.id} payout-check p-1 -> ACCEPTED: {sent.outcome.summary}"]


def test_a_held_request_goes_to_the_team_sender_once_a_checker_approves_it(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    _policy(team_db)
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        sender_here(team_db, "prod", server.url, rsa_key, other_rsa_key),
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        prepared = prepared_payout(server.url, rsa_key)
        held = hold(pipeline(alice), pipeline(alice).check(prepared))
        assert held is not None
        assert held.text == (
            "The approval policy of the gateway prod (every payout and recurring profile needs "
            "approval) holds this payout-check for a checker's approval; then the team sender, "
            "which holds the key, sends it."
        )
        first = held.submit(waiting=False)
        assert first.submitted_text == f"Submitted for approval as #{first.id}"
        Approvals(bob).reject(first.id, "wrong month")

        held = hold(pipeline(alice), pipeline(alice).check(prepared))
        assert held is not None
        assert f"sends it. The same request #{first.id} was rejected before by bob" in held.text
        with pytest.raises(RejectedBeforeError, match="wrong month"):
            held.submit(waiting=False)
        awaiting = held.submit(waiting=False, decision=Decision(after_rejection=True))
        assert awaiting.id != first.id
        with pytest.raises(ApprovalPendingError, match="The team sender sends it once approved"):
            awaiting.outcome(0.3)
        assert server.received == []
        Approvals(bob).approve(awaiting.id)
        assert awaiting.send().result == "accepted"
        assert Approvals(bob).submission(awaiting.id).after_rejection_of == first.id
    assert len(server.received) == 1


def test_the_rows_of_an_approved_batch_go_to_the_team_sender_under_its_approval(
    team_db: TeamDatabase,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each row goes to the sender as a row of the approved batch (not a payout of its own,
    which the policy would hold for another approval)."""
    monkeypatch.setattr("console.core.team.approvals.held.SENDER_WAIT", 10.0)
    path = write_csv(
        tmp_path / "rows.csv", [account_row("r-1"), account_row("r-2")], header=ACCOUNT_HEADER
    )
    stand_in = Gateway()
    with serve(stand_in) as server:
        environment = f"command line ({server.url.split('//')[1]})"
        with TeamJournal(team_db.dsn("root_admin")) as admin:
            register_policy(admin, environment, "all")
        run = ["batch", "run", str(path), "--base-url", server.url, "--login", "merchant"]
        run += ["--endpoint-id", "1", "--key-file", str(key_file)]
        monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("alice"))
        with sender_here(team_db, environment, server.url, rsa_key, other_rsa_key) as said:
            assert main(run) == EXIT_SUBMITTED
            with TeamJournal(team_db.dsn("bob")) as bob:
                (batch,) = Approvals(bob).pending()
                Approvals(bob).approve(batch.id)
            capsys.readouterr()
            assert main(run) == EXIT_OK
    assert stand_in.payouts == {"r-1": 1, "r-2": 1}
    assert len(said) == 2
    with TeamJournal(team_db.dsn("carol")) as carol:
        approvals = Approvals(carol)
        assert approvals.submission(batch.id).state == "sent"
        assert approvals.pending() == []


@pytest.mark.parametrize(
    ("via_sender", "state", "goes_on"),
    [
        (True, "approved", True),
        (True, "sending", True),  # a quick sender is at it before the front looks
        (True, "sent", True),  # or done: the front reads the outcome from the journal
        (True, "pending", False),
        (True, "refused", False),
        (True, "rejected", False),
        (False, "approved", True),
        (False, "sending", False),  # another console claimed it: not this one's to send
        (False, "sent", False),
    ],
)
def test_a_front_waiting_for_a_decision_goes_on_once_its_submission_is_let_go(
    via_sender: bool, state: str, goes_on: bool
) -> None:
    awaiting = Awaiting(
        approvals=cast(Any, None),
        pipeline=cast(Any, None),
        submitted=cast(Any, None),
        decision=cast(Any, None),
        via_sender=via_sender,
    )
    found = cast(Submission, SimpleNamespace(state=state))
    assert awaiting.goes_on(found) is goes_on
