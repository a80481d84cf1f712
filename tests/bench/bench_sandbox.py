"""How many signed payout-check requests per second the local sandbox sustains, and what each
costs the sandbox next to the bare RSA-SHA256 verification inside it.

The sandbox runs in its own process (as ``gateway-console sandbox`` does); the client runs
here with a few threads on kept-alive connections, sending requests signed beforehand with a
2048-bit key (unique nonces and order ids), so the client's signing is not what is timed.
Loopback only; the loop is bounded in requests and in time. Run with ``-s`` to see figures.
Targets: at least 300 requests/s; sandbox overhead (its CPU per request minus the RSA
verification) under 1.5 ms.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from console.core.signing import SignedRequest
from console.core.spec import command_url
from tests.helpers.processes import sandbox_process
from tests.helpers.sandbox_client import pem_of, signed_payouts

REQUESTS = 2400
THREADS = 4
TIME_LIMIT = 60.0


def _control(origin: str, path: str) -> dict[str, float]:
    host, port = origin.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request("GET", "/_sandbox" + path)
        return dict(json.loads(conn.getresponse().read()))
    finally:
        conn.close()


def _verify_cost(key: rsa.RSAPrivateKey, signed: SignedRequest, rounds: int = 2000) -> float:
    """Seconds per bare RSA-SHA256 verification of one of the benchmark's base strings."""
    public, data = key.public_key(), signed.base_string.encode("utf-8")
    started = time.perf_counter()
    for _ in range(rounds):
        public.verify(signed.signature, data, padding.PKCS1v15(), hashes.SHA256())
    return (time.perf_counter() - started) / rounds


def test_sandbox_throughput(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> None:
    key_file = tmp_path / "demo.pem"
    key_file.write_bytes(pem_of(rsa_key))
    with sandbox_process(key_file) as sandbox:
        origin = sandbox.origin
        assert origin.startswith("http://127.0.0.1:")
        url = command_url(origin + "/paynet", "payout-check", endpoint_id="1001")
        signed = signed_payouts(url, rsa_key, (f"bench-{n}" for n in range(REQUESTS)))
        verify = _verify_cost(rsa_key, signed[0])
        before = _control(origin, "/stats")
        elapsed, answered = _hammer(origin, signed)
        after = _control(origin, "/stats")
    served = after["requests"] - before["requests"]
    rate = answered / elapsed
    cpu = (after["process_cpu_seconds"] - before["process_cpu_seconds"]) / served
    wall = (after["handler_seconds"] - before["handler_seconds"]) / served
    inside = (after["verify_seconds"] - before["verify_seconds"]) / served
    print(
        f"\nsandbox: {answered} signed payout-check requests in {elapsed:.2f} s with "
        f"{THREADS} kept-alive client threads = {rate:.0f} requests/s"
        f"\n  sandbox CPU per request {cpu * 1000:.2f} ms (handler wall time {wall * 1000:.2f} "
        f"ms, RSA verify inside it {inside * 1000:.3f} ms)"
        f"\n  bare RSA-2048 verify {verify * 1000:.3f} ms -> sandbox overhead "
        f"{(cpu - verify) * 1000:.2f} ms per request"
    )
    assert answered == served == REQUESTS
    assert rate >= 300
    assert cpu - verify < 0.0015


def _hammer(origin: str, signed: list[SignedRequest]) -> tuple[float, int]:
    host, port = origin.removeprefix("http://").split(":")
    answered = [0] * THREADS
    deadline = time.monotonic() + TIME_LIMIT

    def worker(index: int) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            for request in signed[index::THREADS]:
                if time.monotonic() > deadline:
                    return
                conn.request("POST", request.url, body=request.body, headers=request.headers)
                body = conn.getresponse().read()
                assert body.startswith(b"type=async-response"), body[:200]
                answered[index] += 1
        finally:
            conn.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started, sum(answered)
