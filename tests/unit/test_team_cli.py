"""``gateway-console team ...`` and ``send`` in team mode, against a real PostgreSQL server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

from console.cli import main
from console.cli.failures import EXIT_APPROVAL_REFUSED, EXIT_SUBMITTED, EXIT_USAGE
from console.core.team.storage.schema_sql import SCHEMA_VERSION
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, PAN, accepted, payout_values, register_policy

pytest.importorskip("psycopg")


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


def _send(url: str, key_file: Path, *, card: bool = False, order: str = "p-1") -> list[str]:
    args = ["send", "payout-check", *_connection(url, key_file)]
    for name, value in payout_values(order, card=card).items():
        args += ["-f", f"{name}={value}"]
    return args


def _as(monkeypatch: pytest.MonkeyPatch, db: TeamDatabase, person: str) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", db.dsn(person))


def _register(url: str, name: str = "live") -> list[str]:
    """``team gateway add``: the gateway at ``url`` (the helpers' login and endpoint)."""
    return [
        "team",
        "gateway",
        "add",
        name,
        "--base-url",
        url,
        "--login",
        "merchant",
        "--endpoint-id",
        "1",
    ]


def test_team_init_is_idempotent_and_remembers_the_dsn(
    team_db: TeamDatabase, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["team", "init", "--dsn", team_db.dsn()]) == 0
    assert f"already at schema {SCHEMA_VERSION}" in capsys.readouterr().out
    assert main(["team", "pending"]) == 0  # the saved DSN
    assert "Nothing waits for approval." in capsys.readouterr().out
    # a member runs it in their own profile: nothing to change, the DSN is saved
    assert main(["team", "init", "--dsn", team_db.dsn("alice")]) == 0
    assert main(["team", "add-user", "mallory", "--role", "admin"]) == EXIT_APPROVAL_REFUSED
    assert "only an admin may add users" in capsys.readouterr().err
    assert main(["team", "audit"]) == 0
    assert "alice (maker)  refused  add user mallory: not an admin" in capsys.readouterr().out


def test_a_dsn_with_a_password_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["team", "init", "--dsn", "postgresql://alice:secret@db/payments"]) == EXIT_USAGE
    assert "PGPASSWORD, ~/.pgpass or the keyring" in capsys.readouterr().err


def test_send_submits_a_checker_approves_and_it_is_sent_once(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _as(monkeypatch, team_db, "root_admin")
        assert main(_register(server.url)) == 0
        assert "live: http://localhost/ for merchant (endpoint 1)" in capsys.readouterr().out
        assert main(["team", "policy", "live", "--mode", "above", "--above", "usd=5"]) == 0
        assert "approval above 5 USD" in capsys.readouterr().out

        _as(monkeypatch, team_db, "alice")
        assert main(_send(server.url, key_file)) == EXIT_SUBMITTED
        assert "Submitted for approval as #1" in capsys.readouterr().err
        assert server.received == []
        assert main(["team", "approve", "1", *_connection(server.url, key_file)]) == (
            EXIT_APPROVAL_REFUSED
        )
        assert "someone other than its maker" in capsys.readouterr().err

        _as(monkeypatch, team_db, "bob")
        assert main(["team", "pending"]) == 0
        assert "#1" in capsys.readouterr().out
        assert main(["team", "approve", "1", *_connection(server.url, key_file)]) == 0
        assert len(server.received) == 1
        assert main(["team", "send", "1", *_connection(server.url, key_file)]) != 0
        assert len(server.received) == 1

        capsys.readouterr()
        assert main(["team", "audit", "--since", "1h"]) == 0
        audit = capsys.readouterr().out
    for line in (
        "alice (maker)  submit #1",
        "alice (maker)  refused #1",
        "bob (checker)  approve #1",
        "bob (checker)  send #1",
    ):
        assert line in audit


def test_a_card_payout_needs_wait_and_reject_needs_a_reason(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _as(monkeypatch, team_db, "root_admin")
        assert main(_register(server.url)) == 0
        assert main(["team", "policy", "live", "--mode", "all"]) == 0
        _as(monkeypatch, team_db, "alice")
        assert main(_send(server.url, key_file, card=True)) == EXIT_USAGE
        assert "--wait SECONDS" in capsys.readouterr().err
        assert main(_send(server.url, key_file, order="p-2")) == EXIT_SUBMITTED
        _as(monkeypatch, team_db, "bob")
        assert main(["team", "reject", "1", "--reason", " "]) == EXIT_USAGE
        assert main(["team", "reject", "1", "--reason", "wrong receiver"]) == 0
        _as(monkeypatch, team_db, "carol")
        assert main(["team", "approve", "1", "--no-send"]) == EXIT_APPROVAL_REFUSED
        assert "already rejected (by bob)" in capsys.readouterr().err
        _as(monkeypatch, team_db, "alice")
        assert main(_send(server.url, key_file, order="p-3")) == EXIT_SUBMITTED
        _as(monkeypatch, team_db, "carol")
        assert main(["team", "approve", "2"]) == 0  # no such environment in carol's profile
        assert "Not sent from here" in capsys.readouterr().err
        assert server.received == []
        assert PAN not in capsys.readouterr().out


def test_history_reads_the_shared_journal_in_team_mode(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _as(monkeypatch, team_db, "alice")
        assert main(_send(server.url, key_file, order="shared-1")) == 0
    _as(monkeypatch, team_db, "carol")  # another person, another profile's console
    capsys.readouterr()
    assert main(["history", "--search", "shared-1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["client_orderid"], r["outcome"]) for r in rows] == [("shared-1", "accepted")]


def test_send_wait_sends_a_card_payout_from_memory_once_approved(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import threading

    from console.core.team import Approvals, TeamJournal

    def checker() -> None:  # bob, at his own console, approves what turns up
        with TeamJournal(team_db.dsn("bob")) as bob:
            assert bob.wait_for(lambda: bool(Approvals(bob).pending()), timeout=10)
            Approvals(bob).approve(Approvals(bob).pending()[0].id)

    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        environment = f"command line ({server.url.split('//')[1]})"
        with TeamJournal(team_db.dsn("root_admin")) as admin:
            register_policy(admin, environment, "all")
        _as(monkeypatch, team_db, "alice")
        bob = threading.Thread(target=checker)
        bob.start()
        assert main([*_send(server.url, key_file, card=True), "--wait", "10"]) == 0
        bob.join(timeout=10)
        assert len(server.received) == 1
        assert PAN in server.received[0].body.decode()
    err = capsys.readouterr().err
    assert "Approved by bob; sending." in err


def test_send_wait_says_what_became_of_the_submission(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import threading

    from console.core.team import Approvals, TeamJournal

    def rejecter() -> None:
        with TeamJournal(team_db.dsn("bob")) as bob:
            assert bob.wait_for(lambda: len(Approvals(bob).pending()) == 2, timeout=10)
            Approvals(bob).reject(Approvals(bob).pending()[-1].id, "wrong receiver")

    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        environment = f"command line ({server.url.split('//')[1]})"
        with TeamJournal(team_db.dsn("root_admin")) as admin:
            register_policy(admin, environment, "all")
        _as(monkeypatch, team_db, "alice")
        assert main([*_send(server.url, key_file, card=True), "--wait", "0.3"]) == EXIT_SUBMITTED
        err = capsys.readouterr().err
        assert "No decision on #1 yet; nothing was sent." in err
        assert "only in this console's memory" in err
        bob = threading.Thread(target=rejecter)
        bob.start()
        assert main([*_send(server.url, key_file, order="p-2"), "--wait", "10"]) == (
            EXIT_APPROVAL_REFUSED
        )
        bob.join(timeout=10)
        assert "#2 was rejected by bob: wrong receiver. Nothing was sent." in (
            capsys.readouterr().err
        )
        assert server.received == []


def test_team_init_migrates_a_database_made_by_the_previous_version(
    pg_cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from console.core.team import connect
    from console.core.team.storage.schema_sql import MIGRATIONS, ROLES

    name = f"team_from_v1_{uuid4().hex[:8]}"  # one of its own on a server tests share
    with connect(pg_cluster.dsn()) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    dsn = pg_cluster.dsn(db=name)
    with connect(dsn) as old:  # what the first schema's `team init` left
        old.execute(ROLES)
        old.execute("CREATE SCHEMA gateway")
        old.execute(MIGRATIONS[0])
        old.execute("INSERT INTO gateway.meta VALUES ('schema_version', '1')")
    assert main(["team", "init", "--dsn", dsn, "--no-save"]) == 0
    assert f"updated from 1 to schema {SCHEMA_VERSION}" in capsys.readouterr().out
    assert main(["team", "init", "--dsn", dsn, "--no-save"]) == 0
    assert f"already at schema {SCHEMA_VERSION}" in capsys.readouterr().out
