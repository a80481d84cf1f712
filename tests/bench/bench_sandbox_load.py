"""The local sandbox under load and under slow clients: requests per second and latency at
1, 4, 16 and 64 client threads, then the latency of normal signed requests while 1,000
slow connections are held open, with the sandbox process's thread count.

The sandbox runs in its own process (as ``gateway-console sandbox`` does); requests are
signed beforehand. Loopback only; every loop is bounded in count and time. Run with ``-s``.
Target: p99 under 50 ms for a normal request beside 1,000 slow connections, threads bounded.
"""

from __future__ import annotations

import http.client
import resource
import socket
import statistics
import threading
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.signing import SignedRequest
from console.core.spec import command_url
from tests.helpers.processes import sandbox_process
from tests.helpers.sandbox_client import pem_of, signed_payouts

ROOT = Path(__file__).resolve().parents[2]
LEVELS = (1, 4, 16, 64)
PER_LEVEL = 640
SLOW = 1000
PROBES = 200
TIME_LIMIT = 60.0


def _threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def _load(host: str, port: int, signed: list[SignedRequest], threads: int) -> list[float]:
    """Send every request from ``threads`` kept-alive clients; the latency of each."""
    latencies: list[list[float]] = [[] for _ in range(threads)]
    deadline = time.monotonic() + TIME_LIMIT

    def worker(index: int) -> None:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        try:
            for request in signed[index::threads]:
                if time.monotonic() > deadline:
                    return
                started = time.perf_counter()
                conn.request("POST", request.url, body=request.body, headers=request.headers)
                body = conn.getresponse().read()
                latencies[index].append(time.perf_counter() - started)
                assert body.startswith(b"type=async-response"), body[:200]
        finally:
            conn.close()

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return [x for per in latencies for x in per]


def test_sandbox_under_load_and_slow_clients(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4 * SLOW:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8 * SLOW), hard))
    key_file = tmp_path / "demo.pem"
    key_file.write_bytes(pem_of(rsa_key))
    slow: list[socket.socket] = []
    with sandbox_process(key_file) as sandbox:
        origin, pid = sandbox
        try:
            host, port_text = origin.removeprefix("http://").split(":")
            port = int(port_text)
            url = command_url(origin + "/paynet", "payout-check", endpoint_id="1001")
            count = iter(range(10**6))

            def signed_batch(n: int) -> list[SignedRequest]:
                return signed_payouts(url, rsa_key, (f"load-{next(count)}" for _ in range(n)))

            print(f"\nsandbox under load ({PER_LEVEL} signed payout-checks per level):")
            for threads in LEVELS:
                batch = signed_batch(PER_LEVEL)
                started = time.perf_counter()
                latencies = _load(host, port, batch, threads)
                elapsed = time.perf_counter() - started
                print(
                    f"  {threads:>2} client threads: {len(latencies) / elapsed:6.0f} requests/s, "
                    f"p50 {statistics.median(latencies) * 1000:6.1f} ms, "
                    f"p99 {_percentile(latencies, 0.99) * 1000:6.1f} ms; "
                    f"sandbox threads {_threads(pid)}"
                )
            for _ in range(SLOW):  # half a request line each, then nothing
                conn = socket.create_connection((host, port), timeout=10)
                conn.sendall(b"POST /paynet/api/v4/payout-check/1001 HTT")
                slow.append(conn)
            time.sleep(0.5)
            probes = signed_batch(PROBES)
            latencies = _load(host, port, probes, 1)
            p99 = _percentile(latencies, 0.99)
            print(
                f"  with {len(slow)} slow connections open: normal request p50 "
                f"{statistics.median(latencies) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms "
                f"(target < 50 ms: {'met' if p99 < 0.05 else 'MISSED'}); sandbox threads "
                f"{_threads(pid)}"
            )
            assert len(latencies) == PROBES
        finally:
            for conn in slow:
                conn.close()
