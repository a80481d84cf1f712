"""What a maker, a checker or an admin is told when team mode cannot do what they asked: a
policy nobody set, a person without the maker role submitting, a submission number that does
not exist, a database owner that may not create logins, a batch summary nobody can read.
Against a real PostgreSQL server, through ``gateway-console``; nothing is sent or written."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import uuid4

import pytest

from console.cli import main
from console.cli.failures import EXIT_APPROVAL_REFUSED, EXIT_USAGE
from tests.helpers.batch_files import ACCOUNT_HEADER, account_row, write_csv
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import Cluster, TeamDatabase
from tests.helpers.team import FORM, accepted, payout_values

pytest.importorskip("psycopg")


def _as(monkeypatch: pytest.MonkeyPatch, dsn: str) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", dsn)


def _audit(db: TeamDatabase) -> list[str]:
    from console.core.team import connect

    with connect(db.dsn()) as owner:
        rows = owner.execute("SELECT actor, action, detail FROM gateway.audit ORDER BY id")
        return [" ".join(r) for r in rows.fetchall()]


def _connection(url: str, key_file: Path) -> list[str]:
    return ["--base-url", url, "--login", "merchant", "--endpoint-id", "1", "--key-file",
            str(key_file)]  # fmt: skip


def test_a_policy_belongs_to_a_registered_gateway_which_holds_everything_until_set(
    team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _as(monkeypatch, team_db.dsn("carol"))
    assert main(["team", "policy", "staging"]) == EXIT_USAGE  # nobody registered it
    assert "No gateway is registered as 'staging'" in capsys.readouterr().err
    _as(monkeypatch, team_db.dsn("root_admin"))
    assert main(["team", "policy", "staging", "--mode", "none"]) == EXIT_APPROVAL_REFUSED
    assert "no gateway is registered as staging (team gateway add)" in capsys.readouterr().err
    add = ["team", "gateway", "add", "staging", "--base-url", "https://staging.example/paynet",
           "--login", "acme", "--endpoint-id", "7"]  # fmt: skip
    assert main(add) == 0
    assert "every payout and recurring profile needs approval" in capsys.readouterr().out
    assert main(add) == EXIT_APPROVAL_REFUSED  # once
    assert "a gateway named staging is registered already" in capsys.readouterr().err
    assert main(["team", "policy", "staging", "--mode", "none", "--expiry-hours", "8"]) == 0
    assert capsys.readouterr().out == (
        "staging: no approval; pending submissions expire after 8:00:00.\n"
    )
    _as(monkeypatch, team_db.dsn("carol"))
    assert main(["team", "gateway", "list"]) == 0
    assert capsys.readouterr().out == (
        "staging  https://staging.example:443/paynet  acme  endpoint 7  no approval\n"
    )


def test_a_checker_who_is_not_a_maker_cannot_submit_and_nothing_is_sent(
    team_db: TeamDatabase,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = [account_row("n-1", "10.00"), account_row("n-2", "20.00")]
    path = write_csv(tmp_path / "pay.csv", rows, header=ACCOUNT_HEADER)
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _as(monkeypatch, team_db.dsn("root_admin"))
        add = ["team", "gateway", "add", "live", "--base-url", server.url, "--login",
               "merchant", "--endpoint-id", "1"]  # fmt: skip
        assert main(add) == 0
        fields = [f"-f{n}={v}" for n, v in payout_values("n-0").items()]
        send = ["send", "payout-check", *_connection(server.url, key_file), *fields]
        capsys.readouterr()
        assert main(send) == EXIT_APPROVAL_REFUSED  # an admin only, no maker either
        err = capsys.readouterr().err
        assert "Not submitted: root_admin is not a maker in the team database." in err
        _as(monkeypatch, team_db.dsn("bob"))  # a checker only
        assert main(send) == EXIT_APPROVAL_REFUSED
        err = capsys.readouterr().err
        assert "Not submitted: bob is not a maker in the team database." in err
        batch = ["batch", "run", str(path), *_connection(server.url, key_file)]
        assert main(batch) == EXIT_APPROVAL_REFUSED
        err = capsys.readouterr().err
        assert "Not submitted: bob is not a maker in the team database." in err
        assert "internal error" not in err
        assert server.received == []
    audit = _audit(team_db)
    assert "root_admin refused submit: not a maker" in audit
    assert "bob refused submit: not a maker" in audit
    assert "bob refused submit batch: not a maker" in audit
    _as(monkeypatch, team_db.dsn("carol"))
    assert main(["team", "pending"]) == 0
    assert "Nothing waits for approval." in capsys.readouterr().out


def test_sending_a_submission_that_does_not_exist_names_it(
    team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _as(monkeypatch, team_db.dsn("bob"))
    assert main(["team", "send", "42"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "There is no submission 42." in err
    assert "internal error" not in err


def test_add_user_says_the_database_owner_may_not_create_logins(
    pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A team database whose owner has no CREATEROLE (the group roles were made earlier by a
    superuser, for another team's database on the same server): its admin is told why a new
    login cannot be made, and nothing is."""
    from console.core.team import connect
    from console.core.team.storage.schema_sql import ROLES

    owner, newcomer = f"owner_{uuid4().hex[:8]}", f"frank_{uuid4().hex[:8]}"
    with connect(pg_cluster.dsn()) as superuser:
        superuser.execute(ROLES)  # the team's group roles, made by a superuser before
        superuser.execute(f"CREATE ROLE {owner} LOGIN NOCREATEROLE")
        superuser.execute(f"CREATE DATABASE {owner} OWNER {owner}")
        superuser.execute(f"GRANT gateway_admin TO {owner}")
    dsn = pg_cluster.dsn(owner, owner)
    assert main(["team", "init", "--dsn", dsn, "--no-save"]) == 0
    _as(monkeypatch, dsn)
    capsys.readouterr()
    assert main(["team", "add-user", newcomer, "--role", "maker"]) == EXIT_APPROVAL_REFUSED
    err = capsys.readouterr().err
    assert "Refused by the team database: permission denied to create role." in err
    assert "internal error" not in err
    with connect(pg_cluster.dsn()) as superuser:
        found = superuser.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (newcomer,))
        assert found.fetchall() == []


def test_a_batch_summary_nobody_can_read_is_listed_without_it(
    team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A maker submitting a batch from psql with a summary that is not the console's: the
    checker's list shows the batch, its rows and its maker, and no summary."""
    from console.core.team import connect

    rows = [{"client_orderid": "x-1", "amount": "5.00", "currency": "EUR",
             "receiver": "DE89...3000", "content_hash": "0" * 64}]  # fmt: skip
    with connect(team_db.dsn("alice")) as alice:
        for shown in ("not json", '["a list"]', '{"lines": 5}'):
            alice.execute(
                "SELECT gateway.submit_batch('prod', 'payout-check', %s, %s, %s::jsonb, false,"
                " 'pay.csv', 'http://127.0.0.1:1/api/v4/payout-check/1', 'merchant')",
                ("0" * 64, shown, json.dumps(rows)),
            )
    _as(monkeypatch, team_db.dsn("bob"))
    assert main(["team", "pending"]) == 0
    out, err = capsys.readouterr()
    listed = [line.split("  expires")[0] for line in out.splitlines()]
    assert listed == [f"#{n}  prod  batch  by alice" for n in (1, 2, 3)]
    assert err == ""
    assert main(["team", "pending", "--json"]) == 0
    batches = [s["batch"] for s in json.loads(capsys.readouterr().out)]
    assert batches == [{"rows": 1, "summary": []}] * 3
