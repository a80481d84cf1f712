"""The sandbox under hostile input, over raw sockets on 127.0.0.1: every request gets an
answer, a refused control call changes nothing, and the sandbox keeps serving afterwards."""

from __future__ import annotations

import base64
import dataclasses
import json
import logging
import os
import resource
import socket
import stat
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from console.sandbox import SandboxHandle, start_sandbox

_KEEP = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


@pytest.fixture
def sandbox(rsa_key: rsa.RSAPrivateKey) -> Iterator[SandboxHandle]:
    handle = start_sandbox(port=0, callback_delay=0, demo_key=rsa_key)
    yield handle
    handle.stop()


def _pct(raw: bytes) -> str:
    return "".join(chr(b) if b in _KEEP else f"%{b:02X}" for b in raw)


def _signed_raw(
    handle: SandboxHandle, key: rsa.RSAPrivateKey, pairs: list[tuple[bytes, bytes]]
) -> tuple[str, str, bytes]:
    """A payout-check signed over raw bytes (values need not be UTF-8): path, header, body."""
    url = f"{handle.base_url}/api/v4/payout-check/{handle.demo.endpoint_id}"
    oauth = {
        "oauth_consumer_key": handle.demo.login,
        "oauth_nonce": os.urandom(8).hex(),
        "oauth_signature_method": "RSA-SHA256",
        "oauth_timestamp": str(int(time.time())),
        "oauth_version": "1.0",
    }
    encoded = [(_pct(n), _pct(v)) for n, v in pairs]
    encoded += [(n, _pct(v.encode())) for n, v in oauth.items()]
    normalized = "&".join(f"{n}={v}" for n, v in sorted(encoded))
    base = "&".join(["POST", _pct(url.encode()), _pct(normalized.encode())])
    signature = key.sign(base.encode(), padding.PKCS1v15(), hashes.SHA256())
    oauth["oauth_signature"] = base64.b64encode(signature).decode()
    header = "OAuth " + ", ".join(f'{n}="{quote(v, safe="")}"' for n, v in sorted(oauth.items()))
    body = "&".join(f"{_pct(n)}={_pct(v)}" for n, v in pairs).encode()
    return urlsplit(url).path, header, body


def _address(handle: SandboxHandle) -> tuple[str, int]:
    parts = urlsplit(handle.base_url)
    assert parts.hostname is not None
    assert parts.port is not None
    return parts.hostname, parts.port


def _exchange(handle: SandboxHandle, raw: bytes, timeout: float = 10.0) -> bytes:
    """Send raw bytes, read until the server closes or goes quiet; return what came back."""
    host, port = _address(handle)
    with socket.create_connection((host, port), timeout=timeout) as conn:
        conn.sendall(raw)
        conn.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _post(path: str, body: bytes, *headers: str, host: str = "127.0.0.1") -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}", *headers]
    if not any(h.lower().startswith("content-length") for h in headers):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join([*lines, "Connection: close", "", ""])).encode() + body


def _control(handle: SandboxHandle, path: str, data: object) -> bytes:
    body = json.dumps(data).encode() if not isinstance(data, bytes) else data
    return _exchange(handle, _post(path, body, "Content-Type: application/json"))


def _still_serving(handle: SandboxHandle) -> None:
    answer = _exchange(
        handle, b"GET /_sandbox/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


def _payout_pairs(order: bytes) -> list[tuple[bytes, bytes]]:
    return [
        (b"client_orderid", order),
        (b"amount", b"10.00"),
        (b"currency", b"USD"),
        (b"account_number", b"12345678"),
    ]


def test_a_value_that_is_not_utf8_gets_validation_error_151(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    path, header, body = _signed_raw(sandbox, rsa_key, _payout_pairs(b"u8-\xc3\x28"))
    answer = _exchange(
        sandbox,
        _post(
            path,
            body,
            "Content-Type: application/x-www-form-urlencoded",
            f"Authorization: {header}",
            host=urlsplit(sandbox.base_url).netloc,  # the signed URL names host and port
        ),
    )
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    assert b"type=validation-error" in answer
    assert b"error-code=151" in answer
    _still_serving(sandbox)


@pytest.mark.parametrize("days", [3_000_000, 1e300, "nan", "inf", -1])
def test_a_refused_clock_move_changes_nothing(sandbox: SandboxHandle, days: object) -> None:
    before = json.loads(
        _exchange(
            sandbox, b"GET /_sandbox/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        ).split(b"\r\n\r\n", 1)[1]
    )
    answer = _control(sandbox, "/_sandbox/clock/advance", {"days": days})
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    after = json.loads(
        _exchange(
            sandbox, b"GET /_sandbox/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        ).split(b"\r\n\r\n", 1)[1]
    )
    assert after["offset_seconds"] == before["offset_seconds"]
    assert _control(sandbox, "/_sandbox/clock/advance", {"days": 30}).startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize("seconds", ["nan", 1e308, "inf", -5])
def test_a_callback_delay_must_be_finite_and_bounded(
    sandbox: SandboxHandle, seconds: object
) -> None:
    answer = _control(sandbox, "/_sandbox/callback-delay", {"seconds": seconds})
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert sandbox.sandbox.callback_delay == 0


def test_a_30_digit_order_id_and_deep_json_get_answers(sandbox: SandboxHandle) -> None:
    answer = _exchange(
        sandbox,
        b"GET /_sandbox/orders/" + b"9" * 30 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    deep = b"[" * 100_000 + b"]" * 100_000
    answer = _control(sandbox, "/_sandbox/clock/advance", deep)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    _still_serving(sandbox)


def test_two_content_lengths_are_refused_not_read_as_a_second_request(
    sandbox: SandboxHandle,
) -> None:
    smuggled = b"GET /_sandbox/stats HTTP/1.1\r\nHost: x\r\n\r\n"
    raw = (
        b"POST /paynet/api/v4/payout-check/1001 HTTP/1.1\r\nHost: x\r\n"
        b"Content-Length: 0\r\nContent-Length: " + str(len(smuggled)).encode() + b"\r\n\r\n"
    ) + smuggled
    answer = _exchange(sandbox, raw)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert answer.count(b"HTTP/1.1 ") == 1  # nothing after it was taken as a request
    _still_serving(sandbox)


def test_logged_values_cannot_forge_lines_and_stay_short(
    sandbox: SandboxHandle, caplog: pytest.LogCaptureFixture, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    caplog.set_level(logging.INFO, logger="console.sandbox")
    forged = "demo\n2026-01-01 INFO console.sandbox: payout approved for everyone"
    header = (
        f'OAuth oauth_consumer_key="{quote(forged, safe="")}", oauth_nonce="n", '
        'oauth_signature="x", oauth_signature_method="RSA-SHA256", '
        f'oauth_timestamp="{int(time.time())}", oauth_version="1.0"'
    )
    _exchange(
        sandbox,
        _post(
            "/paynet/api/v4/payout-check/1001",
            b"a=1",
            f"Authorization: {header}",
            "Content-Type: application/x-www-form-urlencoded",
        ),
    )
    path, header, _ = _signed_raw(sandbox, other_rsa_key, _payout_pairs(b"big-1"))
    big = b"order_desc=" + b"x" * 900_000
    _exchange(
        sandbox,
        _post(
            path, big, f"Authorization: {header}", "Content-Type: application/x-www-form-urlencoded"
        ),
    )
    messages = [r.getMessage() for r in caplog.records if r.name == "console.sandbox"]
    assert messages
    assert all("\n" not in m for m in messages)
    assert sum(len(m) for m in messages) < 50_000
    _still_serving(sandbox)


def test_the_state_file_is_readable_by_its_owner_only(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    state = tmp_path / "state.sqlite3"
    handle = start_sandbox(port=0, callback_delay=0, state_path=state)
    handle.stop()
    assert stat.S_IMODE(state.stat().st_mode) == 0o600


def test_a_refused_clock_move_leaves_a_state_file_that_loads_again(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite3"
    handle = start_sandbox(port=0, callback_delay=0, state_path=state)
    answer = _control(handle, "/_sandbox/clock/advance", {"days": 3_000_000})
    assert answer.startswith(b"HTTP/1.1 400")
    handle.stop()
    again = start_sandbox(port=0, callback_delay=0, state_path=state)  # no traceback: it loads
    _still_serving(again)
    again.stop()


def _signed_payout_bytes(handle: SandboxHandle, key: rsa.RSAPrivateKey, order: bytes) -> bytes:
    path, header, body = _signed_raw(handle, key, _payout_pairs(order))
    return _post(
        path,
        body,
        "Content-Type: application/x-www-form-urlencoded",
        f"Authorization: {header}",
        host=urlsplit(handle.base_url).netloc,
    )


def test_slow_clients_hold_no_thread_and_a_normal_request_is_answered_quickly(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    import threading

    host, port = _address(sandbox)
    slow = []
    try:
        for _ in range(300):  # each sends half a request line and then nothing
            conn = socket.create_connection((host, port), timeout=5)
            conn.sendall(b"POST /paynet/api/v4/payout-check/1001 HTT")
            slow.append(conn)
        time.sleep(0.3)
        started = time.perf_counter()
        answer = _exchange(sandbox, _signed_payout_bytes(sandbox, rsa_key, b"slow-1"))
        took = time.perf_counter() - started
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert b"type=async-response" in answer
        assert took < 2.0
        assert threading.active_count() < 60  # workers are a fixed number, not one a client
    finally:
        for conn in slow:
            conn.close()


def _limited(
    monkeypatch: pytest.MonkeyPatch, rsa_key: rsa.RSAPrivateKey, **limits: float
) -> SandboxHandle:
    """A sandbox started with smaller limits (connections, deadlines) than the real ones."""
    from console.sandbox import server

    monkeypatch.setattr(server, "LIMITS", dataclasses.replace(server.LIMITS, **limits))
    return start_sandbox(port=0, callback_delay=0, demo_key=rsa_key)


def test_a_request_that_trickles_past_its_deadline_gets_408(
    monkeypatch: pytest.MonkeyPatch, rsa_key: rsa.RSAPrivateKey
) -> None:
    with _limited(monkeypatch, rsa_key, request_deadline=1.0) as sandbox:
        host, port = _address(sandbox)
        with socket.create_connection((host, port), timeout=5) as conn:
            first = time.perf_counter()
            for byte in b"GET /_sa":  # a byte every 0.1 s: the deadline is not reset by each
                conn.sendall(bytes([byte]))
                time.sleep(0.1)
            conn.settimeout(3)
            answer = conn.recv(4096)
            took = time.perf_counter() - first
        assert took < 1.6  # counted from the first byte (a reset per byte would be >= 1.8 s)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        _still_serving(sandbox)


def test_past_the_connection_cap_a_client_gets_503(
    monkeypatch: pytest.MonkeyPatch, rsa_key: rsa.RSAPrivateKey
) -> None:
    with _limited(monkeypatch, rsa_key, max_connections=5) as sandbox:
        host, port = _address(sandbox)
        held = [socket.create_connection((host, port), timeout=5) for _ in range(5)]
        try:
            for conn in held:  # each in the middle of a request: none is idle
                conn.sendall(b"GET /_sandbox/clock HTTP/1.1\r\nHost: x\r\n")
            time.sleep(0.3)
            with socket.create_connection((host, port), timeout=5) as extra:
                extra.settimeout(3)
                assert extra.recv(4096).startswith(b"HTTP/1.1 503")
        finally:
            for conn in held:
                conn.close()
        time.sleep(0.3)
        _still_serving(sandbox)


def test_at_the_connection_cap_the_longest_idle_connection_makes_room(
    monkeypatch: pytest.MonkeyPatch, rsa_key: rsa.RSAPrivateKey
) -> None:
    with _limited(monkeypatch, rsa_key, max_connections=5) as sandbox:
        host, port = _address(sandbox)
        held = []
        try:
            for _ in range(5):  # connected, then silent
                held.append(socket.create_connection((host, port), timeout=5))
                time.sleep(0.05)
            time.sleep(0.2)
            _still_serving(sandbox)  # answered, not 503
            held[0].settimeout(3)
            assert held[0].recv(1) == b""  # the oldest idle one was closed for it
        finally:
            for conn in held:
                conn.close()


def _one_answer_only(raw: bytes, sandbox: SandboxHandle) -> bytes:
    answer = _exchange(sandbox, raw)
    assert answer.count(b"HTTP/1.1 ") == 1, answer  # nothing after it was taken as a request
    assert b'"requests"' not in answer  # the smuggled GET /_sandbox/stats never ran
    _still_serving(sandbox)
    return answer


_SMUGGLED = b"GET /_sandbox/stats HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"


def test_a_chunked_body_after_its_411_never_runs_as_a_second_request(
    sandbox: SandboxHandle,
) -> None:
    chunk = b"%x\r\n" % len(_SMUGGLED) + _SMUGGLED + b"\r\n0\r\n\r\n"
    head = b"POST /paynet/api/v4/payout-check/1001 HTTP/1.1\r\nHost: x\r\n"
    answer = _one_answer_only(head + b"Transfer-Encoding: chunked\r\n\r\n" + chunk, sandbox)
    assert answer.startswith(b"HTTP/1.1 411"), answer[:200]
    assert b"connection: close" in answer.lower()  # and the connection was closed
    # the same body sent without the chunk framing is no second request either
    _one_answer_only(head + b"Transfer-Encoding: chunked\r\n\r\n" + _SMUGGLED, sandbox)


def test_a_bare_cr_cannot_hide_a_content_length(sandbox: SandboxHandle) -> None:
    raw = (
        b"POST /paynet/api/v4/payout-check/1001 HTTP/1.1\r\nHost: x\r\n"
        b"X-Note: a\rContent-Length: " + str(len(_SMUGGLED)).encode() + b"\r\n\r\n" + _SMUGGLED
    )
    answer = _one_answer_only(raw, sandbox)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"CRLF" in answer  # says what was wrong


def test_4096_idle_sockets_do_not_keep_a_signed_request_waiting(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    # 4,096 connections here and as many in the sandbox (this process): raise the soft limit
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 9000 <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 9000:
        pytest.skip("this test needs 9,000 open files (ulimit -n)")
    host, port = _address(sandbox)
    idle = []
    try:
        for _ in range(4096):  # connected, never a byte sent
            idle.append(socket.create_connection((host, port), timeout=10))
        time.sleep(1.0)  # the sandbox has taken them all
        request = _signed_payout_bytes(sandbox, rsa_key, b"idle-4096")
        started = time.perf_counter()
        answer = _exchange(sandbox, request, timeout=5)
        took = time.perf_counter() - started
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert b"type=async-response" in answer
        assert took < 1.0
    finally:
        for conn in idle:
            conn.close()


def _hang_up(conn: socket.socket) -> None:
    """Close at once with a reset (linger 0), as a killed client does."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def test_a_client_that_hangs_up_is_one_quiet_log_line_without_a_traceback(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="console.sandbox")
    sandbox.set_faults("latency=0.3")  # the answer is written after the client has gone
    host, port = _address(sandbox)
    conn = socket.create_connection((host, port), timeout=5)
    conn.sendall(_signed_payout_bytes(sandbox, rsa_key, b"gone-1"))
    time.sleep(0.1)
    _hang_up(conn)
    conn = socket.create_connection((host, port), timeout=5)  # and one mid-request
    conn.sendall(b"POST /paynet/api/v4/payout-check/1001 HTTP/1.1\r\nContent-Length: 99\r\n\r\na=")
    time.sleep(0.1)
    _hang_up(conn)
    time.sleep(0.8)
    sandbox.set_faults(None)
    _still_serving(sandbox)

    records = [r for r in caplog.records if r.name == "console.sandbox"]
    assert [r for r in records if r.exc_info or r.levelno >= logging.WARNING] == []
    gone = sorted(r.getMessage() for r in records if "hung up" in r.getMessage())
    assert len(gone) == 2, [r.getMessage() for r in records]
    assert "before the answer was written" in gone[0]
    assert "in the middle of its request" in gone[1]
