"""The core's send pipeline: guard, confirmation, journal, masked outcome, after-answer effects."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.errors import JournalUnavailableError
from console.core.history import History
from console.core.pipeline import Decision, Pipeline, Refusal, RefusedError, SendSummary
from console.core.prepared import PreparedRequest, prepare
from console.core.spec import example_values
from console.core.transport import Transport
from tests.helpers.http_server import Received, Reply, serve

FORM = {"Content-Type": "text/html;charset=utf-8"}
ASYNC_OK = b"type=async-response\n&merchant-order-id=p-1\n&gateway-order-id=9001\n"
PAN = "4444444444444448"


def _prepared(
    url: str, key: rsa.RSAPrivateKey, login: str = "merchant", **fields: str
) -> PreparedRequest:
    values = example_values("payout-check")
    values.update(client_orderid="p-1", **fields)
    return prepare(
        "payout-check", values, base_url=url, login=login, private_key=key, endpoint_id="1"
    )


def _status(url: str, key: rsa.RSAPrivateKey) -> PreparedRequest:
    return prepare(
        "status",
        {"client_orderid": "p-1"},
        base_url=url,
        login="merchant",
        private_key=key,
        endpoint_id="1",
    )


def _pipeline(history: History | None, *, production: bool = False, **kw: Any) -> Pipeline:
    return Pipeline(
        "gw",
        gateway=lambda _command: "",
        production=production,
        journal=history,
        transport=Transport,
        **kw,
    )


def test_the_journal_row_is_committed_before_the_request_leaves(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    history = History()
    seen: list[list[str]] = []

    def gateway(_r: Received) -> Reply:
        seen.append([row.outcome for row in history.fetch()])
        return Reply(200, ASYNC_OK, FORM)

    with serve(gateway) as server:
        sent = _pipeline(history).send(_prepared(server.url, rsa_key), Decision())
    assert seen == [["pending"]]
    assert sent.result == "accepted"
    assert [row.outcome for row in history.fetch()] == ["accepted"]


def test_without_a_journal_nothing_is_sent(rsa_key: rsa.RSAPrivateKey) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        with pytest.raises(JournalUnavailableError):
            _pipeline(None).send(_prepared(server.url, rsa_key), Decision())
        assert server.received == []


def test_an_accepted_client_orderid_is_refused_the_second_time(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        pipeline = _pipeline(history)
        pipeline.send(_prepared(server.url, rsa_key), Decision())
        check = pipeline.check(_prepared(server.url, rsa_key))
        assert check.blocked.startswith("Already sent and accepted at")
        with pytest.raises(RefusedError) as refused:
            # even a person who says yes to everything does not pay twice
            pipeline.send(_prepared(server.url, rsa_key), Decision(True, True))
        assert refused.value.code == Refusal.ACCEPTED_BEFORE
        assert len(server.received) == 1
        # another environment with the same settings is the same gateway account ...
        other = Pipeline(
            "other",
            gateway=lambda _command: "",
            production=False,
            journal=history,
            transport=Transport,
        )
        with pytest.raises(RefusedError) as refused:
            other.send(_prepared(server.url, rsa_key), Decision())
        assert refused.value.code == Refusal.ACCEPTED_BEFORE
        # ... while another login on it is another merchant account: its own ids
        other.send(_prepared(server.url, rsa_key, login="other-merchant"), Decision())
        assert len(server.received) == 2


def test_an_unknown_outcome_is_resent_only_when_the_person_decided(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    history = History()
    answers = iter([Reply(500, b"Internal error [x-1]", {"Content-Type": "text/plain"})])
    with serve(lambda r: next(answers, Reply(200, ASYNC_OK, FORM))) as server:
        pipeline = _pipeline(history)
        assert pipeline.send(_prepared(server.url, rsa_key), Decision()).result == "gateway-failed"
        check = pipeline.check(_prepared(server.url, rsa_key))
        assert "unknown outcome" in check.question
        with pytest.raises(RefusedError) as refused:
            pipeline.send(_prepared(server.url, rsa_key), Decision())
        assert refused.value.code == Refusal.UNKNOWN_OUTCOME
        assert len(server.received) == 1
        sent = pipeline.send(_prepared(server.url, rsa_key), Decision(resend_after_unknown=True))
        assert sent.result == "accepted"
        assert "after an unknown outcome" in sent.note
        assert len(server.received) == 2


def test_production_is_sent_only_when_confirmed(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        pipeline = _pipeline(history, production=True)
        with pytest.raises(RefusedError) as refused:
            pipeline.send(_prepared(server.url, rsa_key), Decision())
        assert refused.value.code == Refusal.NOT_CONFIRMED
        assert server.received == []
        assert history.fetch() == []  # refused before the journal: nothing pending
        pipeline.send(_prepared(server.url, rsa_key), Decision(production_confirmed=True))
        assert len(server.received) == 1


def test_the_confirmation_summary_comes_from_the_prepared_request(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    prepared = _prepared(
        "https://gw.example/paynet",
        rsa_key,
        amount="25.00",
        currency="EUR",
        credit_card_number=PAN,
        server_callback_url="http://127.0.0.1:8085/callback",
    )
    summary = SendSummary.of("live", True, "payout-check", prepared.params)
    text = "\n".join(summary.lines())
    assert "PRODUCTION" in text
    assert "25.00 EUR" in text
    assert "card 444444******4448" in text
    assert PAN not in text
    assert any("published test card" in flag for flag in summary.flags)
    assert any("127.0.0.1" in flag and "cannot reach" in flag for flag in summary.flags)
    # on a sandbox those are exactly what one uses: no flags
    assert SendSummary.of("sb", False, "payout-check", prepared.params).flags == ()


def test_an_answer_that_echoes_the_card_is_masked_for_every_front(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    echo = (
        f"type=validation-error\n&error-message=card {PAN} refused (cvv2=123)\n"
        f"&credit_card_number={PAN}\n&gateway-order-id=4111111111111111\n"
        f"&echo=4444%204444%204444%204448\n"
    ).encode()
    history = History()
    with serve(lambda r: Reply(200, echo, FORM)) as server:
        sent = _pipeline(history).send(
            _prepared(server.url, rsa_key, credit_card_number=PAN, cvv2="123"), Decision()
        )
    shown = sent.outcome
    assert shown.response is not None
    everything = " ".join(
        [shown.summary, shown.response.raw.decode(), *(v for _, v in shown.response.fields)]
    )
    assert PAN not in everything
    assert "4444%204444%204444%204448" not in everything
    assert "444444******4448" in everything
    assert "cvv2=123" not in everything
    # the gateway's own order id is an id, not a card, even when it passes the Luhn check
    assert shown.response.get("gateway-order-id") == "4111111111111111"
    # the journal stores what every front shows
    stored = history.details(1).response
    assert PAN not in str(stored)
    assert "cvv2=123" not in str(stored)
    # the answer as it came is there only for a deliberate reveal
    assert sent.revealed.response is not None
    assert PAN in sent.revealed.response.raw.decode()


def test_a_status_answer_sets_the_orders_final_status(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    status = b"type=status-response\n&status=approved\n&gateway-order-id=9001\n"
    answers = iter([ASYNC_OK, status])
    with serve(lambda r: Reply(200, next(answers), FORM)) as server:
        pipeline = _pipeline(history)
        pipeline.send(_prepared(server.url, rsa_key), Decision())
        ask = _status(server.url, rsa_key)
        pipeline.send(ask, Decision())
    payout = next(r for r in history.fetch() if r.command == "payout-check")
    assert payout.final_status == "approved"
    assert payout.gateway_order_id == "9001"


def test_plain_http_beyond_this_computer_is_never_used(rsa_key: rsa.RSAPrivateKey) -> None:
    history = History()
    prepared = _prepared("http://gateway.example/paynet", rsa_key)
    with pytest.raises(RefusedError) as refused:
        _pipeline(history, production=True).send(prepared, Decision(True, True))
    assert refused.value.code == Refusal.PLAIN_HTTP
    assert "https" in refused.value.message
    assert history.fetch() == []


@pytest.mark.parametrize("host", ["gateway.localhost", "127.0.0.1.nip.io", "localhost.example"])
def test_names_that_only_look_local_are_plain_http_and_refused(
    rsa_key: rsa.RSAPrivateKey, host: str
) -> None:
    history = History()
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        prepared = _prepared(f"http://{host}:{server.port}/paynet", rsa_key)
        with pytest.raises(RefusedError) as refused:
            _pipeline(history).send(prepared, Decision(True, True))
    assert refused.value.code == Refusal.PLAIN_HTTP  # a resolver may send the name to DNS
    assert server.received == []
    assert history.fetch() == []


def test_a_declined_status_answer_is_a_final_status_too(rsa_key: rsa.RSAPrivateKey) -> None:
    from console.core.pipeline.pipeline import reported_status

    history = History()
    status = b"type=status-response\n&status=declined\n&gateway-order-id=9001\n"
    answers = iter([ASYNC_OK, status])
    with serve(lambda r: Reply(200, next(answers), FORM)) as server:
        pipeline = _pipeline(history)
        pipeline.send(_prepared(server.url, rsa_key), Decision())
        ask = _status(server.url, rsa_key)
        sent = pipeline.send(ask, Decision())
    assert reported_status(sent.outcome) == "declined"
    payout = next(r for r in history.fetch() if r.command == "payout-check")
    assert payout.final_status == "declined"
