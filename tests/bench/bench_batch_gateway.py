"""``batch run`` against a gateway that takes its time, beside a plain signed loop. Run with
``pytest -s tests/bench/bench_batch_gateway.py``.

Goals (issue 35): against a sandbox that answers each request 20 ms late (its ``latency``
fault, waited without blocking its other connections), ``gateway-console batch run
--concurrency 8`` of 1,000 rows, the whole command, at 0.9 or more of the throughput of a
plain signed ``requests.Session`` loop of 8 threads against the same sandbox in the same run
(the journal and the guard must not serialise the rows), and CPU per row (the whole
process's user + system time over its rows) at most 1.5x the loop's. Runs alternate which
goes first, so a load change on a shared machine hits both alike; the figures are medians.

The sandbox runs in its own process, as ``gateway-console sandbox`` does. Loopback only.
"""

from __future__ import annotations

import os
import statistics
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.spec import command_url
from tests.helpers.batch_files import card_file
from tests.helpers.processes import Measured, measured_process, sandbox_process
from tests.helpers.sandbox_client import pem_of

ROOT = Path(__file__).resolve().parents[2]
ROWS = 1000
THREADS = 8
LATENCY = 0.02
RUNS = 5
GOAL_RATE = 0.9
GOAL_CPU = 1.5
# The anchor: sign each payout and post it with one requests.Session per thread.
_LOOP = r"""
import sys, threading
import requests
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from console.core.signing import sign

url, key_file, rows, prefix, threads = sys.argv[1:6]
rows, threads = int(rows), int(threads)
key = load_pem_private_key(open(key_file, "rb").read(), None)

def payout(i):
    return [("client_orderid", f"{prefix}-{i}"), ("amount", "10.00"), ("currency", "EUR"),
            ("credit_card_number", "4444444444444448"), ("card_printed_name", "JOHN SMITH"),
            ("expire_month", "12"), ("expire_year", "2030"), ("cvv2", "123"),
            ("ipaddress", "203.0.113.10")]

def work(first):
    session = requests.Session()
    for i in range(first, rows, threads):
        signed = sign(url, payout(i), consumer_key="demo", private_key=key)
        answer = session.post(signed.url, data=signed.body, headers=signed.headers, timeout=30)
        assert answer.content.startswith(b"type=async-response"), answer.content[:200]

workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
for t in workers:
    t.start()
for t in workers:
    t.join()
"""


def test_batch_run_paced_by_a_20ms_gateway_beside_a_plain_signed_loop(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    key_file = tmp_path / "demo.pem"
    key_file.write_bytes(pem_of(rsa_key))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once, as an installed package is
    loop = tmp_path / "loop.py"
    loop.write_text(_LOOP, encoding="utf-8")
    peak = tmp_path / "peak"
    ours: list[Measured] = []
    plain: list[Measured] = []
    with sandbox_process(key_file, faults=f"latency={LATENCY}") as sandbox:
        base = sandbox.origin + "/paynet"
        url = command_url(base, "payout-check", endpoint_id="1001")
        for run in range(RUNS):
            path = card_file(tmp_path / f"run{run}.csv", ROWS, f"g{run}")
            home = {**env, "GATEWAY_CONSOLE_HOME": str(tmp_path / f"home{run}")}
            command = ["-m", "console", "batch", "run", str(path), "--base-url", base,
                       "--login", "demo", "--endpoint-id", "1001", "--key-file", str(key_file),
                       "--concurrency", str(THREADS)]  # fmt: skip
            anchor = [str(loop), url, str(key_file), str(ROWS), f"a{run}", str(THREADS)]
            first, second = ((command, home), (anchor, env))[:: 1 if run % 2 else -1]
            for args, environ in (first, second):
                measured = measured_process(args, environ, peak)
                (ours if args is command else plain).append(measured)
    rate = ROWS / statistics.median(m.seconds for m in ours)
    anchor_rate = ROWS / statistics.median(m.seconds for m in plain)
    cpu = statistics.median(m.cpu for m in ours) / ROWS * 1000
    anchor_cpu = statistics.median(m.cpu for m in plain) / ROWS * 1000
    print(
        f"\nbatch run --concurrency {THREADS}, {ROWS:,} rows, a sandbox answering "
        f"{LATENCY * 1000:.0f} ms late (whole processes, medians of {RUNS}): {rate:.0f} rows/s "
        f"beside a plain signed requests.Session loop of {THREADS} threads: "
        f"{anchor_rate:.0f} requests/s: {rate / anchor_rate:.2f} of it (goal >= {GOAL_RATE}); "
        f"CPU per row {cpu:.2f} ms vs {anchor_cpu:.2f} ms: {cpu / anchor_cpu:.2f}x "
        f"(goal <= {GOAL_CPU}x); peak {max(m.peak_mb for m in ours):.0f} MB vs "
        f"{max(m.peak_mb for m in plain):.0f} MB; each run, rows/s and CPU-s ours / loop: "
        + ", ".join(
            f"{ROWS / a.seconds:.0f} {a.cpu:.2f} / {ROWS / b.seconds:.0f} {b.cpu:.2f}"
            for a, b in zip(ours, plain, strict=True)
        )
        + f"; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    assert rate / anchor_rate >= GOAL_RATE
    assert cpu / anchor_cpu <= GOAL_CPU
