"""Sending over real loopback sockets: answers, timeouts, refusals, drops, and no retries."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from console.core.errors import NetworkError, NotSentError, OutcomeUnknownError
from console.core.responses import Kind, decode
from console.core.transport import (
    RawResponse,
    Timeouts,
    Transport,
)
from tests.helpers.http_server import DROP, RESET, Handler, Reply, serve

FORM = {"Content-Type": "application/x-www-form-urlencoded", "Authorization": "OAuth x"}
BODY = b"client_orderid=A1&amount=10.50"
ANSWER = b"type=async-response\n&merchant-order-id=A1\n&gateway-order-id=7\n"
FAST = Timeouts(connect=2.0, read=2.0)


@pytest.fixture(autouse=True)
def _no_proxy_or_ca_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)
    monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)


@pytest.fixture
def transport() -> Iterator[Transport]:
    with Transport(timeouts=FAST) as t:
        yield t


def answer(reply: Reply) -> Handler:
    """A handler that gives the same reply to every request."""
    return lambda _request: reply


def free_port() -> int:
    """A port nobody listens on: bind one, then let it go."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- answers ------------------------------------------------------------------------------


def test_an_answer_comes_back_whole_and_the_request_arrives_intact(transport: Transport) -> None:
    reply = Reply(200, ANSWER, {"Content-Type": "text/html;charset=utf-8"})
    with serve(answer(reply)) as server:
        raw = transport.post(server.url + "/paynet/api/v4/payout-check/1", headers=FORM, body=BODY)
    assert isinstance(raw, RawResponse)
    assert raw.status == 200
    assert raw.body == ANSWER
    assert raw.headers["Content-Type"] == "text/html;charset=utf-8"
    assert 0 < raw.elapsed < FAST.read
    [got] = server.received
    assert (got.method, got.path, got.body) == ("POST", "/paynet/api/v4/payout-check/1", BODY)
    assert got.headers["Authorization"] == "OAuth x"
    assert decode(raw.status, raw.headers, raw.body).kind is Kind.SUCCESS


@pytest.mark.parametrize(
    ("reply", "kind", "error_id"),
    [
        (Reply(403, b"<html><title>403</title>Access denied</html>"), Kind.ACCESS_DENIED, None),
        (Reply(500, b"Internal error [e-77]"), Kind.SERVER_ERROR, "e-77"),
        (Reply(200, b"type=async-response\n&serial-nu"), Kind.MALFORMED, None),
        (Reply(200, b"\x89PNG\r\n\x1a\n\x00\x00"), Kind.MALFORMED, None),
    ],
)
def test_error_pages_and_garbage_are_answers_not_failures(
    transport: Transport, reply: Reply, kind: Kind, error_id: str | None
) -> None:
    with serve(answer(reply)) as server:
        raw = transport.post(server.url + "/x", headers=FORM, body=BODY)
    decoded = decode(raw.status, raw.headers, raw.body)
    assert decoded.kind is kind
    assert decoded.error_id == error_id
    assert decoded.raw == reply.body


def test_redirects_are_not_followed(transport: Transport) -> None:
    with serve(answer(Reply(307, headers={"Location": "/elsewhere"}))) as server:
        raw = transport.post(server.url + "/x", headers=FORM, body=BODY)
    assert raw.status == 307
    assert len(server.received) == 1  # a followed 307 would POST the body a second time


# --- outcome unknown ----------------------------------------------------------------------


def test_read_timeout_means_outcome_unknown() -> None:
    with (
        Transport(timeouts=Timeouts(connect=2.0, read=0.3)) as transport,
        serve(answer(Reply(200, ANSWER, delay=5.0))) as server,
        pytest.raises(OutcomeUnknownError) as caught,
    ):
        transport.post(server.url + "/x", headers=FORM, body=BODY)
    assert "did not answer within 0.3 s" in caught.value.message
    assert "check the order status" in caught.value.message
    assert "same client_orderid" in caught.value.message
    assert caught.value.url == server.url + "/x"
    assert len(server.received) == 1


@pytest.mark.parametrize(
    ("reply", "words"),
    [(DROP, "hung up without answering"), (RESET, "connection was reset")],
    ids=["closed", "reset"],
)
def test_connection_lost_after_sending_means_outcome_unknown_and_is_not_retried(
    transport: Transport, reply: Reply, words: str
) -> None:
    with serve(answer(reply)) as server, pytest.raises(OutcomeUnknownError) as caught:
        transport.post(server.url + "/x", headers=FORM, body=BODY)
    assert "broke after the request was sent" in caught.value.message
    assert words in caught.value.message
    assert len(server.received) == 1
    assert server.received[0].body == BODY


def test_a_session_with_retries_is_made_safe() -> None:
    session = requests.Session()
    # a session set up to retry every method, POST included
    session.mount("http://", HTTPAdapter(max_retries=Retry(total=3, allowed_methods=None)))
    with (
        Transport(timeouts=FAST, session=session) as transport,
        serve(answer(DROP)) as server,
        pytest.raises(OutcomeUnknownError),
    ):
        transport.post(server.url + "/x", headers=FORM, body=BODY)
    assert len(server.received) == 1


@pytest.mark.parametrize(
    "raw",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\ntype=async-resp",  # body cut short
        b"this is not HTTP at all\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nbroken",
    ],
    ids=["short-body", "not-http", "bad-chunks"],
)
def test_an_answer_broken_on_the_wire_means_outcome_unknown(
    transport: Transport, raw: bytes
) -> None:
    with serve(answer(Reply(raw=raw))) as server, pytest.raises(OutcomeUnknownError) as caught:
        transport.post(server.url + "/x", headers=FORM, body=BODY)
    assert "check the order status" in caught.value.message
    assert len(server.received) == 1


# --- not sent -----------------------------------------------------------------------------


def test_connection_refused_means_not_sent(transport: Transport) -> None:
    port = free_port()
    with pytest.raises(NotSentError) as caught:
        transport.post(f"http://127.0.0.1:{port}/x", headers=FORM, body=BODY)
    message = caught.value.message
    assert message.startswith("The request did not reach the gateway")
    assert f"connection refused at 127.0.0.1:{port}" in message
    assert message.endswith("Nothing was sent; it is safe to send again.")


def test_unknown_host_means_not_sent(transport: Transport) -> None:
    with pytest.raises(NotSentError) as caught:
        transport.post("http://gateway.invalid/paynet/x", headers=FORM, body=BODY)
    assert "gateway.invalid could not be found" in caught.value.message


@pytest.mark.parametrize("url", ["gateway.example/paynet", "ftp://gateway.example/x", "http://"])
def test_invalid_url_means_not_sent(transport: Transport, url: str) -> None:
    with pytest.raises(NotSentError) as caught:
        transport.post(url, headers=FORM, body=BODY)
    assert "not valid" in caught.value.message
    assert "base URL" in caught.value.message


@pytest.fixture
def full_backlog() -> Iterator[int]:
    """A port whose accept queue is full, so new connections hang until the connect timeout."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = int(listener.getsockname()[1])
    fillers = []
    for _ in range(3):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        fillers.append(s)
    probe = socket.socket()
    probe.settimeout(0.3)
    try:
        probe.connect(("127.0.0.1", port))
        pytest.skip("this system accepts connections beyond a full backlog")
    except TimeoutError:
        pass
    finally:
        probe.close()
    yield port
    for s in [*fillers, listener]:
        s.close()


def test_connect_timeout_means_not_sent(full_backlog: int) -> None:
    with (
        Transport(timeouts=Timeouts(connect=0.3, read=5.0)) as transport,
        pytest.raises(NotSentError) as caught,
    ):
        transport.post(f"http://127.0.0.1:{full_backlog}/x", headers=FORM, body=BODY)
    assert f"no connection to 127.0.0.1:{full_backlog} within 0.3 s" in caught.value.message
    assert "safe to send again" in caught.value.message


def test_header_that_cannot_be_sent_means_not_sent(transport: Transport) -> None:
    with serve(answer(Reply(200, ANSWER))) as server, pytest.raises(NotSentError):
        transport.post(server.url + "/x", headers={"Authorization": "bad\nvalue"}, body=BODY)
    assert server.received == []


# --- the session as configured ------------------------------------------------------------


def test_timeouts_and_verification_are_always_passed(tmp_path: Path) -> None:
    seen: dict[str, object] = {}
    bundle = tmp_path / "ca.pem"
    bundle.write_text("-----BEGIN CERTIFICATE-----\n")

    class Recording(HTTPAdapter):
        def send(self, request, **kwargs):  # type: ignore[no-untyped-def]
            seen.update(kwargs)
            raise requests.exceptions.ConnectTimeout("recorded")

    session = requests.Session()
    session.mount("https://gw.example/", Recording())  # more specific than https://
    transport = Transport(timeouts=Timeouts(3.0, 45.0), verify=str(bundle), session=session)
    with pytest.raises(NotSentError):
        transport.post("https://gw.example/x", headers=FORM, body=BODY)
    assert seen["timeout"] == (3.0, 45.0)
    assert seen["verify"] == str(bundle)


def test_proxy_from_the_environment_is_used(
    transport: Transport, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(answer(Reply(200, ANSWER))) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        raw = transport.post("http://gateway.invalid/paynet/x", headers=FORM, body=BODY)
    assert raw.body == ANSWER
    [got] = proxy.received
    assert got.path == "http://gateway.invalid/paynet/x"  # absolute form: a proxy request


def test_missing_ca_bundle_file_means_not_sent(tmp_path: Path) -> None:
    missing = f"{tmp_path}/nope.pem"
    with pytest.raises(NotSentError) as caught:
        Transport(verify=missing).post("https://gw.example/x", headers=FORM, body=BODY)
    assert missing in caught.value.message
    assert "CA bundle" in caught.value.message


def test_every_failure_is_a_transport_error_with_a_message() -> None:
    assert issubclass(NotSentError, NetworkError)
    assert issubclass(OutcomeUnknownError, NetworkError)
    error = NotSentError("words", "http://x")
    assert str(error) == "words"


PROXY_VARIABLES = ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "HTTPS_PROXY")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_request_to_this_computer_never_goes_through_a_proxy(
    transport: Transport, monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    card = b"credit_card_number=4444444444444448&cvv2=123"
    with (
        serve(answer(Reply(502, b"proxy"))) as proxy,
        serve(answer(Reply(200, ANSWER))) as gateway,
    ):
        for name in PROXY_VARIABLES:
            monkeypatch.setenv(name, proxy.url)
        url = f"http://{host}:{gateway.port}/paynet/x"
        raw = transport.post(url, headers=FORM, body=card)
    assert raw.body == ANSWER  # the local server answered, directly
    assert proxy.received == []  # the proxy saw nothing, card data least of all
    assert [r.body for r in gateway.received] == [card]


def test_a_proxy_set_on_the_session_is_not_used_for_this_computer_either() -> None:
    session = requests.Session()
    with (
        serve(answer(Reply(502, b"proxy"))) as proxy,
        serve(answer(Reply(200, ANSWER))) as gateway,
    ):
        session.proxies = {"http": proxy.url, "all": proxy.url}
        with Transport(timeouts=FAST, session=session) as transport:
            raw = transport.post(gateway.url + "/paynet/x", headers=FORM, body=BODY)
    assert raw.body == ANSWER
    assert proxy.received == []


def test_https_to_a_gateway_still_goes_through_the_https_proxy(
    transport: Transport, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(answer(Reply(200, ANSWER))) as proxy:  # answers CONNECT with 501: no tunnel
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        with pytest.raises(NotSentError) as caught:
            transport.post("https://gateway.invalid/paynet/x", headers=FORM, body=BODY)
    assert "proxy" in caught.value.message  # not "host name not found": the proxy was asked


def test_a_netrc_login_never_replaces_the_signature(
    transport: Transport, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    netrc = tmp_path / "netrc"
    netrc.write_text("default login alice password s3cret\n", encoding="utf-8")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    with serve(answer(Reply(200, ANSWER))) as gateway:
        transport.post(gateway.url + "/paynet/x", headers=FORM, body=BODY)
    [got] = gateway.received
    assert got.headers["Authorization"] == FORM["Authorization"]  # not Basic alice:s3cret


def test_a_login_in_the_url_never_replaces_the_signature(transport: Transport) -> None:
    with serve(answer(Reply(200, ANSWER))) as gateway:
        url = gateway.url.replace("http://", "http://alice:s3cret@") + "/paynet/x"
        transport.post(url, headers=FORM, body=BODY)
    [got] = gateway.received
    assert got.headers["Authorization"] == FORM["Authorization"]


def test_a_cookie_the_gateway_sets_is_never_sent_back(transport: Transport) -> None:
    # each request stands on its signature: nothing of one answer rides on the next request
    reply = Reply(200, ANSWER, {"Set-Cookie": "route=node-7; Path=/"})
    with serve(answer(reply)) as gateway:
        for _ in range(2):
            transport.post(gateway.url + "/paynet/x", headers=FORM, body=BODY)
    assert [r.headers.get("Cookie") for r in gateway.received] == [None, None]
