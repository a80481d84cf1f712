"""``gateway-console team ...``: bad input is a usage error that names the field and writes
nothing; ``add-user`` says what it changed; ``team init`` upgrades a schema 3 database with
its audit trail chained. Against a real PostgreSQL server."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from console.cli import main
from console.cli.failures import EXIT_USAGE
from console.core.team.storage.schema_sql import SCHEMA_VERSION
from tests.helpers.postgres import TeamDatabase

pytest.importorskip("psycopg")


def _entries(db: TeamDatabase) -> int:
    from console.core.team import connect

    with connect(db.dsn()) as owner:
        return int(owner.execute("SELECT count(*) FROM gateway.audit").fetchone()[0])


@pytest.mark.parametrize(
    ("person", "args", "says"),
    [
        ("bob", ["approve", "99999999999999999999999"], "give the number `team pending` shows"),
        ("bob", ["send", "-3"], "give the number `team pending` shows"),
        ("bob", ["reject", "1", "--reason", "\udcff"], "--reason: it is not readable text"),
        ("bob", ["reject", "1", "--reason", "\x07"], "--reason: say in words why"),
        ("carol", ["audit", "--since", "99999999d"], "--since '99999999d': that is before"),
        ("carol", ["audit", "--since", "yesterday"], "--since 'yesterday': give an ISO"),
        ("carol", ["audit", "--verify", "--expect", "12"], "--expect '12': give the head"),
        ("root_admin", ["policy", "prod", "--mode", "all", "--expiry-hours", "1e308"], "hours"),
        ("root_admin", ["policy", "prod", "--mode", "all", "--expiry-hours", "-1"], "above 0"),
        ("root_admin", ["policy", "prod", "--mode", "all", "--expiry-hours", "nan"], "above 0"),
        ("root_admin", ["policy", "prod", "--mode", "above", "--above", "EUR=1e9"], "EUR=1000"),
        (
            "root_admin",
            ["policy", "prod", "--mode", "Above"],
            "mode must be one of none, all, above, not 'Above'",
        ),
        (
            "root_admin",
            ["add-user", "erin", "--role", "Maker"],
            "--role must be one of maker, checker, admin, sender, not 'Maker'",
        ),
    ],
)
def test_bad_input_is_a_usage_error_and_nothing_is_written(
    team_db: TeamDatabase,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    person: str,
    args: list[str],
    says: str,
) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn(person))
    before = _entries(team_db)
    assert main(["team", *args]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert says in err
    assert "internal error" not in err
    assert _entries(team_db) == before


def test_add_user_says_what_changed_and_names_maker_and_checker(
    team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("root_admin"))
    assert main(["team", "add-user", "alice", "--role", "checker"]) == 0
    said = capsys.readouterr().out
    assert "alice was a maker; now a checker and maker." in said
    assert "alice now both submits and approves" in said
    assert "REVOKE gateway_maker FROM alice" in said
    assert main(["team", "add-user", "alice", "--role", "maker"]) == 0
    assert "alice was already a checker and maker: nothing changed." in capsys.readouterr().out
    assert main(["team", "add-user", "erin", "--role", "checker"]) == 0
    said = capsys.readouterr().out
    assert "erin is a new login, now a checker." in said
    assert "both" not in said
    assert main(["team", "audit"]) == 0
    assert "alice is now checker,maker (was maker)" in capsys.readouterr().out
    from console.core.team import connect

    with connect(team_db.dsn()) as owner:  # roles are the cluster's: later tests' alice is a maker
        owner.execute("REVOKE gateway_checker FROM alice")


def test_team_init_upgrades_a_schema_3_database_and_chains_its_audit_trail(
    pg_cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from console.core.team import connect
    from console.core.team.storage.schema_sql import MIGRATIONS, ROLES

    name = f"team_from_v3_{uuid4().hex[:8]}"  # one of its own on a server tests share
    with connect(pg_cluster.dsn()) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    dsn = pg_cluster.dsn(db=name)
    with connect(dsn) as old:  # schema 3 in use: an admin, an audit trail, a submission waiting
        old.execute(ROLES)
        # the team has its admin (roles are the server's: whether another test named one
        # first must not decide whether init names its owner)
        old.execute("GRANT gateway_admin TO postgres")
        old.execute("CREATE SCHEMA gateway")
        for migration in MIGRATIONS[:3]:
            old.execute(migration)
        old.execute("INSERT INTO gateway.meta VALUES ('schema_version', '3')")
        for n in range(3):
            old.execute("SELECT gateway.log('policy', NULL, NULL, 'prod', %s)", (f"step {n}",))
        old.execute(
            "SELECT gateway.submit('prod', 'payout-check', 'p-1', '25.00', 'USD', 'x', %s,"
            " '[]', NULL, false)",
            ("a" * 64,),
        )
    assert main(["team", "init", "--dsn", dsn, "--no-save"]) == 0
    assert f"updated from 3 to schema {SCHEMA_VERSION}" in capsys.readouterr().out
    assert main(["team", "audit", "--verify", "--dsn", dsn]) == 0
    # 3 steps, the submit, and the upgrades that say so (schemas 4, 6 and 7)
    assert "intact: 7 entries" in capsys.readouterr().out
    with connect(dsn) as upgraded:
        state, reason = upgraded.execute("SELECT state, reason FROM gateway.submissions").fetchone()
    assert (state, reason) == ("expired", "the team database was upgraded before it was sent: "
                               "submit it again")  # fmt: skip
