"""The one request path: validate -> sign -> journal -> send once -> decode -> journal."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core.client import Client, Result
from console.core.errors import InputError
from console.core.paths import resolve
from console.core.prepared import PreparedRequest, prepare
from console.core.spec import example_values
from console.core.transport import Timeouts, Transport
from tests.helpers.http_server import DROP, Reply, serve

FORM = {"Content-Type": "text/html;charset=utf-8"}
ASYNC_OK = (
    b"type=async-response\n&serial-number=00000000-1\n&merchant-order-id=hf-1\n"
    b"&gateway-order-id=9001\n&end-point-id=1001\n"
)


def _prepare(url: str, key: rsa.RSAPrivateKey, **values: str) -> PreparedRequest:
    fields = example_values("payout-check") | values
    return prepare(
        "payout-check", fields, base_url=url, login="merchant", private_key=key, endpoint_id="1001"
    )


def test_request_carries_signed_header_and_form_body(rsa_key: rsa.RSAPrivateKey) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        Client(Transport()).send(_prepare(server.url, rsa_key, order_desc="two words"))
        got = server.received[0]
    assert got.path == "/api/v4/payout-check/1001"
    assert got.headers["Authorization"].startswith('OAuth oauth_consumer_key="merchant"')
    assert got.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert b"order_desc=two%20words" in got.body
    assert b"login=" not in got.body


def test_errors_block_signing_and_sending(rsa_key: rsa.RSAPrivateKey) -> None:
    prepared = _prepare("http://127.0.0.1:9", rsa_key, currency="")
    assert prepared.signed is None
    assert any("currency" in p.fields for p in prepared.errors)
    with pytest.raises(InputError, match="not signed"):
        Client(Transport()).send(prepared)


def test_a_dropped_connection_is_outcome_unknown_and_sent_once(rsa_key: rsa.RSAPrivateKey) -> None:
    with serve(lambda r: DROP) as server:
        outcome = Client(Transport()).send(_prepare(server.url, rsa_key))
        assert len(server.received) == 1
    assert outcome.result is Result.UNKNOWN
    assert "client_orderid" in outcome.summary


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _send(url: str, key_file: Path, *extra: str) -> list[str]:
    args = [
        "send",
        "payout-check",
        "--base-url",
        url,
        "--login",
        "merchant",
        "--endpoint-id",
        "1001",
        "--key-file",
        str(key_file),
        "--json",
    ]
    for name, value in example_values("payout-check").items():
        args += ["-f", f"{name}={value}"]
    return [*args, *extra]


@pytest.mark.parametrize(
    ("reply", "code", "result"),
    [
        (Reply(200, ASYNC_OK, FORM), 0, "accepted"),
        (
            Reply(200, b"type=validation-error\n&error-message=bad amount\n&error-code=2\n", FORM),
            3,
            "rejected",
        ),
        (
            Reply(
                403, b"<html><title>403</title>Access denied</html>", {"Content-Type": "text/html"}
            ),
            4,
            "access-denied",
        ),
        (
            Reply(500, b"Internal error [c0ffee-42]", {"Content-Type": "text/plain"}),
            5,
            "gateway-failed",
        ),
        (DROP, 7, "unknown"),
    ],
)
def test_send_exit_status_tells_outcomes_apart(
    reply: Reply, code: int, result: str, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(lambda r: reply) as server:
        assert main(_send(server.url, key_file)) == code
    out = json.loads(capsys.readouterr().out)
    assert out["result"] == result
    assert {"http_status", "kind", "type", "status", "fields", "raw"} <= set(out)
    assert "4444444444444448" not in json.dumps(out)


def test_send_to_a_closed_port_is_not_sent(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_send(f"http://127.0.0.1:{_free_port()}", key_file)) == 6
    out = json.loads(capsys.readouterr().out)
    assert out["result"] == "not-sent"
    assert out["http_status"] is None


def test_send_refuses_invalid_input_without_contacting_anyone(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        assert main(_send(server.url, key_file, "-f", "amount=abc")) == 1
        assert server.received == []


def test_timeouts_are_passed(rsa_key: rsa.RSAPrivateKey) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM, delay=2.0)) as server:
        outcome = Client(Transport(timeouts=Timeouts(connect=1, read=0.3))).send(
            _prepare(server.url, rsa_key)
        )
    assert outcome.result is Result.UNKNOWN


def test_send_prints_long_ids_from_the_answer_in_full(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = (
        b"type=create-card-ref-response\n&status=approved\n&card-ref-id=500001\n"
        b"&recurring-payment-id=700000000001\n&serial-number=1\n"
    )
    args = [
        "send",
        "create-card-ref",
        "--login",
        "merchant",
        "--endpoint-id",
        "1001",
        "--key-file",
        str(key_file),
        "-f",
        "client_orderid=first-1",
        "-f",
        "orderid=9",
    ]
    with serve(lambda r: Reply(200, body, FORM)) as server:
        assert main([*args, "--base-url", server.url]) == 0
        assert "recurring-payment-id = 700000000001" in capsys.readouterr().out
        assert main([*args, "--base-url", server.url, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fields"]["recurring-payment-id"] == "700000000001"
    assert "700000000001" in out["raw"]


def test_every_command_line_send_is_journalled_masked(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        assert main(_send(server.url, key_file)) == 0
    capsys.readouterr()
    assert main(["history", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["client_orderid"] for r in rows] == ["payout-0001"]
    assert rows[0]["outcome"] == "accepted"
    assert rows[0]["gateway_order_id"] == "9001"
    db = resolve().history_db.read_bytes()
    assert b"4444444444444448" not in db
