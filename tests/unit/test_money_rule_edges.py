"""The edges of the money rules that the fronts' tests do not reach: what a person reads when
a send never arrived, a submission ended without a send, a status answer is not one, or a
command makes no new order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import batch as core
from console.core.batch.results import apply_result
from console.core.client import Outcome
from console.core.errors import NotSentError
from console.core.gateway_identity import gateway_for
from console.core.history import History
from console.core.pipeline import (
    Pipeline,
    Seen,
    Verdict,
    accepted_verdict,
    resend_note,
)
from console.core.pipeline import verdict_for as guard_verdict
from console.core.pipeline.guard import blocked_text
from console.core.pipeline.pipeline import reported_status
from console.core.prepared import prepare
from console.core.spec import example_values
from console.core.team.approvals.submissions import Submission, decision_text
from console.core.transport import Transport
from tests.helpers.batch_files import card_file
from tests.helpers.history_data import answered
from tests.helpers.team import register_policy

CONNECTION = {"base_url": "http://127.0.0.1:9", "login": "m", "endpoint_id": "1"}


def _pipeline(journal: Any) -> Pipeline:
    return Pipeline(
        "sb",
        gateway=lambda command: gateway_for(command, **CONNECTION),
        production=False,
        journal=journal,
        transport=Transport,
    )


# -- the double-payout guard ------------------------------------------------------------------


def test_only_a_new_order_with_an_id_is_looked_up_or_remembered() -> None:
    class Unasked:
        def sent_before(self, *args: Any) -> list[Any]:
            raise AssertionError("a status look-up or an empty id is never looked up")

    assert guard_verdict(Unasked(), "gw", "status", "p-1").seen is Seen.NEW
    assert guard_verdict(Unasked(), "gw", "payout-check", "  ").seen is Seen.NEW
    assert accepted_verdict("status", "p-1", "77") is None  # a look-up makes no order
    assert accepted_verdict("payout-check", " ", "77") is None
    accepted = accepted_verdict("payout-check", " p-1 ", "77")
    assert accepted is not None
    assert (accepted.seen, accepted.client_orderid) == (Seen.ACCEPTED, "p-1")


def test_a_profile_accepted_before_is_named_by_its_recurring_payment_id() -> None:
    at = datetime.now(UTC)
    charged = Verdict(Seen.ACCEPTED, "rp-1", at, "10000001", "700000000001")
    said = blocked_text(charged, "create-recurring-payment")
    assert "(recurring-payment-id 700000000001): rp-1" in said
    assert "10000001" not in said  # one charge's order id is not the profile's
    assert "(gateway order 10000001): rp-1" in blocked_text(charged, "payout-check")
    unnamed = blocked_text(Verdict(Seen.ACCEPTED, "rp-1", at), "create-recurring-payment")
    assert "Already sent and accepted at " in unnamed
    assert "(" not in unnamed


def test_a_resend_after_a_send_that_never_arrived_says_so() -> None:
    at = datetime.now(UTC)
    note = resend_note(Verdict(Seen.NOT_SENT, "p-1", at))
    assert note.startswith("Sent again: the send of p-1 at ")
    assert note.endswith("never arrived.")
    assert resend_note(Verdict(Seen.NEW, "p-1")) == ""


# -- a status answer sets a final status only when it is one --------------------------------


def test_an_answer_to_a_status_look_up_that_is_no_status_sets_nothing(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    asked = prepare(
        "status",
        {"client_orderid": "p-1", "orderid": "7"},
        private_key=rsa_key,
        **CONNECTION,
    )
    error = answered(asked, "type=error&error-message=No order&error-code=207")
    assert reported_status(error) is None
    approved = answered(asked, "type=status-response&status=approved&orderid=7")
    assert reported_status(approved) == "approved"


# -- a batch ----------------------------------------------------------------------------------


def test_a_row_whose_send_never_arrived_has_no_gateway_order_in_the_results(
    rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    path = card_file(tmp_path / "p.csv", 1, "n")
    with History(tmp_path / "j.sqlite3") as journal:
        pipeline = _pipeline(journal)
        validation = core.check_batch(
            core.read_batch(path), lambda o: pipeline.verdict("payout-check", o)
        )
        (checked,) = validation.rows
        prepared = prepare("payout-check", checked.row.values, private_key=rsa_key, **CONNECTION)
        lost = Outcome(prepared, None, NotSentError("Connection refused.", prepared.url), 0.1)
        row = core.RowResult(checked, "not-sent", "Connection refused.", lost)
        assert row.gateway_order_id is None
        lines = core.result_lines(validation, pipeline)
        apply_result(lines, row)
        assert lines[checked.row.number].gateway_order_id == ""
        assert lines[checked.row.number].outcome == "not-sent"


@pytest.mark.parametrize("concurrency", [0, 17])
def test_a_batch_runs_with_one_to_sixteen_sends_at_once(
    concurrency: int, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    path = card_file(tmp_path / "p.csv", 1, "c")
    with History(tmp_path / "j.sqlite3") as journal:
        pipeline = _pipeline(journal)
        validation = core.check_batch(
            core.read_batch(path), lambda o: pipeline.verdict("payout-check", o)
        )
        plan = core.Plan(validation, "sb", False, core.BatchLimits(100))
        connection = {**CONNECTION, "private_key": rsa_key}
        with pytest.raises(ValueError, match="concurrency must be 1 to 16"):
            core.BatchRunner(
                pipeline, connection, plan, core.BatchDecision(), concurrency=concurrency
            )


# -- what became of a submission, in a person's words ----------------------------------------


def _submission(state: str, reason: str | None = None, sender: str | None = None) -> Submission:
    now = datetime.now(UTC)
    return Submission(
        id=4, environment="prod", command="payout-check", client_orderid="p-1",
        amount="25.00", currency="USD", receiver="card 444444******4448", card_data=True,
        params=None, maker="alice", created=now, expires=now + timedelta(hours=1),
        state=state, decided_by="bob", reason=reason, sender=sender, request_id=None,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("state", "reason", "words"),
    [
        ("approved", None, "#4 was approved by bob."),
        ("pending", None, "#4 waits for a checker's decision; nothing was sent."),
        ("rejected", "wrong card", "#4 was rejected by bob: wrong card. Nothing was sent."),
        ("rejected", None, "#4 was rejected by bob. Nothing was sent."),
        ("expired", None, "#4 expired before it was approved and sent. Nothing was sent."),
        ("void", None, "#4's approval is void: the request changed after it. Nothing was sent."),
        (
            "refused",
            "accepted before",
            "#4 was approved by bob, but its send was refused: accepted before. Nothing was sent.",
        ),
        ("refused", None, "#4 was approved by bob, but its send was refused. Nothing was sent."),
    ],
)
def test_a_submission_that_ended_without_a_send_says_so(
    state: str, reason: str | None, words: str
) -> None:
    assert decision_text(_submission(state, reason)) == words


def test_an_id_accepted_before_is_refused_not_submitted_for_approval(
    team_db: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Nothing to approve: under a team policy, a payout whose id the gateway accepted
    before is refused with the reason, never put before a checker."""
    from console.core.pipeline import Answered, Decision, Refusal, Refused
    from console.core.team import Approvals, TeamJournal
    from tests.helpers.http_server import Reply, serve
    from tests.helpers.team import FORM, accepted, pipeline, prepared_payout

    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
    ):
        payout = prepared_payout(server.url, rsa_key)
        hooks = alice.journal("prod")  # sent before the policy came
        hooks.after_answer(hooks.before_send(payout), answered_payout(payout))
        with TeamJournal(team_db.dsn("root_admin")) as admin:
            register_policy(admin, "prod", "all")
        done = pipeline(alice).ask(pipeline(alice).check(payout), Answered(Decision(True, True)))
        assert isinstance(done, Refused)
        assert done.code == Refusal.ACCEPTED_BEFORE
        assert Approvals(alice).pending() == []
        assert server.received == []


def answered_payout(payout: Any) -> Outcome:
    return answered(payout, "type=async-response&serial-number=s&gateway-order-id=77")


def test_an_approved_payout_whose_id_was_accepted_meanwhile_keeps_its_approval(
    team_db: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The id went out another way while the submission waited (the policy was lifted and
    someone sent it): sending the approved one is refused before it is claimed, so nothing is
    paid twice and the approval is not used up."""
    from console.core.pipeline import Decision, Refusal, RefusedError
    from console.core.team import Approvals, TeamJournal
    from tests.helpers.http_server import Reply, serve
    from tests.helpers.team import FORM, accepted, pipeline, prepared_payout

    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("root_admin")) as admin,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
        TeamJournal(team_db.dsn("dave")) as dave,
    ):
        register_policy(admin, "prod", "all")
        payout = prepared_payout(server.url, rsa_key)
        sid = Approvals(alice).submit("prod", payout).id
        register_policy(admin, "prod", "none")
        assert str(pipeline(dave).send(payout, Decision(True, True)).result) == "accepted"
        Approvals(bob).approve(sid)
        with pytest.raises(RefusedError) as refused:
            Approvals(alice).send_approved(pipeline(alice), sid, payout)
        assert refused.value.code == Refusal.ACCEPTED_BEFORE
        assert len(server.received) == 1
        assert Approvals(alice).submission(sid).state == "approved"


def test_an_id_outside_a_files_look_up_is_still_looked_up(
    rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    """A batch looks its ids up together; an id it did not name (a row read later) is not
    taken for new: it is asked of the journal on its own."""
    with History(tmp_path / "j.sqlite3") as journal:
        pipeline = _pipeline(journal)
        sent = prepare(
            "payout-check",
            {**example_values("payout-check"), "client_orderid": "late-1"},
            private_key=rsa_key,
            **CONNECTION,
        )
        hooks = journal.journal("sb")
        hooks.after_answer(
            hooks.before_send(sent), answered(sent, "type=async-response&gateway-order-id=9")
        )
        verdict = pipeline.verdicts("payout-check", ["early-1"])
        assert verdict("early-1").seen is Seen.NEW
        assert verdict("late-1").seen is Seen.ACCEPTED


def test_a_batch_on_a_terminal_tells_its_pace_and_the_time_left() -> None:
    from console.cli.batch_output import progress_line

    assert progress_line(core.Progress(50, 200, 10.0)) == (
        "50/200 rows, 5.0 rows/s, about 30 s left"
    )
    paused_at_start = core.Progress(0, 200, 0.0, paused=True)
    assert progress_line(paused_at_start) == "0/200 rows, 0.0 rows/s (paused)"
