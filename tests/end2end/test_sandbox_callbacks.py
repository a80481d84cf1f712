"""Callbacks reach a real listening HTTP server: when, with what, and retried when refused."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.sandbox import SandboxHandle
from tests.helpers.http_server import Received, Reply, TestServer, serve
from tests.helpers.sandbox_client import (
    control,
    form_fields,
    payout_values,
    signed_post,
    start,
    wait_for,
)


def query(request: Received) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(request.path).query, keep_blank_values=True))


@pytest.fixture
def receiver() -> Iterator[TestServer]:
    with serve(lambda request: Reply(200, b"OK")) as server:
        yield server


def payout(
    sandbox: SandboxHandle, key: rsa.RSAPrivateKey, client_orderid: str, **values: str
) -> str:
    response = signed_post(
        sandbox, "payout-check", payout_values(client_orderid, **values), key=key
    )
    return form_fields(response)["gateway-order-id"]


def test_server_callback_url_hears_the_final_status_once(
    rsa_key: rsa.RSAPrivateKey, receiver: TestServer
) -> None:
    with start(rsa_key, merchant_control="s3cret", callback_delay=0.3) as sandbox:
        orderid = payout(
            sandbox,
            rsa_key,
            "cb-1",
            cvv2="209",
            merchant_data="m&d=1",
            server_callback_url=receiver.url + "/cb?shop=7",
        )
        time.sleep(0.1)
        assert receiver.received == []  # still processing
        wait_for(lambda: receiver.received)
        wait_for(sandbox.idle)
    [request] = receiver.received
    assert request.method == "GET"
    params = query(request)
    assert urlsplit(request.path).path == "/cb"
    assert params["shop"] == "7"  # the receiver's own query is kept
    assert params["status"] == "declined"
    assert params["orderid"] == orderid
    assert params["client_orderid"] == params["merchant_order"] == "cb-1"
    assert (params["amount"], params["type"]) == ("10.00", "payout")
    assert params["merchant_data"] == "m&d=1"
    assert params["error_message"] == "Declined: stolen card"
    expected = hashlib.sha1(f"declined{orderid}cb-1s3cret".encode()).hexdigest()
    assert params["control"] == expected


def test_server_callback_url_does_not_hear_later_updates(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey, receiver: TestServer
) -> None:
    orderid = payout(sandbox, rsa_key, "cb-1b", server_callback_url=receiver.url + "/cb")
    wait_for(lambda: receiver.received)
    assert control(sandbox, "POST", f"/orders/{orderid}/reversal")["callbacks"] == 0
    wait_for(sandbox.idle)
    assert [query(r)["type"] for r in receiver.received] == ["payout"]


def test_notify_url_hears_the_final_status_and_every_later_update(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey, receiver: TestServer
) -> None:
    orderid = payout(sandbox, rsa_key, "cb-2", notify_url=receiver.url + "/notify")
    wait_for(lambda: len(receiver.received) == 1)
    assert control(sandbox, "POST", f"/orders/{orderid}/reversal")["callbacks"] == 1
    wait_for(lambda: len(receiver.received) == 2)
    control(sandbox, "POST", f"/orders/{orderid}/chargeback")
    wait_for(lambda: len(receiver.received) == 3)
    kinds = [(query(r)["type"], query(r)["status"]) for r in receiver.received]
    assert kinds == [("payout", "approved"), ("reversal", "approved"), ("chargeback", "approved")]
    assert all("control" not in query(r) for r in receiver.received)  # no secret configured
    assert all("merchant_data" not in query(r) for r in receiver.received)  # none was sent


def test_no_callback_address_no_callback(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey, receiver: TestServer
) -> None:
    payout(sandbox, rsa_key, "cb-3")
    wait_for(sandbox.idle)
    assert control(sandbox, "GET", "/callbacks") == []


def _first_state(sandbox: SandboxHandle) -> str | None:
    """The state of the first callback, or None before the sandbox has recorded one."""
    callbacks = control(sandbox, "GET", "/callbacks")
    return str(callbacks[0]["state"]) if callbacks else None


def test_a_receiver_that_does_not_answer_200_is_retried_with_back_off(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    answers = iter([500, 404, 200])
    with (
        serve(lambda request: Reply(next(answers), b"")) as flaky,
        start(rsa_key, callback_backoff=0.2) as sandbox,
    ):
        payout(sandbox, rsa_key, "cb-4", server_callback_url=flaky.url + "/cb")
        wait_for(lambda: len(flaky.received) == 3)
        # the receiver records a request before answering it: wait for the sandbox's side too
        wait_for(lambda: _first_state(sandbox) not in (None, "pending"))
        [record] = control(sandbox, "GET", "/callbacks")
        assert (record["state"], record["attempts"], record["last_result"]) == (
            "delivered",
            3,
            "HTTP 200",
        )
        # every try carries the same parameters
        assert len({r.path for r in flaky.received}) == 1


def test_retries_are_bounded(rsa_key: rsa.RSAPrivateKey) -> None:
    with (
        serve(lambda request: Reply(503, b"")) as down,
        start(rsa_key, callback_attempts=3, callback_backoff=0.05) as sandbox,
    ):
        payout(sandbox, rsa_key, "cb-5", server_callback_url=down.url + "/cb")
        wait_for(lambda: _first_state(sandbox) == "failed")
        time.sleep(0.3)
        assert len(down.received) == 3


def test_a_slow_receiver_does_not_hold_up_requests(rsa_key: rsa.RSAPrivateKey) -> None:
    release = threading.Event()

    def slow(request: Received) -> Reply:
        release.wait(5)
        return Reply(200, b"")

    with serve(slow) as receiver, start(rsa_key) as sandbox:
        payout(sandbox, rsa_key, "cb-6", server_callback_url=receiver.url + "/cb")
        wait_for(lambda: receiver.received)
        started = time.monotonic()
        response = signed_post(sandbox, "status", {"client_orderid": "cb-6"}, key=rsa_key)
        assert form_fields(response)["status"] == "approved"
        assert time.monotonic() - started < 1.0
        release.set()


def test_callbacks_leave_this_machine_only_when_allowed(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    payout(sandbox, rsa_key, "cb-7", server_callback_url="http://192.0.2.10/cb")
    record = wait_for(
        lambda: [c for c in control(sandbox, "GET", "/callbacks") if c["state"] == "failed"]
    )[0]
    assert record["attempts"] == 1
    assert "--remote-callbacks" in record["last_result"]


def test_unknown_outcome_waits_for_resolution_before_calling_back(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey, receiver: TestServer
) -> None:
    orderid = payout(sandbox, rsa_key, "cb-8", cvv2="217", server_callback_url=receiver.url + "/cb")
    wait_for(sandbox.idle)
    status = form_fields(signed_post(sandbox, "status", {"client_orderid": "cb-8"}, key=rsa_key))
    assert status["status"] == "unknown"
    assert receiver.received == []
    control(sandbox, "POST", f"/orders/{orderid}/resolve", {"status": "approved"})
    wait_for(lambda: receiver.received)
    assert query(receiver.received[0])["status"] == "approved"
