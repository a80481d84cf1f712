"""The team sender's pace beside ``batch run`` of the same rows. Run with
``pytest -s tests/bench/bench_sender.py`` (it needs the PostgreSQL binaries, like the team
tests); ``BENCH_SENDER_ROWS=300 BENCH_SENDER_RUNS=1`` for a quicker run,
``BENCH_SENDER_PROFILE=/tmp/sender`` for py-spy's flame graph of each sender run.

Goal (issue 32): 2,000 payouts to bank accounts submitted to the team sender (queued: the
gateway's policy needs no approval) and sent by a real ``gateway-console team sender
--concurrency 4`` process against a sandbox answering each request 20 ms late, at 0.8 or
more of the rows per second of ``gateway-console batch run --concurrency 4`` of the same
rows (other order ids), sent directly with the key on the same team database in the same
run. Both are whole processes, timed from their start: the batch command until it ends, the
sender until the last row's answer is journalled. Runs alternate which goes first, so a load
change on a shared machine hits both alike; the figures are medians. Each row's CPU (the
process's user + system time over its rows) is printed beside. The same is printed for card
payouts (200 by default: a short run, where the sender's start weighs more), sealed to the
sender; queued at once, they bind no approval, so the sender does not work out
their content hash again (scrypt for card data, slow on purpose; an approved one it does:
docs/benchmarks.md).

The sandbox runs in its own process, as ``gateway-console sandbox`` does; PostgreSQL is the
tests' throwaway server (no fsync). Loopback only.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.batch import read_batch
from console.core.prepared import prepare
from tests.helpers.batch_files import card_file, write_csv
from tests.helpers.postgres import Cluster
from tests.helpers.processes import measured_process, sandbox_process
from tests.helpers.sender import Profile, owner_only_pem, stop, wait_for
from tests.helpers.team import register_policy

pytest.importorskip("psycopg")

ROOT = Path(__file__).resolve().parents[2]
ROWS = int(os.environ.get("BENCH_SENDER_ROWS", "2000"))
# Card rows (sealed to the sender; queued at once, so their slow hash is not worked out
# again): fewer of them by default.
CARD_ROWS = int(os.environ.get("BENCH_SENDER_CARD_ROWS", "200"))
THREADS = int(os.environ.get("BENCH_SENDER_CONCURRENCY", "4"))
RUNS = int(os.environ.get("BENCH_SENDER_RUNS", "3"))
PROFILE = os.environ.get("BENCH_SENDER_PROFILE", "")  # py-spy's flame graphs, this prefix
PROFILE_ARGS = os.environ.get("BENCH_SENDER_PROFILE_ARGS", "")  # e.g. --gil, --threads
LATENCY = 0.02
GOAL = 0.8
SENDER = "sendbot"
MAKER = "alice"
LOGIN, ENDPOINT = "demo", "1001"  # the sandbox's demo merchant
ACCOUNT = "40817810099910004312"
ACCOUNT_HEADER = ("client_orderid", "amount", "currency", "account_number",
                  "receiver_first_name", "receiver_last_name", "ipaddress")  # fmt: skip
RECEIVER = ("John", "Smith", "203.0.113.10")


class Run(NamedTuple):
    seconds: float  # wall, from the process's start
    cpu: float  # user + system seconds of the process


@pytest.fixture(scope="module")
def team(pg_cluster: Cluster) -> Iterator[Cluster]:
    """A team database ``bench_sender``: alice (maker) and the sender's login."""
    from console.core.team import Approvals, TeamJournal, connect, initialise

    with connect(pg_cluster.dsn()) as admin:
        admin.execute("DROP DATABASE IF EXISTS bench_sender")
        admin.execute("CREATE DATABASE bench_sender")
    with connect(pg_cluster.dsn("postgres", "bench_sender")) as conn:
        initialise(conn)
    with TeamJournal(pg_cluster.dsn("postgres", "bench_sender")) as owner:
        approvals = Approvals(owner)
        approvals.add_user(MAKER, "maker")
        approvals.add_user(SENDER, "sender")
        # the sandbox's gateway (on this computer, any port), its payouts need no approval
        register_policy(owner, "live", "none", login=LOGIN, endpoint_id=ENDPOINT)
    yield pg_cluster
    with connect(pg_cluster.dsn()) as admin:
        admin.execute("DROP DATABASE bench_sender WITH (FORCE)")


def _profile(home: Path, dsn: str, base: str) -> Profile:
    profile = Profile(home, dsn)
    home.mkdir()
    added = profile.run(
        "env", "add", "live", "--kind", "production", "--base-url", base, "--login", LOGIN,
        "--endpoint-id", ENDPOINT,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    return profile


def _submit(dsn: str, base: str, path: Path) -> None:
    """Every row of ``path`` submitted to the sender as alice's console does (card data
    sealed to the sender; no key of the team's in her profile)."""
    from console.core.team import Approvals, TeamJournal
    from console.core.team.approvals.via_sender import placeholder_key, submit_to_sender

    with TeamJournal(dsn) as alice:
        approvals = Approvals(alice)
        for row in read_batch(path).rows:
            prepared = prepare(
                "payout-check", dict(row.values), base_url=base, login=LOGIN,
                private_key=placeholder_key(), endpoint_id=ENDPOINT,
            )  # fmt: skip
            submit_to_sender(approvals, "live", prepared)


def _answered(dsn: str, prefix: str, sql: Any = None) -> int:
    """How many rows of ``prefix`` have their answer (on ``sql``, a connection kept open
    while a run is watched: a new session every look would load the machine it measures)."""
    from console.core.team import connect

    if sql is None:
        with connect(dsn) as own:
            return _answered(dsn, prefix, own)
    return int(
        sql.execute(
            "SELECT count(*) FROM gateway.requests WHERE client_orderid LIKE %s"
            " AND outcome <> 'pending'",
            (f"{prefix}-%",),
        ).fetchone()[0]
    )


def _sender_run(sender: Profile, args: list[str], dsn: str, prefix: str, rows: int) -> Run:
    """The sender started with ``rows`` rows queued, timed until the last one is answered."""
    from console.core.team import connect

    watch = connect(dsn)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    process = sender.start(*args)
    if PROFILE:  # where the sender's time goes: py-spy beside it (pip install py-spy)
        spy = subprocess.Popen(["py-spy", "record", "-r", "200", "-o", f"{PROFILE}-{prefix}.svg",
                                "-p", str(process.pid), *PROFILE_ARGS.split()])  # fmt: skip
    try:
        assert wait_for(lambda: _answered(dsn, prefix, watch) == rows, 600, every=0.02), (
            sender.logs(process)[-3000:]
        )
        seconds = time.perf_counter() - t0
    finally:
        watch.close()
        stop(process)
        if PROFILE:
            spy.wait(timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert "Traceback" not in sender.logs(process), sender.logs(process)[-3000:]
    return Run(seconds, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def _rows_file(path: Path, kind: str, count: int, prefix: str) -> Path:
    """``count`` payouts with ids ``prefix-0`` ...: to cards (card data sealed to the sender,
    its content hash scrypt), or to bank accounts (fields in the database, an HMAC)."""
    if kind == "card":
        return card_file(path, count, prefix)
    rows = [[f"{prefix}-{i}", f"{10 + i}.00", "EUR", ACCOUNT, *RECEIVER] for i in range(count)]
    return write_csv(path, rows, header=ACCOUNT_HEADER)


@pytest.mark.parametrize(
    ("kind", "rows", "goal"), [("account", ROWS, GOAL), ("card", CARD_ROWS, GOAL)]
)
def test_the_team_sender_keeps_pace_with_batch_run(
    team: Cluster,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    kind: str,
    rows: int,
    goal: float,
) -> None:
    from console.core.team import connect

    key_file = owner_only_pem(tmp_path / "merchant.pem", rsa_key)
    seal_file = owner_only_pem(tmp_path / "seal.pem", other_rsa_key)
    owner = team.dsn("postgres", "bench_sender")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once, as an installed package is
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "console")], check=True)
    ours: list[Run] = []
    direct: list[Run] = []
    with sandbox_process(key_file, faults=f"latency={LATENCY}") as sandbox:
        base = sandbox.origin + "/paynet"
        sender = _profile(tmp_path / SENDER, team.dsn(SENDER, "bench_sender"), base)
        maker = _profile(tmp_path / MAKER, team.dsn(MAKER, "bench_sender"), base)
        sender_args = [
            "team", "sender", "--env", "live", "--key-file", str(key_file),
            "--seal-key-file", str(seal_file), "--concurrency", str(THREADS),
        ]  # fmt: skip
        # its first start publishes the key card data is sealed to; then it waits, stopped
        first = sender.start(*sender_args)
        try:
            assert wait_for(lambda: "waiting for submissions" in sender.logs(first), 60)
        finally:
            stop(first)
        maker_env = {**env, **{k: v for k, v in maker.env.items() if k.startswith("GATEWAY")}}
        for run in range(RUNS):
            ids, direct_ids = f"{kind}-s{run}", f"{kind}-d{run}"
            queued = _rows_file(tmp_path / f"queued{run}.csv", kind, rows, ids)
            batch = _rows_file(tmp_path / f"direct{run}.csv", kind, rows, direct_ids)
            command = ["-m", "console", "batch", "run", str(batch), "--base-url", base,
                       "--login", LOGIN, "--endpoint-id", ENDPOINT, "--key-file", str(key_file),
                       "--concurrency", str(THREADS), "--yes"]  # fmt: skip
            for turn in ("sender", "direct") if run % 2 else ("direct", "sender"):
                if turn == "direct":
                    m = measured_process(command, maker_env, tmp_path / "peak")
                    direct.append(Run(m.seconds, m.cpu))
                    assert _answered(owner, direct_ids) == rows
                else:
                    _submit(maker.dsn, base, queued)
                    ours.append(_sender_run(sender, sender_args, owner, ids, rows))
        with connect(owner) as sql:  # every row once, nothing left waiting
            left = sql.execute(
                "SELECT count(*) FROM gateway.submissions WHERE state <> 'sent'"
            ).fetchone()[0]
            outcomes = dict(
                sql.execute(
                    "SELECT outcome, count(*) FROM gateway.requests WHERE client_orderid LIKE %s"
                    " GROUP BY outcome",
                    (f"{kind}-%",),
                ).fetchall()
            )
    rate = rows / statistics.median(r.seconds for r in ours)
    anchor = rows / statistics.median(r.seconds for r in direct)
    cpu = statistics.median(r.cpu for r in ours) / rows * 1000
    anchor_cpu = statistics.median(r.cpu for r in direct) / rows * 1000
    print(
        f"\nteam sender --concurrency {THREADS}, {rows:,} queued {kind} payouts, a sandbox "
        f"answering {LATENCY * 1000:.0f} ms late (whole processes, medians of {RUNS}): "
        f"{rate:.0f} rows/s beside batch run --concurrency {THREADS} of the same rows on the "
        f"same team database: {anchor:.0f} rows/s: {rate / anchor:.2f} of it"
        f" (goal >= {goal}); CPU per row {cpu:.2f} ms vs "
        f"{anchor_cpu:.2f} ms; each run, seconds and CPU-s sender / batch run: "
        + ", ".join(
            f"{a.seconds:.1f} {a.cpu:.1f} / {b.seconds:.1f} {b.cpu:.1f}"
            for a, b in zip(ours, direct, strict=True)
        )
        + f"; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    assert left == 0
    assert outcomes == {"accepted": 2 * RUNS * rows}, outcomes  # every row sent once
    assert rate / anchor >= goal
