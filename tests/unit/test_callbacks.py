"""Callbacks: the control check, de-duplication, linking to the journal, the listener."""

from __future__ import annotations

import socket

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.callbacks import (
    CallbackEvent,
    CallbackListener,
    CallbackListenerError,
    CallbackRecorder,
    CheckResult,
    check_control,
    control_code,
)
from console.core.history import History
from console.sandbox.callbacks import control_code as sandbox_control_code
from tests.helpers.history_data import answered, prepared

SECRET = "merchant-control-secret"


def _params(
    status: str = "approved", secret: str | None = SECRET, **extra: str
) -> list[tuple[str, str]]:
    params = [
        ("status", status),
        ("orderid", "777"),
        ("merchant_order", "po-1"),
        ("client_orderid", "po-1"),
        ("amount", "10.50"),
        ("type", "payout"),
        *extra.items(),
    ]
    if secret:
        params.append(("control", control_code(status, "777", "po-1", secret)))
    return params


@pytest.fixture
def journal(rsa_key: rsa.RSAPrivateKey) -> History:
    """A journal with one accepted payout (po-1, gateway order 777) in environment sb."""
    history = History()
    hooks = history.journal("sb")
    req = prepared(rsa_key, client_orderid="po-1")
    hooks.after_answer(
        hooks.before_send(req), answered(req, "type=async-response&gateway-order-id=777")
    )
    return history


def test_control_is_the_gateways_sha1() -> None:
    # the sandbox computes it with its own code: the two must agree
    assert control_code("approved", "777", "po-1", SECRET) == sandbox_control_code(
        "approved", "777", "po-1", SECRET
    )
    assert check_control(_params(), SECRET) is CheckResult.OK
    assert check_control(_params(secret="guess"), SECRET) is CheckResult.MISMATCH
    assert check_control(_params(secret=None), SECRET) is CheckResult.MISSING
    assert check_control(_params(), None) is CheckResult.NOT_CHECKED
    tampered = [(n, "declined" if n == "status" else v) for n, v in _params()]
    assert check_control(tampered, SECRET) is CheckResult.MISMATCH


def test_a_trusted_callback_sets_the_final_status(journal: History) -> None:
    event = CallbackRecorder(journal, "sb", SECRET).record("GET", _params(), "127.0.0.1")
    assert event.check is CheckResult.OK
    assert event.request_id == 1
    assert event.updated == (1,)
    row = journal.get(1)
    assert (row.final_status, row.final_status_source) == ("approved", "callback")
    linked = journal.details(1).callbacks
    assert [c["check"] for c in linked] == ["ok"]
    assert ("control", "***") in [tuple(p) for p in linked[0]["params"]]


def test_a_mismatched_callback_is_recorded_but_not_trusted(journal: History) -> None:
    recorder = CallbackRecorder(journal, "sb", SECRET)
    forged = recorder.record("GET", _params("declined", secret="guess"))
    assert forged.check is CheckResult.MISMATCH
    assert forged.updated == ()
    assert journal.get(1).final_status is None
    unsigned = recorder.record("GET", _params("declined", secret=None))
    assert unsigned.check is CheckResult.MISSING
    assert journal.get(1).final_status is None
    assert len(journal.details(1).callbacks) == 2


def test_repeats_are_marked_duplicates_and_later_updates_apply(journal: History) -> None:
    recorder = CallbackRecorder(journal, "sb", SECRET)
    first = recorder.record("GET", _params())
    again = recorder.record("GET", _params())
    assert again.duplicate_of == first.id
    assert again.updated == ()
    forged_first = recorder.record("GET", _params("chargeback", secret="x"))
    later = recorder.record("GET", _params("chargeback"))  # notify_url: a later update
    assert later.duplicate_of is None  # the forged one does not count as the first
    assert forged_first.check is CheckResult.MISMATCH
    assert later.updated == (1,)
    assert journal.get(1).final_status == "chargeback"


def test_callbacks_are_per_environment(journal: History) -> None:
    event = CallbackRecorder(journal, "other", None).record("GET", _params(secret=None))
    assert event.check is CheckResult.NOT_CHECKED
    assert event.request_id is None
    assert journal.get(1).final_status is None


def test_links_by_gateway_order_id_alone(journal: History) -> None:
    params = [
        (n, v) for n, v in _params(secret=None) if n not in ("client_orderid", "merchant_order")
    ]
    event = CallbackRecorder(journal, "sb", None).record("GET", params)
    assert event.request_id == 1
    assert journal.get(1).final_status == "approved"


def test_listener_takes_get_and_post_and_tells_subscribers(journal: History) -> None:
    recorder = CallbackRecorder(journal, "sb", SECRET)
    heard: list[CallbackEvent] = []
    recorder.subscribe(heard.append)
    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        got = requests.get(listener.url, params=_params(), timeout=5)
        posted = requests.post(listener.url, data=_params("chargeback"), timeout=5)
        big = requests.post(listener.url, data=b"x" * (300 * 1024), timeout=5)
    assert (got.status_code, got.text) == (200, "OK\n")
    assert posted.status_code == 200
    assert big.status_code == 413
    assert [(e.method, e.status, e.check) for e in heard] == [
        ("GET", "approved", CheckResult.OK),
        ("POST", "chargeback", CheckResult.OK),
    ]
    assert journal.get(1).final_status == "chargeback"
    assert not listener.running


def test_a_busy_port_is_explained() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(CallbackListenerError, match="Choose another port"):
            CallbackListener(CallbackRecorder(History(), "sb", None), "127.0.0.1", port).start()


def test_a_callback_that_cannot_be_recorded_asks_the_gateway_to_retry(journal: History) -> None:
    recorder = CallbackRecorder(journal, "sb", None)
    with CallbackListener(recorder) as listener:
        journal.close()  # the database went away
        answer = requests.get(listener.url, params=_params(secret=None), timeout=5)
    assert answer.status_code == 500


def test_listener_for_the_local_sandbox_takes_any_free_port() -> None:
    from console.core.environments import local_sandbox

    history = History()
    listener = CallbackListener.for_environment(local_sandbox(), history, None)
    with listener:
        assert listener.port > 0
        assert requests.get(listener.url, params=_params(secret=None), timeout=5).status_code == 200
    assert listener.recorder.environment == "local-sandbox"


@pytest.mark.parametrize("length", ["abc", "-5"])
def test_a_bad_content_length_is_answered_400_at_once(journal: History, length: str) -> None:
    recorder = CallbackRecorder(journal, "sb", SECRET)
    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        host, port = listener.url.split("//", 1)[1].split("/", 1)[0].split(":")
        with socket.create_connection((host, int(port)), timeout=5) as conn:
            conn.sendall(
                f"POST /callback HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode()
            )
            answer = conn.recv(200)
    assert answer.startswith(b"HTTP/1.0 400") or answer.startswith(b"HTTP/1.1 400")
