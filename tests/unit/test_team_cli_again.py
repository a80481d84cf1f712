"""Team mode when a person does something twice, or from the wrong console, as separate
processes of the command line against a real PostgreSQL server: the same held payout sent
again, a second ``team send``, an approval on a console without the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from console.cli.failures import EXIT_APPROVAL_REFUSED, EXIT_SUBMITTED
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, accepted, payout_values

pytest.importorskip("psycopg")


def _cli(db: TeamDatabase, person: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``gateway-console ARGS`` as ``person``, in its own process (this test's profile)."""
    env = {
        **os.environ,
        "GATEWAY_CONSOLE_TEAM_DSN": db.dsn(person),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    done = subprocess.run(
        [sys.executable, "-m", "console", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert "Traceback" not in done.stderr
    return done


def _connection(url: str, key_file: Path) -> list[str]:
    return [
        "--base-url",
        url,
        "--login",
        "merchant",
        "--endpoint-id",
        "1",
        "--key-file",
        str(key_file),
    ]


def _send(url: str, key_file: Path, order: str = "p-1") -> list[str]:
    args = ["send", "payout-check", *_connection(url, key_file)]
    for name, value in payout_values(order).items():
        args += ["-f", f"{name}={value}"]
    return args


def _register(url: str) -> list[str]:
    """``team gateway add``: the gateway at ``url`` (a new one holds every payout back)."""
    return [
        "team",
        "gateway",
        "add",
        "live",
        "--base-url",
        url,
        "--login",
        "merchant",
        "--endpoint-id",
        "1",
    ]


def test_the_same_held_payout_sent_again_names_the_waiting_submission(
    team_db: TeamDatabase, key_file: Path
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        assert _cli(team_db, "root_admin", *_register(server.url)).returncode == 0
        assert (
            _cli(team_db, "root_admin", "team", "policy", "live", "--mode", "all").returncode == 0
        )
        first = _cli(team_db, "alice", *_send(server.url, key_file))
        assert first.returncode == EXIT_SUBMITTED
        assert "Submitted for approval as #1" in first.stderr

        again = _cli(team_db, "alice", *_send(server.url, key_file))
        assert again.returncode == EXIT_SUBMITTED
        assert "already waiting for a checker's decision as #1" in again.stderr
        assert "nothing new was submitted" in again.stderr
        assert "team approve 1" in again.stderr
        pending = _cli(team_db, "bob", "team", "pending")
        assert "#1 " in pending.stdout
        assert "#2 " not in pending.stdout  # one submission, not two

        other = _cli(team_db, "alice", *_send(server.url, key_file, order="p-2"))
        assert "Submitted for approval as #2" in other.stderr  # another payout is its own

        assert _cli(team_db, "bob", "team", "approve", "1", "--no-send").returncode == 0
        approved = _cli(team_db, "alice", *_send(server.url, key_file))
        assert approved.returncode == EXIT_SUBMITTED
        assert "already approved by bob and waits to be sent as #1" in approved.stderr
        assert "gateway-console team send 1" in approved.stderr
        assert server.received == []


def test_a_refused_second_team_send_is_in_the_audit_trail(
    team_db: TeamDatabase, key_file: Path
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _cli(team_db, "root_admin", *_register(server.url))
        assert _cli(team_db, "alice", *_send(server.url, key_file)).returncode == EXIT_SUBMITTED
        conn = _connection(server.url, key_file)
        assert _cli(team_db, "bob", "team", "approve", "1", *conn).returncode == 0
        assert len(server.received) == 1

        second = _cli(team_db, "carol", "team", "send", "1", *conn)
        assert second.returncode == EXIT_APPROVAL_REFUSED
        assert "#1 is sent by bob: it is not sent again" in second.stderr
        assert len(server.received) == 1
        audit = _cli(team_db, "root_admin", "team", "audit").stdout
    assert "carol (checker)  refused #1" in audit
    assert "send: sent" in audit


def test_an_approval_not_sent_from_here_says_who_can_send_it(
    team_db: TeamDatabase, key_file: Path
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        environment = f"command line ({server.url.split('//')[1]})"
        _cli(team_db, "root_admin", *_register(server.url))
        assert _cli(team_db, "alice", *_send(server.url, key_file)).returncode == EXIT_SUBMITTED
        approved = _cli(team_db, "bob", "team", "approve", "1")  # no such environment here
        assert approved.returncode == 0
        said = " ".join(approved.stderr.split())
        assert "Not sent from here" in said
        assert "the console of its maker, alice" in said
        assert f"any console of the team with the environment {environment!r} and its key" in said
        assert "`gateway-console team send 1` there" in said
        assert server.received == []
