"""Callbacks: the control check, de-duplication, linking to the journal, the listener."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.callbacks import (
    CallbackListener,
    CallbackListenerError,
    CallbackRecorder,
    check_control,
    control_code,
    parse_callback,
)
from console.core.history import CallbackEvent, CheckResult, History
from console.sandbox.callbacks import control_code as sandbox_control_code
from tests.helpers.history_data import answered, prepared
from tests.helpers.slow_clients import Tricklers

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

    def check(params: list[tuple[str, str]], secret: str | None) -> CheckResult:
        return check_control(parse_callback(params), secret)

    assert check(_params(), SECRET) is CheckResult.OK
    assert check(_params(secret="guess"), SECRET) is CheckResult.MISMATCH
    assert check(_params(secret=None), SECRET) is CheckResult.MISSING
    assert check(_params(), None) is CheckResult.UNVERIFIED
    tampered = [(n, "declined" if n == "status" else v) for n, v in _params()]
    assert check(tampered, SECRET) is CheckResult.MISMATCH


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


class _SharedJournal:
    """A team journal stand-in over ``history``'s sends whose first write fails, as when the
    team database goes away (or the process dies) between the record and the status."""

    def __init__(self, history: History) -> None:
        self.history = history
        self.failures = 1

    def order_row(self, environment: str, column: str, value: str) -> Any:
        return self.history.order_row(environment, column, value)

    def set_final_status(self, *args: Any, **kwargs: Any) -> list[int]:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("the team database went away")
        return self.history.set_final_status(*args, **kwargs)


def test_a_callback_the_team_journal_did_not_take_is_not_recorded_and_its_retry_applies(
    journal: History, tmp_path: Path
) -> None:
    """Recorded here only once the shared journal took its status: the gateway, answered 500,
    calls again, and that call settles the order (it is no repeat of a recorded callback)."""
    with History(tmp_path / "own.sqlite") as own:
        recorder = CallbackRecorder(own, "sb", SECRET, journal=_SharedJournal(journal))
        with CallbackListener(recorder, "127.0.0.1", 0) as listener:
            first = requests.get(listener.url, params=_params(), timeout=5)
            assert first.status_code == 500
            assert own.recent_callbacks() == []
            assert journal.get(1).final_status is None
            again = requests.get(listener.url, params=_params(), timeout=5)
            assert again.status_code == 200
        (event,) = own.recent_callbacks()
    assert (event.check, event.duplicate_of) == (CheckResult.OK, None)
    row = journal.get(1)
    assert (row.final_status, row.final_status_source) == ("approved", "callback")


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
    forged_first = recorder.record("GET", _params("declined", secret="x"))
    later = recorder.record("GET", _params("declined"))  # notify_url: a later update
    assert later.duplicate_of is None  # the forged one does not count as the first
    assert forged_first.check is CheckResult.MISMATCH
    assert later.updated == (1,)
    assert journal.get(1).final_status == "declined"


def test_callbacks_are_per_environment(journal: History) -> None:
    event = CallbackRecorder(journal, "other", SECRET).record("GET", _params())
    assert event.check is CheckResult.OK
    assert event.request_id is None
    assert journal.get(1).final_status is None


def test_without_client_orderid_it_is_shown_beside_its_row_but_not_applied(
    journal: History,
) -> None:
    params = [
        (n, v) for n, v in _params(secret=None) if n not in ("client_orderid", "merchant_order")
    ]
    params.append(("control", control_code("approved", "777", "", SECRET)))
    event = CallbackRecorder(journal, "sb", SECRET).record("GET", params)
    assert event.check is CheckResult.INCOMPLETE
    assert event.request_id == 1
    assert journal.get(1).final_status is None


def test_listener_takes_get_and_post_and_tells_subscribers(journal: History) -> None:
    recorder = CallbackRecorder(journal, "sb", SECRET)
    heard: list[CallbackEvent] = []
    recorder.subscribe(heard.append)
    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        got = requests.get(listener.url, params=_params(), timeout=5)
        posted = requests.post(listener.url, data=_params("declined"), timeout=5)
        big = requests.post(listener.url, data=b"x" * (300 * 1024), timeout=5)
    assert (got.status_code, got.text) == (200, "OK\n")
    assert posted.status_code == 200
    assert big.status_code == 413
    assert [(e.method, e.status, e.check) for e in heard] == [
        ("GET", "approved", CheckResult.OK),
        ("POST", "declined", CheckResult.OK),
    ]
    assert journal.get(1).final_status == "declined"
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


# -- a sniffed callback must not set another order's status -----------------------------------


@pytest.fixture
def two_orders(rsa_key: rsa.RSAPrivateKey) -> History:
    """genuine-1 (gateway order 10000001) and victim-1 (gateway order 10000002), and "123"
    (gateway order 555), accepted in sb."""
    history = History()
    hooks = history.journal("sb")
    for order, gateway in (("genuine-1", "10000001"), ("victim-1", "10000002"), ("123", "555")):
        req = prepared(rsa_key, client_orderid=order)
        hooks.after_answer(
            hooks.before_send(req), answered(req, f"type=async-response&gateway-order-id={gateway}")
        )
    return history


def _signed(orderid: str, client_orderid: str, status: str = "approved") -> list[tuple[str, str]]:
    """A callback with a genuine control over the three fields as given."""
    return [
        ("status", status),
        ("orderid", orderid),
        ("client_orderid", client_orderid),
        ("control", control_code(status, orderid, client_orderid, SECRET)),
    ]


def _final(history: History, client_orderid: str) -> str | None:
    return next(r.final_status for r in history.fetch() if r.client_orderid == client_orderid)


def test_moving_characters_between_fields_with_a_repeated_parameter_is_refused(
    two_orders: History,
) -> None:
    genuine = control_code("approved", "10000001", "genuine-1", SECRET)
    forged = [
        ("status", "approved"),
        ("orderid", "10000001genuine-1"),
        ("client_orderid", "victim-1"),
        ("client_orderid", ""),
        ("control", genuine),
    ]
    recorder = CallbackRecorder(two_orders, "sb", SECRET)
    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        answer = requests.get(listener.url, params=forged, timeout=5)
    assert answer.status_code == 200  # recorded, so that the person sees it
    assert _final(two_orders, "victim-1") is None
    [event] = two_orders.recent_callbacks()
    assert event.check is CheckResult.MALFORMED
    assert event.updated == ()


def test_a_repeated_parameter_across_query_and_body_is_refused(two_orders: History) -> None:
    genuine = control_code("approved", "10000002", "victim-1", SECRET)
    recorder = CallbackRecorder(two_orders, "sb", SECRET)
    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        requests.post(
            listener.url + "?status=declined",
            data=[
                ("status", "approved"),
                ("orderid", "10000002"),
                ("client_orderid", "victim-1"),
                ("control", genuine),
            ],
            timeout=5,
        )
    assert two_orders.recent_callbacks()[0].check is CheckResult.MALFORMED
    assert _final(two_orders, "victim-1") is None


def test_an_orderid_that_is_not_digits_is_refused(two_orders: History) -> None:
    params = [
        ("status", "approved"),
        ("orderid", "10000001genuine-1"),
        ("client_orderid", ""),
        ("control", control_code("approved", "10000001", "genuine-1", SECRET)),
    ]
    event = CallbackRecorder(two_orders, "sb", SECRET).record("GET", params)
    assert event.check is CheckResult.MALFORMED
    assert all(r.final_status is None for r in two_orders.fetch())


def test_ids_of_two_different_requests_are_flagged_and_not_applied(two_orders: History) -> None:
    # digits moved from orderid into client_orderid: "approved" "1000000" "123" + secret
    # has the same control as a genuine callback for another order, yet names row "123"
    params = _signed("10000002", "123")
    event = CallbackRecorder(two_orders, "sb", SECRET).record("GET", params)
    assert event.check is CheckResult.UNMATCHED
    assert event.updated == ()
    assert all(r.final_status is None for r in two_orders.fetch())
    shifted = _signed("1000000", "123")
    assert CallbackRecorder(two_orders, "sb", SECRET).record("GET", shifted).check is (
        CheckResult.UNMATCHED
    )
    assert _final(two_orders, "123") is None


def test_a_callback_for_an_order_whose_answer_never_came_still_applies(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    history = History()
    hooks = history.journal("sb")
    req = prepared(rsa_key, client_orderid="lost-1")
    hooks.before_send(req)  # no answer: no gateway order id in the journal
    params = _signed("42", "lost-1")
    event = CallbackRecorder(history, "sb", SECRET).record("GET", params)
    assert event.check is CheckResult.OK
    assert history.get(1).final_status == "approved"
    assert history.get(1).gateway_order_id == "42"


# -- without a merchant control secret nothing changes -----------------------------------------


def test_without_a_secret_callbacks_are_unverified_and_change_nothing(journal: History) -> None:
    recorder = CallbackRecorder(journal, "sb", None)
    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        answer = requests.get(listener.url, params=_params("declined", secret=None), timeout=5)
    assert answer.status_code == 200
    [event] = journal.recent_callbacks()
    assert event.check is CheckResult.UNVERIFIED
    assert event.request_id == 1  # shown beside its request
    assert journal.get(1).final_status is None


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.10", "::", "gateway-console.example"])
def test_a_listener_beyond_loopback_without_a_secret_is_refused(host: str) -> None:
    listener = CallbackListener(CallbackRecorder(History(), "sb", None), host, 0)
    with pytest.raises(CallbackListenerError, match="without the merchant control secret"):
        listener.start()
    assert not listener.running


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_loopback_listener_without_a_secret_starts(host: str) -> None:
    with CallbackListener(CallbackRecorder(History(), "sb", None), host, 0) as listener:
        assert listener.running


def test_slow_connections_never_keep_a_genuine_callback_out(journal: History) -> None:
    from console.core.callbacks import MAX_CONNECTIONS

    recorder = CallbackRecorder(journal, "sb", SECRET)
    with (
        CallbackListener(recorder, "127.0.0.1", 0) as listener,
        Tricklers(listener.port, MAX_CONNECTIONS),
    ):
        time.sleep(0.5)  # every slot holds a request still arriving
        started = time.perf_counter()
        answered = 0
        for _ in range(20):
            try:
                got = requests.get(listener.url, params=_params(), timeout=2)
            except requests.ConnectionError:
                continue
            answered += got.status_code == 200
        took = time.perf_counter() - started
    assert answered == 20
    assert took < 2.0
    assert len(journal.recent_callbacks()) == 20  # every one recorded


def test_at_the_cap_the_longest_idle_connection_makes_room_for_a_callback(
    journal: History,
) -> None:
    from console.core.callbacks import MAX_CONNECTIONS

    recorder = CallbackRecorder(journal, "sb", SECRET)
    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        idle = []
        try:
            for _ in range(MAX_CONNECTIONS):  # connected, then silent
                idle.append(socket.create_connection(("127.0.0.1", listener.port), timeout=5))
                time.sleep(0.01)
            time.sleep(0.2)
            answer = requests.get(listener.url, params=_params(), timeout=2)
            assert answer.status_code == 200
            idle[0].settimeout(3)
            assert idle[0].recv(1) == b""  # the oldest idle one was closed for it
        finally:
            for conn in idle:
                conn.close()


def test_a_callback_being_recorded_is_never_closed_to_make_room(journal: History) -> None:
    from console.core.callbacks import MAX_CONNECTIONS

    recorder = CallbackRecorder(journal, "sb", SECRET)
    release = threading.Event()
    recorder.subscribe(lambda _event: release.wait(10))  # each recording takes its time
    answers: list[int] = []

    def callback() -> None:
        answers.append(requests.get(listener.url, params=_params(), timeout=15).status_code)

    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        senders = [threading.Thread(target=callback) for _ in range(MAX_CONNECTIONS)]
        for t in senders:
            t.start()
        time.sleep(1.0)  # every slot holds a whole callback being recorded
        with socket.create_connection(("127.0.0.1", listener.port), timeout=5) as extra:
            extra.sendall(b"GET /callback HTTP/1.0\r\n\r\n")
            extra.settimeout(5)
            assert extra.recv(100) == b""  # closed without an answer: the gateway retries
        release.set()
        for t in senders:
            t.join()
    assert answers == [200] * MAX_CONNECTIONS


def test_a_card_number_in_a_callbacks_free_text_is_kept_masked(journal: History) -> None:
    pan = "5555555555554444"
    full_width = pan.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    spellings = {
        "descriptor": "5555.5555.5555.4444",
        "comment": full_width,
        "error_message": "card 5555 5555 5555 4444 expired",
    }
    recorder = CallbackRecorder(journal, "sb", SECRET)
    with CallbackListener(recorder, "127.0.0.1", 0) as listener:
        got = requests.post(listener.url, data=_params(**spellings), timeout=5)
    assert got.status_code == 200
    [event] = journal.recent_callbacks()
    shown = dict(event.params)
    assert shown["descriptor"] == shown["comment"] == "555555******4444"
    assert shown["client_orderid"] == "po-1"  # ids stay readable
    raw = b"".join(
        p.read_bytes() for p in (journal.path, journal.path.with_name(journal.path.name + "-wal"))
        if p.exists()
    )  # fmt: skip
    for spelling in (pan, *spellings.values(), json.dumps(full_width).strip('"')):
        assert spelling.encode() not in raw
