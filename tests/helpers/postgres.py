"""A throwaway PostgreSQL cluster for the team tests (the same steps as
``scripts/dev-postgres.sh``): initdb and pg_ctl from the system's binaries, a free port on
127.0.0.1, a unix socket in the cluster's temporary folder, trust for local connections.

As root (CI) the server runs as the ``postgres`` system user, because initdb refuses root.
Tests skip with the reason when no PostgreSQL binaries are installed; CI installs them.

A run may use a server already running instead (:data:`SERVER_PORT` names its port on
127.0.0.1, trusting local connections as :func:`running_cluster` sets it up): mutation
testing runs a module's tests once per mutant, each in a pytest session of its own, and
starts one server for all of them (``scripts/mutate.py``). Each test's team database is
then dropped after the test, so thousands of sessions leave none behind.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

PEOPLE = {"alice": "maker", "bob": "checker", "carol": "checker", "dave": "maker"}
# The port of a test server already running (started by scripts/mutate.py); unset: each test
# run starts a throwaway cluster of its own.
SERVER_PORT = "GATEWAY_CONSOLE_TEST_PG_PORT"
_counter = itertools.count()


def bindir() -> Path | None:
    candidates = [os.environ.get("PG_BINDIR", "")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(str(Path(on_path).parent))
    for c in candidates:
        if c and (Path(c) / "initdb").exists() and (Path(c) / "pg_ctl").exists():
            return Path(c)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    port: int
    folder: Path | None  # None: a server this run did not start (SERVER_PORT)

    def dsn(self, user: str = "postgres", db: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{db}"


@contextmanager
def running_cluster(binaries: Path) -> Iterator[Cluster]:
    """A throwaway PostgreSQL server from the binaries in ``binaries``, stopped and removed
    on leaving."""
    folder = Path(tempfile.mkdtemp(prefix="gc-pg-"))
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    if as_root:
        shutil.chown(folder, "postgres", "postgres")
    port = _free_port()
    data = folder / "data"
    run = subprocess.run
    run(
        [
            *prefix,
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    options += " -c synchronous_commit=off -c full_page_writes=off"
    run(
        [
            *prefix,
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(folder / "log"),
            "-w",
            "-o",
            options,
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield Cluster(port, folder)
    finally:
        run(
            [*prefix, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One PostgreSQL server for the whole test run (the one :data:`SERVER_PORT` names, if
    set)."""
    psycopg = "team mode needs psycopg: pip install -e '.[team]'"
    running = os.environ.get(SERVER_PORT)
    if running:
        pytest.importorskip("psycopg", reason=psycopg)
        yield Cluster(int(running), None)
        return
    binaries = bindir()
    if binaries is None:
        reason = "no PostgreSQL binaries (initdb, pg_ctl): apt-get install postgresql"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the team tests against a real server: {reason}")
        pytest.skip(reason)
    pytest.importorskip("psycopg", reason=psycopg)
    with running_cluster(binaries) as cluster:
        yield cluster


@dataclass
class TeamDatabase:
    """A fresh, initialised team database with the people of :data:`PEOPLE` (and dave,
    who is a maker and a checker)."""

    cluster: Cluster
    name: str

    def dsn(self, user: str = "postgres") -> str:
        return self.cluster.dsn(user, self.name)


@pytest.fixture
def team_db(pg_cluster: Cluster) -> Iterator[TeamDatabase]:
    from console.core.team import Approvals, TeamJournal, connect, initialise

    # the process id keeps two test processes on one server apart
    name = f"team_{os.getpid()}_{next(_counter)}"
    with connect(pg_cluster.dsn()) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    db = TeamDatabase(pg_cluster, name)
    with connect(db.dsn()) as conn:
        initialise(conn)
    with TeamJournal(db.dsn()) as owner:
        approvals = Approvals(owner)
        for person, role in PEOPLE.items():
            approvals.add_user(person, role)
        approvals.add_user("dave", "checker")
        approvals.add_user("root_admin", "admin")
    yield db
    if pg_cluster.folder is None:  # a server that outlives this run: leave nothing on it
        with connect(pg_cluster.dsn()) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
