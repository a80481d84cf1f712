"""The sandbox beside WireMock under wrk, in the same run: signed payout-checks from 16
connections (every signature verified, every order kept) against a WireMock 3.13 static stub
of the same path; then normal requests while 4,096 idle sockets are held open.

The sandbox runs in its own process, as ``gateway-console sandbox`` does (its file limit
raised to the hard limit). Requests are signed beforehand, each with its own nonce and
client_orderid, and wrk sends each once (``signed_requests.lua``); a fresh sandbox takes each
round, so no request is ever a replay. The machine is shared: each figure is the median of
:data:`ROUNDS` rounds. Run with ``-s``.

Goals (issue 24): the sandbox's requests per second at least 0.3 of WireMock's; with 4,096
idle sockets held, every normal request answered within 1 s.
Skipped with a reason where wrk, Java or WireMock's npm package are missing.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.signing import sign
from console.core.spec import command_url
from tests.helpers.processes import sandbox_process
from tests.helpers.sandbox_client import payout_values, pem_of, signed_payouts

ROOT = Path(__file__).resolve().parents[2]
LUA = Path(__file__).with_name("signed_requests.lua")
WIREMOCK_JAR = ROOT / "tests/clients/wiremock/node_modules/wiremock/build"
ROUNDS = 3
SECONDS = 5
CONNECTIONS, THREADS = 16, 2
SIGNED = 30_000  # more than a round takes at 5,000 requests/s
GOAL_RATIO = 0.3
IDLE, PROBES = 4096, 100
# the same answer as the sandbox's, given whatever the request
STUB = """{"request": {"method": "POST", "urlPath": "/paynet/api/v4/payout-check/1001"},
 "response": {"status": 200, "headers": {"Content-Type": "text/html;charset=utf-8",
  "Keep-Alive": "timeout=60", "Strict-Transport-Security": "max-age=31536000"},
  "body": "type=async-response\\n&serial-number=00000000-0000-0000-0000-000000000000\\n\
&merchant-order-id=wrk-1\\n&paynet-order-id=10000001\\n&end-point-id=1001\\n"}}"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _jar() -> Path | None:
    found = sorted(WIREMOCK_JAR.glob("wiremock-standalone-*.jar"))
    return found[-1] if found else None


@contextlib.contextmanager
def _wiremock(root: Path) -> Iterator[str]:
    jar = _jar()
    assert jar is not None
    (root / "mappings").mkdir(parents=True, exist_ok=True)
    (root / "mappings" / "payout.json").write_text(STUB)
    port = _free_port()
    command = ["java", "-jar", str(jar), "--port", str(port), "--root-dir", str(root)]
    proc = subprocess.Popen(
        [*command, "--disable-banner", "--no-request-journal", "--disable-request-logging"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            assert proc.poll() is None, "WireMock ended at start"
            assert time.monotonic() < deadline, "WireMock did not start within 60 s"
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _sign_file(key: rsa.RSAPrivateKey, origin: str, path: Path, count: int) -> None:
    """``count`` signed payout-checks to ``origin``, one a line: path, Authorization, body.
    Timestamps are a little ahead, so the file stays within the sandbox's window for minutes."""
    url = command_url(origin + "/paynet", "payout-check", endpoint_id="1001")
    stamp = int(time.time()) + 200
    with path.open("w") as out:
        for n in range(count):
            signed = sign(
                url,
                list(payout_values(f"wrk-{n}").items()),
                consumer_key="demo",
                private_key=key,
                timestamp=stamp,
            )
            out.write(f"/paynet/api/v4/payout-check/1001\t{signed.headers['Authorization']}\t")
            out.write(f"{signed.body}\n")


def _wrk(origin: str, signed: Path, seconds: int) -> tuple[float, float, int]:
    """Requests per second, p99 in ms, and answers that were not 2xx."""
    out = subprocess.run(
        [
            "wrk",
            f"-t{THREADS}",
            f"-c{CONNECTIONS}",
            f"-d{seconds}s",
            "--latency",
            "-s",
            str(LUA),
            origin,
        ],
        env={
            **os.environ,
            "SIGNED": str(signed),
            "SIGNED_HOST": origin.removeprefix("http://"),
            "WRK_THREADS": str(THREADS),
        },
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors:.*", out)
    assert errors is None, errors.group(0)
    return rate, p99, int(bad.group(1)) if bad else 0


def _needs() -> None:
    if shutil.which("wrk") is None:
        pytest.skip("wrk is not installed")
    if shutil.which("java") is None:
        pytest.skip("Java is not installed (WireMock is the anchor)")
    if _jar() is None:
        pytest.skip("WireMock is missing: npm install in tests/clients/wiremock")


def test_sandbox_beside_wiremock_under_wrk(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> None:
    _needs()
    key_file = tmp_path / "demo.pem"
    key_file.write_bytes(pem_of(rsa_key))
    port = _free_port()
    signed = tmp_path / "signed.tsv"
    _sign_file(rsa_key, f"http://127.0.0.1:{port}", signed, SIGNED)
    ours: list[tuple[float, float]] = []
    anchor: list[tuple[float, float]] = []
    with _wiremock(tmp_path / "wiremock") as wiremock:
        _wrk(wiremock, signed, 3)  # the JVM warms up
        for _ in range(ROUNDS):
            with sandbox_process(key_file, port) as (origin, _pid):
                rate, p99, bad = _wrk(origin, signed, SECONDS)
                assert bad == 0, f"{bad} answers were not 200: too few signed requests?"
                ours.append((rate, p99))
            rate, p99, _ = _wrk(wiremock, signed, SECONDS)
            anchor.append((rate, p99))
    rate = statistics.median(r for r, _ in ours)
    wm_rate = statistics.median(r for r, _ in anchor)
    ratio = rate / wm_rate
    print(
        f"\nsigned payout-checks, {CONNECTIONS} connections, medians of {ROUNDS} rounds of "
        f"{SECONDS} s (a shared machine: figures are noisy):\n"
        f"  sandbox  {rate:8.0f} req/s  p99 {statistics.median(p for _, p in ours):6.1f} ms  "
        f"(rounds: {', '.join(f'{r:.0f}' for r, _ in ours)})\n"
        f"  WireMock {wm_rate:8.0f} req/s  p99 {statistics.median(p for _, p in anchor):6.1f} ms"
        f"  (rounds: {', '.join(f'{r:.0f}' for r, _ in anchor)})\n"
        f"  ratio {ratio:.2f} (goal >= {GOAL_RATIO}: {'met' if ratio >= GOAL_RATIO else 'MISSED'})"
    )
    assert ratio >= GOAL_RATIO


def test_normal_requests_beside_4096_idle_sockets(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < IDLE + 512:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < IDLE + 512:
        pytest.skip(f"{IDLE} idle sockets need a higher open-file limit (ulimit -n)")
    key_file = tmp_path / "demo.pem"
    key_file.write_bytes(pem_of(rsa_key))
    port = _free_port()
    url = command_url(f"http://127.0.0.1:{port}/paynet", "payout-check", endpoint_id="1001")
    probes = signed_payouts(url, rsa_key, (f"probe-{n}" for n in range(PROBES)))
    idle: list[socket.socket] = []
    latencies = []
    with sandbox_process(key_file, port):
        try:
            for _ in range(IDLE):
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
            time.sleep(1.0)
            for request in probes:  # each a new client on its own connection
                started = time.perf_counter()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("POST", request.url, body=request.body, headers=request.headers)
                answer = conn.getresponse()
                body = answer.read()
                conn.close()
                latencies.append(time.perf_counter() - started)
                assert answer.status == 200, body
                assert body.startswith(b"type=async-response"), body
        finally:
            for sock in idle:
                sock.close()
    worst = max(latencies)
    print(
        f"\n{IDLE} idle sockets held: {PROBES} normal requests, p50 "
        f"{statistics.median(latencies) * 1000:.1f} ms, max {worst * 1000:.1f} ms "
        f"(goal every one < 1 s: {'met' if worst < 1.0 else 'MISSED'})"
    )
    assert worst < 1.0
