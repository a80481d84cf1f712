"""The conversation around a send is the core's: for the same situation (production, the last
send's outcome unknown, a card number failing its check digit) the core, the command line and
a batch row are asked the same questions in the same order, and the first "no" sends nothing.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.failures import EXIT_INVALID, EXIT_OK, EXIT_UNKNOWN
from console.core import batch as core
from console.core.gateway_identity import gateway_for
from console.core.history import History
from console.core.pipeline import Decision, Pipeline, Question, Ready, Refusal, Refused, Sent
from console.core.spec import example_values
from console.core.transport import Transport
from tests.helpers.asking import MISTYPED, ORDER, Recording
from tests.helpers.batch_files import HEADER, card_row, write_csv
from tests.helpers.http_server import DROP, Reply, TestServer, serve
from tests.helpers.team import FORM, accepted, pipeline, prepare_values, prepared_payout

_QUESTION = {
    "resend_unknown": (Question.RESEND_UNKNOWN, Refusal.UNKNOWN_OUTCOME),
    "card_number": (Question.CARD_NUMBER, Refusal.CARD_NUMBER),
    "production": (Question.PRODUCTION, Refusal.NOT_CONFIRMED),
}


@pytest.fixture
def lost_once() -> Iterator[TestServer]:
    """A gateway that loses the first request's answer and accepts the rest."""
    replies = iter([DROP])
    with serve(lambda r: next(replies, Reply(200, accepted("q-1"), FORM))) as server:
        yield server


def _mistyped(url: str, key: rsa.RSAPrivateKey) -> Any:
    values = example_values("payout-check")
    values.update(client_orderid="q-1", credit_card_number=MISTYPED)
    return prepare_values(url, key, values)


def _situation(history: History, url: str, key: rsa.RSAPrivateKey) -> Pipeline:
    """Production; q-1 was sent once and its answer lost (outcome unknown)."""
    live = pipeline(history, "live")
    sent = live.send(prepared_payout(url, key, order="q-1", card=True), Decision(True))
    assert str(sent.result) == "unknown"
    return live


def test_the_core_asks_in_one_order_and_sends_once_all_is_answered(
    lost_once: TestServer, rsa_key: rsa.RSAPrivateKey
) -> None:
    with History() as history:
        live = _situation(history, lost_once.url, rsa_key)
        asker = Recording()
        ready = live.ask(live.check(_mistyped(lost_once.url, rsa_key)), asker)
        assert asker.asked == ORDER
        assert isinstance(ready, Ready)
        assert ready.decision == Decision(True, True, True)
        assert ready.held is None  # one person: nothing is held for approval
        sent = live.go(ready)
        assert isinstance(sent, Sent)
        assert str(sent.result) == "accepted"
    assert len(lost_once.received) == 2


@pytest.mark.parametrize("no", ORDER)
def test_the_first_no_ends_the_questions_and_nothing_is_sent(
    no: str, lost_once: TestServer, rsa_key: rsa.RSAPrivateKey
) -> None:
    with History() as history:
        live = _situation(history, lost_once.url, rsa_key)
        asker = Recording(no={no})
        refused = live.run(
            "payout-check",
            {**example_values("payout-check"), "client_orderid": "q-1"}
            | {"credit_card_number": MISTYPED},
            asker,
            base_url=lost_once.url,
            login="merchant",
            private_key=rsa_key,
            endpoint_id="1",
        )
        assert asker.asked == ORDER[: ORDER.index(no) + 1]
        assert isinstance(refused, Refused)
        assert (refused.question, refused.code) == _QUESTION[no]
        assert refused.verdict.client_orderid == "q-1"
    assert len(lost_once.received) == 1  # only the lost send


def test_refusals_come_before_any_question(rsa_key: rsa.RSAPrivateKey) -> None:
    with serve(lambda r: Reply(200, accepted("q-1"), FORM)) as server, History() as history:
        live = pipeline(history, "live")
        assert isinstance(
            live.send(prepared_payout(server.url, rsa_key, order="q-1"), Decision(True)), Sent
        )
        cases = [
            (_mistyped(server.url, rsa_key), Refusal.ACCEPTED_BEFORE),
            (_mistyped("http://gw.example", rsa_key), Refusal.PLAIN_HTTP),
            (prepare_values(server.url, rsa_key, {"client_orderid": "q-2"}), Refusal.INVALID),
        ]
        for prepared, code in cases:
            asker = Recording()
            refused = live.ask(live.check(prepared), asker)
            assert isinstance(refused, Refused)
            assert (refused.code, refused.question, asker.asked) == (code, None, [])
    assert len(server.received) == 1


def test_an_id_sent_by_another_console_while_the_person_answered_is_not_sent_again(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with serve(lambda r: Reply(200, accepted("q-3"), FORM)) as server, History() as history:
        live = pipeline(history, "live")
        ready = live.ask(live.check(prepared_payout(server.url, rsa_key, order="q-3")), Recording())
        assert isinstance(ready, Ready)
        other = pipeline(history, "live")  # meanwhile, another console sends the same id
        other.send(prepared_payout(server.url, rsa_key, order="q-3"), Decision(True))
        refused = live.go(ready)  # decided again inside the journal's write transaction
        assert isinstance(refused, Refused)
        assert refused.code == Refusal.ACCEPTED_BEFORE
    assert len(server.received) == 1


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_command_line_is_asked_the_same_questions_in_the_same_order(
    lost_once: TestServer,
    key_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from console.cli import send_cmd

    base = ["--base-url", lost_once.url, "--login", "m", "--endpoint-id", "1"]
    assert main(["env", "add", "live", "--kind", "production", *base]) == 0
    assert main(["keys", "import", str(key_file), "--env", "live"]) == 0
    send = ["send", "payout-check", "--env", "live"]
    for name, value in example_values("payout-check").items():
        send += ["-f", f"{name}={value}"]
    send += ["-f", "client_orderid=q-1"]
    assert main([*send, "--yes"]) == EXIT_UNKNOWN  # the answer is lost
    asked: list[str] = []
    monkeypatch.setattr(
        send_cmd, "CommandLineAsker", lambda args: Recording(_real(args), asked=asked)
    )
    monkeypatch.setattr("sys.stdin", _Tty("y\n"))
    mistyped = [*send, "-f", f"credit_card_number={MISTYPED}", "--resend-unknown"]
    capsys.readouterr()

    assert main(mistyped) == EXIT_INVALID  # the card number was not confirmed
    assert asked == ORDER[:2]
    err = capsys.readouterr().err
    assert "fails the card number check digit" in err
    assert "PRODUCTION" not in err  # never asked: nothing to confirm
    assert len(lost_once.received) == 1

    asked.clear()
    assert main([*mistyped, "--confirm-card-number"]) == EXIT_OK  # "y" at the prompt
    assert asked == ORDER
    err = capsys.readouterr().err
    assert err.index("after an unknown outcome") < err.index("PRODUCTION")
    assert len(lost_once.received) == 2


def _real(args: Any) -> Any:
    from console.cli.asking import CommandLineAsker

    return CommandLineAsker(args)


def test_a_batch_row_is_asked_the_same_questions_in_the_same_order(
    lost_once: TestServer,
    rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from console.core.batch import runner

    asked: list[str] = []
    monkeypatch.setattr(runner, "Answered", _recording(runner.Answered, asked))
    conn = {"base_url": lost_once.url, "login": "merchant", "private_key": rsa_key}
    conn["endpoint_id"] = "1"
    row = card_row("q-1")
    row[HEADER.index("credit_card_number")] = MISTYPED
    path = write_csv(tmp_path / "b.csv", [row])
    with History() as history:
        live = Pipeline(
            "live",
            gateway=lambda command: gateway_for(command, **conn),
            production=True,
            journal=history,
            transport=Transport,
        )

        def run(**choices: bool) -> core.BatchReport:
            validation = core.check_batch(
                core.read_batch(path), lambda oid: live.verdict(core.COMMAND, oid)
            )
            plan = core.Plan(validation, "live", True, core.BatchLimits(10), **choices)
            decision = core.BatchDecision(plan.summary, plan.resend_unknown)
            asked.clear()
            return core.BatchRunner(live, conn, plan, decision).run()

        assert run(confirm_card_numbers=True).results[0].result == "unknown"  # lost
        skipped = run(resend_unknown=True).results[0]
        assert asked == ORDER[:2]
        assert (skipped.result, skipped.refusal) == (core.SKIPPED, Refusal.CARD_NUMBER)
        sent = run(resend_unknown=True, confirm_card_numbers=True).results[0]
        assert asked == ORDER
        assert sent.result == "accepted"
    assert len(lost_once.received) == 2


def _recording(answered: Any, asked: list[str]) -> Any:
    return lambda decision: Recording(answered(decision), asked=asked)


def test_the_command_line_refuses_plain_http_before_asking_for_production(
    key_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = ["--base-url", "https://gw.example/paynet", "--login", "m", "--endpoint-id", "1"]
    assert main(["env", "add", "live", "--kind", "production", *base]) == 0
    assert main(["keys", "import", str(key_file), "--env", "live"]) == 0
    monkeypatch.setattr("sys.stdin", _Tty("y\n"))  # would say yes, if it were asked
    send = ["send", "payout-check", "--env", "live", "--base-url", "http://gw.example/paynet"]
    for name, value in example_values("payout-check").items():
        send += ["-f", f"{name}={value}"]
    capsys.readouterr()
    assert main(send) == 2
    err = capsys.readouterr().err
    assert "plain http" in err
    assert "PRODUCTION" not in err  # no summary, no prompt: it could never be sent
