"""Each money rule held for every command it protects, so that narrowing a rule to one command
(or one spelling, or one state) fails a test that names what a person would lose.

Every new-order command (a payout and a recurring profile make an order a repeat would
duplicate) x production: confirmed first, and refused by the journal's own check inside its
write transaction even where the look-up before it was stale (another process sent it
meanwhile).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import batch
from console.core.gateway_identity import gateway_identity, normalised_url
from console.core.history import History
from console.core.pipeline import (
    NEW_ORDER_COMMANDS,
    Decision,
    Pipeline,
    Refusal,
    RefusedError,
    Seen,
    Verdict,
    accepted_verdict,
)
from console.core.pipeline.guard import NEW
from console.core.prepared import PreparedRequest, prepare
from console.core.spec import example_values
from console.core.transport import Transport
from tests.helpers.batch_files import card_file
from tests.helpers.http_server import DROP, Reply, serve
from tests.helpers.pipeline import batch_pipeline
from tests.helpers.team import prepare_values

FORM = {"Content-Type": "text/html;charset=utf-8"}
ACCEPTED = {
    "payout-check": b"type=async-response\n&merchant-order-id=o-1\n&gateway-order-id=9001\n",
    "create-recurring-payment": (
        b"type=async-response\n&merchant-order-id=o-1\n&gateway-order-id=9002\n"
        b"&recurring-payment-id=700000000001\n"
    ),
}


def _prepared(command: str, url: str, key: rsa.RSAPrivateKey) -> PreparedRequest:
    values = example_values(command)
    values["client_orderid"] = "o-1"
    connection = {"base_url": url, "login": "merchant", "endpoint_id": "1"}
    return prepare(command, values, private_key=key, **connection)


def _pipeline(history: History, *, production: bool) -> Pipeline:
    return Pipeline(
        "gw", gateway=lambda _c: "", production=production, journal=history, transport=Transport
    )


@pytest.mark.parametrize("production", [True, False], ids=["production", "sandbox"])
@pytest.mark.parametrize("command", sorted(NEW_ORDER_COMMANDS))
def test_every_new_order_is_confirmed_on_production_and_claimed_once_by_the_journal(
    command: str, production: bool, rsa_key: rsa.RSAPrivateKey
) -> None:
    history = History()
    with serve(lambda r: Reply(200, ACCEPTED[command], FORM)) as server:
        pipeline = _pipeline(history, production=production)
        check = pipeline.check(_prepared(command, server.url, rsa_key))
        # a production payout or recurring profile is never sent without the person's yes
        assert check.needs_confirmation is production
        if production:
            with pytest.raises(RefusedError) as refused:
                pipeline.send(check.prepared, Decision(), check=check)
            assert refused.value.code == Refusal.NOT_CONFIRMED
            assert server.received == []
        yes = Decision(production_confirmed=True)
        assert pipeline.send(check.prepared, yes, check=check).result == "accepted"
        # The same id again with a look-up made before the first send (another process, a
        # batch that looked its file up first): the journal's check refuses it.
        again = _prepared(command, server.url, rsa_key)
        stale = pipeline.check(again, NEW)
        with pytest.raises(RefusedError) as refused:
            pipeline.send(again, Decision(True, True), check=stale)
        assert refused.value.code == Refusal.ACCEPTED_BEFORE
        assert len(server.received) == 1
        assert [row.outcome for row in history.fetch()] == ["accepted"]


def test_a_status_look_up_on_production_needs_no_confirmation(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    look_up = prepare(
        "status",
        {"client_orderid": "o-1"},
        base_url="http://127.0.0.1:9",
        login="merchant",
        private_key=rsa_key,
        endpoint_id="1",
    )
    assert not _pipeline(history, production=True).check(look_up).needs_confirmation


def test_an_id_on_its_way_right_now_is_refused_with_words_that_say_so(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    history = History()
    pipeline = _pipeline(history, production=False)
    prepared = _prepared("payout-check", "http://127.0.0.1:9", rsa_key)
    sending = Verdict(Seen.SENDING, "o-1", datetime.now(UTC))
    check = pipeline.check(prepared, sending)
    assert sending.blocks
    assert check.block_code == Refusal.IN_FLIGHT
    assert "o-1 is being sent right now" in check.blocked
    with pytest.raises(RefusedError) as refused:
        check.refuse_if_blocked()
    assert refused.value.code == Refusal.IN_FLIGHT
    assert "being sent right now" in str(refused.value)


def test_an_accepted_answer_names_its_time_and_gateway_order() -> None:
    before = datetime.now(UTC)
    verdict = accepted_verdict("payout-check", "o-1", "9001")
    assert verdict is not None
    assert verdict.gateway_order_id == "9001"
    assert verdict.at is not None
    assert verdict.at.tzinfo is not None
    assert before <= verdict.at <= datetime.now(UTC)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("https://gateway.example/paynet", "https://gateway.example.:443/paynet"),
        ("https://gateway.example/paynet", "https://GATEWAY.example:443/paynet/"),
        ("http://gateway.example/paynet", "http://gateway.example:80/paynet"),
        ("https://gateway.example./paynet", "https://gateway.example/paynet"),
    ],
)
def test_one_gateway_however_its_address_is_written(one: str, other: str) -> None:
    assert normalised_url(one) == normalised_url(other)
    assert gateway_identity(one, "m") == gateway_identity(other, "m")


def test_another_port_is_another_gateway() -> None:
    assert normalised_url("https://gateway.example:8443/p") != normalised_url(
        "https://gateway.example/p"
    )


def test_a_dry_run_with_resend_unknown_signs_what_the_run_would_resend(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = card_file(tmp_path / "b.csv", 2)
    with serve(lambda r: DROP) as server, History() as history:
        conn = {"base_url": server.url, "login": "merchant", "private_key": rsa_key}
        conn["endpoint_id"] = "1"
        pipeline = batch_pipeline(history, conn)
        first = batch.read_batch(path).rows[0]
        lost = pipeline.send(prepare_values(server.url, rsa_key, dict(first.values)), Decision())
        assert str(lost.result) == "unknown"
        validation = batch.check_batch(
            batch.read_batch(path), lambda oid: pipeline.verdict(batch.COMMAND, oid)
        )
        plan = batch.Plan(validation, "test", False, batch.BatchLimits(10), resend_unknown=True)
        dry = batch.sign_rows(pipeline, conn, plan)
    # the dry run says what the run would do: both rows go, the unknown one again
    assert [r.result for r in dry.results] == [batch.SIGNED, batch.SIGNED]
    assert len(server.received) == 1


def test_a_second_pause_or_resume_changes_nothing(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pause pressed twice counts the pause from the first press; Resume pressed on a
    running batch adds no pause (the rows per second and time left stay true)."""
    clock = iter([100.0, 110.0, 115.0, 120.0, 130.0])
    monkeypatch.setattr("console.core.batch.runner.time.perf_counter", lambda: next(clock))
    path = card_file(tmp_path / "b.csv", 1)
    conn = {"base_url": "http://127.0.0.1:9", "login": "m", "private_key": rsa_key}
    conn["endpoint_id"] = "1"
    with History() as history:
        pipeline = batch_pipeline(history, conn)
        validation = batch.check_batch(
            batch.read_batch(path), lambda oid: pipeline.verdict(batch.COMMAND, oid)
        )
        plan = batch.Plan(validation, "test", False, batch.BatchLimits(10))
        runner = batch.BatchRunner(pipeline, conn, plan, batch.BatchDecision())
        runner.resume()  # running: nothing to resume, the clock is not read
        assert not runner.paused
        runner.pause()  # at 100
        runner.pause()  # again: still paused since 100
        assert runner.paused
        runner.resume()  # at 110: paused for 10 s
        runner.resume()  # again: nothing
        assert not runner.paused
        runner.pause()  # at 115
        runner.resume()  # at 120: 15 s paused in all
    assert next(clock) == 130.0  # every later press left the clock alone


def test_a_status_answer_for_a_look_up_without_client_orderid_settles_nothing(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    """A look-up by the gateway's order id alone (sent unvalidated) names no client_orderid:
    no payout of the journal takes its status."""
    history = History()
    answers = iter([ACCEPTED["payout-check"]])
    status = b"type=status-response\n&status=declined\n&serial-number=1\n"
    with serve(lambda r: Reply(200, next(answers, status), FORM)) as server:
        pipeline = _pipeline(history, production=False)
        pipeline.send(_prepared("payout-check", server.url, rsa_key), Decision())
        look_up = prepare(
            "status",
            {"orderid": "9001"},
            base_url=server.url,
            login="merchant",
            private_key=rsa_key,
            endpoint_id="1",
            skip_validation=True,
        )
        sent = pipeline.send(look_up, Decision())
    assert sent.outcome.response is not None
    assert sent.outcome.response.status == "declined"
    payout = next(row for row in history.fetch() if row.command == "payout-check")
    assert payout.final_status is None


def test_the_card_number_question_names_the_card_that_fails_masked(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    """The person confirms the number they typed: the question shows that card, masked,
    not another field's value, and names the check."""
    values = example_values("payout-check")
    values.update(client_orderid="o-1", credit_card_number="4444444444444449")
    connection = {"base_url": "http://127.0.0.1:9", "login": "merchant", "endpoint_id": "1"}
    prepared = prepare("payout-check", values, private_key=rsa_key, **connection)
    question = _pipeline(History(), production=False).check(prepared).card_question
    assert question.startswith("The card number 444444******4449 fails the card number check")
    assert "(Luhn)" in question
    assert "4444444444444449" not in question


def test_a_refusal_carries_the_verdict_that_decided_it(rsa_key: rsa.RSAPrivateKey) -> None:
    """A front names the earlier order from the refusal (its time, its gateway order)."""
    prepared = _prepared("payout-check", "http://127.0.0.1:9", rsa_key)
    accepted = Verdict(Seen.ACCEPTED, "o-1", datetime.now(UTC), "9001")
    check = _pipeline(History(), production=False).check(prepared, accepted)
    with pytest.raises(RefusedError) as refused:
        check.refuse_if_blocked()
    assert refused.value.verdict is accepted
    assert refused.value.code == Refusal.ACCEPTED_BEFORE
