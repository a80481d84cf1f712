"""Team mode asks the pipeline's questions in the core's order too: where the approval policy
holds a request back, submitting it takes the production confirmation's place, after the
unknown outcome and the card number; the command line's answers come in that order as well.
Against a real PostgreSQL server."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.failures import EXIT_USAGE
from console.core.pipeline import Answered, Decision, Question, Ready, Refusal, Refused, Sent
from console.core.team import Approvals, TeamJournal
from console.core.team.approvals.held import Awaiting
from tests.helpers.asking import MISTYPED, TEAM_ORDER, Recording
from tests.helpers.http_server import DROP, Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import (
    FORM,
    accepted,
    payout_values,
    pipeline,
    prepare_values,
    register_policy,
)

pytest.importorskip("psycopg")


def _policy(db: TeamDatabase, environment: str) -> None:
    with TeamJournal(db.dsn("root_admin")) as admin:
        register_policy(admin, environment, "all")


def test_a_held_request_is_asked_the_same_questions_and_submitting_confirms_it(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    replies = iter([DROP])
    with (
        serve(lambda r: next(replies, Reply(200, accepted("q-1"), FORM))) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        card = payout_values("q-1", card=True)
        lost = pipeline(alice).send(prepare_values(server.url, rsa_key, card), Decision(True))
        assert str(lost.result) == "unknown"
        _policy(team_db, "prod")
        mistyped = pipeline(alice).check(
            prepare_values(server.url, rsa_key, card | {"credit_card_number": MISTYPED})
        )

        up_front = pipeline(alice).ask(mistyped, Answered(Decision(True, True, True)))
        assert isinstance(up_front, Refused)  # answers given up front never submit it
        assert (up_front.question, up_front.code) == (Question.SUBMIT, Refusal.NOT_SUBMITTED)

        asker = Recording()
        ready = pipeline(alice).ask(mistyped, asker)
        assert asker.asked == TEAM_ORDER  # no production question: the approval is it
        assert isinstance(ready, Ready)
        assert ready.held is not None
        assert Approvals(bob).pending() == []  # asked, not submitted yet
        awaiting = pipeline(alice).go(ready, waiting=True)
        assert isinstance(awaiting, Awaiting)
        threading.Timer(0.2, Approvals(bob).approve, args=(awaiting.id,)).start()
        assert awaiting.wait(10).state == "approved"
        sent = awaiting.send()
        assert isinstance(sent, Sent)
        assert str(sent.result) == "accepted"
    assert len(server.received) == 2


def test_the_command_line_in_team_mode_answers_in_the_same_order(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from console.cli import send_cmd
    from console.cli.asking import CommandLineAsker

    replies = iter([DROP])
    with serve(lambda r: next(replies, Reply(200, accepted("q-1"), FORM))) as server:
        monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("alice"))
        send = ["send", "payout-check", "--base-url", server.url, "--login", "merchant"]
        send += ["--endpoint-id", "1", "--key-file", str(key_file)]
        for name, value in payout_values("q-1", card=True).items():
            send += ["-f", f"{name}={value}"]
        assert main(send) == 7  # the answer is lost: outcome unknown
        _policy(team_db, f"command line ({server.url.split('//')[1]})")
        asked: list[str] = []

        def recording(args: Any) -> Recording:
            return Recording(CommandLineAsker(args), asked=asked)

        monkeypatch.setattr(send_cmd, "CommandLineAsker", recording)
        capsys.readouterr()
        mistyped = [*send, "-f", f"credit_card_number={MISTYPED}"]
        assert main([*mistyped, "--resend-unknown", "--confirm-card-number"]) == EXIT_USAGE
        assert asked == TEAM_ORDER
        assert "--wait SECONDS" in capsys.readouterr().err  # card data: only this process
        with TeamJournal(team_db.dsn("bob")) as bob:
            assert Approvals(bob).pending() == []
    assert len(server.received) == 1
