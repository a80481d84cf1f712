"""The sandbox on the wire: paths, methods, answer format and headers, control paths."""

from __future__ import annotations

import http.client
import re
import time

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.signing import sign
from console.sandbox import SandboxHandle
from tests.helpers.sandbox_client import (
    ControlRefusedError,
    control,
    form_fields,
    payout_values,
    public_pem_of,
    signed_post,
    start,
    url_for,
)


def test_answers_carry_the_contract_headers_and_format(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    response = signed_post(sandbox, "payout-check", payout_values("h-1"), key=rsa_key)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/html;charset=utf-8"
    assert response.headers["Keep-Alive"] == "timeout=60"
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    text = response.content.decode("utf-8")
    assert text.endswith("\n")
    assert all(item.endswith("\n") for item in text.split("&"))
    assert form_fields(response)["type"] == "async-response"


def test_every_answer_has_its_own_serial_number(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    answers = [
        signed_post(sandbox, "payout-check", payout_values("sn-1"), key=rsa_key),
        signed_post(sandbox, "payout-check", payout_values("sn-1"), key=rsa_key),  # error
        signed_post(sandbox, "status", {"orderid": "1"}, key=rsa_key),  # validation-error
        signed_post(sandbox, "status", {"client_orderid": "sn-1"}, key=rsa_key),
    ]
    kinds = [form_fields(a)["type"] for a in answers]
    assert kinds == ["async-response", "error", "validation-error", "status-response"]
    serials = [form_fields(a)["serial-number"] for a in answers]
    assert len(set(serials)) == 4
    assert all(re.fullmatch(r"[0-9a-f-]{36}", s) for s in serials)


def test_access_denied_page(sandbox: SandboxHandle, other_rsa_key: rsa.RSAPrivateKey) -> None:
    response = signed_post(sandbox, "status", {"client_orderid": "x"}, key=other_rsa_key)
    assert response.status_code == 403
    assert response.headers["Content-Type"] == "text/html"
    assert "<title>403</title>" in response.text
    assert "Access denied" in response.text


def test_injected_500_has_a_plain_text_body_with_a_bracketed_id(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    sandbox.set_faults("500")
    ids = set()
    for _ in range(2):
        response = signed_post(sandbox, "status", {"client_orderid": "x"}, key=rsa_key)
        assert response.status_code == 500
        assert response.headers["Content-Type"].startswith("text/plain")
        match = re.fullmatch(r"Internal error[^\[]*\[([0-9a-f]{32})\]\n", response.text)
        assert match is not None, response.text
        ids.add(match.group(1))
    assert len(ids) == 2


@pytest.mark.parametrize(
    "path",
    [
        "/paynet/api/v4/sale/1001",
        "/paynet/api/v4/payout-check",
        "/paynet/api/v4/create-recurring-payment/group/2001",
        "/api/v4/payout-check/1001",
        "/paynet/api/v5/payout-check/1001",
    ],
)
def test_unknown_paths_are_404(sandbox: SandboxHandle, path: str) -> None:
    response = requests.post(sandbox.origin + path, data=b"a=1", timeout=10)
    assert response.status_code == 404
    assert "/paynet/api/v4/<command>/<endpoint_id>" in response.text


def test_other_methods_are_405(sandbox: SandboxHandle) -> None:
    response = requests.get(url_for(sandbox, "payout-check"), timeout=10)
    assert response.status_code == 405
    assert response.headers["Allow"] == "POST"
    assert "POST only" in response.text


def test_non_form_bodies_are_refused(sandbox: SandboxHandle) -> None:
    response = requests.post(url_for(sandbox, "status"), json={"client_orderid": "x"}, timeout=10)
    assert response.status_code == 415
    assert "application/x-www-form-urlencoded" in response.text


def test_oversized_body_is_refused(sandbox: SandboxHandle) -> None:
    response = requests.post(url_for(sandbox, "status"), data=b"a=" + b"x" * 1_100_000, timeout=10)
    assert response.status_code == 413


def test_keep_alive_serves_many_requests_on_one_connection(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    host, port = sandbox.origin.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        sockets = []
        for n in range(5):
            signed = sign(
                url_for(sandbox, "status"),
                [("client_orderid", f"k-{n}")],
                consumer_key="demo",
                private_key=rsa_key,
            )
            conn.request("POST", signed.url, body=signed.body, headers=signed.headers)
            response = conn.getresponse()
            assert response.status == 200
            assert b"type=error" in response.read()
            sockets.append(conn.sock)
        assert sockets[0] is not None
        assert all(s is sockets[0] for s in sockets)  # never reconnected
    finally:
        conn.close()


def test_stop_closes_kept_alive_connections(rsa_key: rsa.RSAPrivateKey) -> None:
    handle = start(rsa_key)
    host, port = handle.origin.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request("GET", "/_sandbox/clock")
        assert conn.getresponse().read()
        started = time.monotonic()
        handle.stop()  # must not wait for the idle connection's 65 s timeout
        assert time.monotonic() - started < 5
        assert conn.sock is not None
        assert conn.sock.recv(1) == b""  # the sandbox closed it
    finally:
        conn.close()


def test_control_overview_and_unknown_control_paths(sandbox: SandboxHandle) -> None:
    overview = control(sandbox, "GET", "")
    assert overview["base_url"] == sandbox.base_url
    assert [m["login"] for m in overview["merchants"]] == ["demo"]
    assert "POST /_sandbox/clock/advance" in overview["control_paths"]
    with pytest.raises(ControlRefusedError) as missing:
        control(sandbox, "GET", "/nothing")
    assert missing.value.status == 404
    with pytest.raises(ControlRefusedError) as wrong:
        control(sandbox, "DELETE", "/orders")
    assert wrong.value.status == 405


def test_control_seed_then_card_ref(sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey) -> None:
    seeded = control(
        sandbox,
        "POST",
        "/first-payments",
        {"client_orderid": "my-first", "card_number": "5555555555554444"},
    )
    assert seeded["status"] == "approved"
    assert seeded["masked_pan"] == "555555******4444"
    assert "pan_token" not in seeded
    response = signed_post(
        sandbox,
        "create-card-ref",
        {"client_orderid": "my-first", "orderid": str(seeded["orderid"])},
        key=rsa_key,
    )
    assert form_fields(response)["type"] == "create-card-ref-response"
    with pytest.raises(ControlRefusedError) as bad:
        control(
            sandbox,
            "POST",
            "/first-payments",
            {"client_orderid": "x", "card_number": "4444444444444441"},
        )
    assert bad.value.status == 400
    assert "Luhn" in bad.value.message


def test_control_merchants_faults_delay_and_refused_updates(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    added = control(
        sandbox,
        "POST",
        "/merchants",
        {
            "login": "shop",
            "public_key_pem": public_pem_of(other_rsa_key),
            "endpoint_id": "4001",
            "endpoint_group_id": "5001",
        },
    )
    assert (added["endpoints"], added["groups"]) == (["4001"], ["5001"])
    with pytest.raises(ControlRefusedError) as taken:
        control(
            sandbox,
            "POST",
            "/merchants",
            {
                "login": "thief",
                "public_key_pem": public_pem_of(other_rsa_key),
                "endpoint_id": "1001",
            },
        )
    assert "belongs to login demo" in taken.value.message
    assert control(sandbox, "POST", "/faults", {"spec": "status:500"})["spec"] == "status:500"
    assert signed_post(sandbox, "status", {"client_orderid": "x"}, key=rsa_key).status_code == 500
    assert control(sandbox, "DELETE", "/faults")["spec"] == ""
    with pytest.raises(ControlRefusedError) as bad_spec:
        control(sandbox, "POST", "/faults", {"spec": "explode"})
    assert bad_spec.value.status == 400
    control(sandbox, "POST", "/callback-delay", {"seconds": 60})
    orderid = form_fields(signed_post(sandbox, "payout-check", payout_values("d-1"), key=rsa_key))[
        "gateway-order-id"
    ]
    assert control(sandbox, "GET", f"/orders/{orderid}")["status"] == "processing"
    with pytest.raises(ControlRefusedError) as early:
        control(sandbox, "POST", f"/orders/{orderid}/chargeback")
    assert "only approved orders" in early.value.message


def test_setting_faults_without_a_spec_is_refused_and_keeps_the_faults(
    sandbox: SandboxHandle,
) -> None:
    control(sandbox, "POST", "/faults", {"spec": "payout-check:500"})
    # a misspelt key (or JSON sent as a form body) must not quietly clear the faults
    with pytest.raises(ControlRefusedError) as missing:
        control(sandbox, "POST", "/faults", {"fault": "500"})
    assert missing.value.status == 400
    assert "spec" in missing.value.message
    assert control(sandbox, "GET", "/faults")["spec"] == "payout-check:500"
    assert control(sandbox, "POST", "/faults", {"spec": ""})["spec"] == ""  # explicit clear
