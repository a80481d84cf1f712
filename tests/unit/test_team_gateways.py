"""The team's gateways, as an insider tries to go around their approval policy: the same
gateway under another environment's name or another spelling of its address, a gateway the
team never registered, and a journal row written in psql under a maker's login. Against a
real PostgreSQL server, through ``gateway-console`` and psql; nothing reaches the gateway."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.failures import (
    EXIT_APPROVAL_REFUSED,
    EXIT_SUBMITTED,
    EXIT_UNREGISTERED_GATEWAY,
)
from console.core.errors import SendRefusedError
from console.core.gateway_identity import gateway_identity
from console.core.pipeline import Decision
from console.core.team import Approvals, TeamJournal, connect
from console.core.team.approvals.registry import GatewayRegistry
from console.core.team.errors import UnregisteredGatewayError
from tests.helpers.batch_files import ACCOUNT_HEADER, account_row, write_csv
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, accepted, payout_values, pipeline, prepared_payout

psycopg = pytest.importorskip("psycopg")


def _as(monkeypatch: pytest.MonkeyPatch, db: TeamDatabase, person: str) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", db.dsn(person))


def _connection(url: str, key_file: Path) -> list[str]:
    return ["--base-url", url, "--login", "merchant", "--endpoint-id", "1", "--key-file",
            str(key_file)]  # fmt: skip


def _send(url: str, key_file: Path, order: str = "p-1", **fields: str) -> list[str]:
    values = payout_values(order, **fields)
    return ["send", "payout-check", *_connection(url, key_file),
            *[f"-f{n}={v}" for n, v in values.items()]]  # fmt: skip


def _audit(db: TeamDatabase) -> list[str]:
    with connect(db.dsn()) as owner:
        rows = owner.execute("SELECT actor, action, detail FROM gateway.audit ORDER BY id")
        return [" ".join(r) for r in rows.fetchall()]


def _live(monkeypatch: pytest.MonkeyPatch, db: TeamDatabase, url: str) -> None:
    """As printed in docs/team.md: the admin registers "live" and holds every payout."""
    _as(monkeypatch, db, "root_admin")
    add = ["team", "gateway", "add", "live", "--base-url", f"{url}/paynet/", "--login",
           "merchant", "--endpoint-id", "1"]  # fmt: skip
    assert main(add) == 0
    assert main(["team", "policy", "live", "--mode", "all"]) == 0


def test_the_same_gateway_spelled_otherwise_is_held_by_its_policy(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The policy is the gateway's: `send --base-url` with another spelling of live's address
    (another loopback name, a port written out, slashes, case) is held all the same."""
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _live(monkeypatch, team_db, server.url.replace("127.0.0.1", "localhost"))
        _as(monkeypatch, team_db, "alice")
        capsys.readouterr()
        copy = server.url.replace("http://", "HTTP://") + "//paynet/./"
        assert main(_send(copy, key_file, amount="9999.00")) == EXIT_SUBMITTED
        err = capsys.readouterr().err
        assert "The approval policy of the gateway live" in err
        # an environment of its own name for the same gateway: held all the same
        copy_env = ["env", "add", "live-copy", "--kind", "sandbox", "--base-url",
                    f"{server.url}/paynet/", "--login", "merchant",
                    "--endpoint-id", "1"]  # fmt: skip
        assert main(copy_env) == 0
        values = [f"-f{n}={v}" for n, v in payout_values("p-2", amount="9999.00").items()]
        by_env = ["send", "payout-check", "--env", "live-copy", "--key-file", str(key_file)]
        assert main([*by_env, *values]) == EXIT_SUBMITTED
        assert "The approval policy of the gateway live" in capsys.readouterr().err
        assert server.received == []


def test_a_send_around_the_policy_under_another_environment_name_is_refused(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The send pipeline of an environment "live-copy" (the window's, a batch row's): the
    journal refuses the payout the policy of live holds back, whatever the name."""
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _live(monkeypatch, team_db, server.url)
        with TeamJournal(team_db.dsn("alice")) as alice:
            copy = pipeline(alice, "live-copy", production=False)
            payout = prepared_payout(f"{server.url}/paynet", rsa_key, amount="9999.00")
            with pytest.raises(SendRefusedError, match="holds this payout-check back"):
                copy.send(payout, Decision(production_confirmed=True))
            assert alice.fetch() == []
        assert server.received == []
    assert any("send without approval: p-1 (the policy of live)" in a for a in _audit(team_db))


def test_a_gateway_the_team_has_not_registered_gets_nothing(
    team_db: TeamDatabase,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """send, batch run, team send: refused with exit 19 before anything is asked, written or
    sent; a sandbox on this computer stays allowed."""
    _as(monkeypatch, team_db, "alice")
    far = "https://192.0.2.7/paynet"  # not this computer, never registered
    assert main(_send(far, key_file, amount="9999.00")) == EXIT_UNREGISTERED_GATEWAY
    err = capsys.readouterr().err
    assert "the team has not registered the gateway https://192.0.2.7:443/paynet/api/v4/" in err
    assert "team gateway add" in err
    path = write_csv(tmp_path / "pay.csv", [account_row("b-1", "10.00")], header=ACCOUNT_HEADER)
    batch = ["batch", "run", str(path), *_connection(far, key_file), "--yes"]
    assert main(batch) == EXIT_UNREGISTERED_GATEWAY
    assert "has not registered the gateway" in capsys.readouterr().err
    with TeamJournal(team_db.dsn("alice")) as alice:
        assert alice.fetch() == []
    with serve(lambda r: Reply(200, accepted(), FORM)) as sandbox:  # this computer
        assert main(_send(sandbox.url, key_file, order="local-1")) == 0
        assert len(sandbox.received) == 1


def test_the_core_refuses_an_unregistered_gateway_before_the_journal_row(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Whichever front sends (a pipeline with no hold rule at all): nothing is written."""
    with TeamJournal(team_db.dsn("alice")) as alice:
        bare = pipeline(alice, "anything", production=False)
        with pytest.raises(UnregisteredGatewayError, match="has not registered"):
            bare.send(prepared_payout("https://192.0.2.7", rsa_key), Decision(True))
        assert alice.fetch() == []


INSERT = (
    "INSERT INTO gateway.requests (created, environment, command, url, gateway,"
    " client_orderid, amount, currency, outcome) VALUES (1, %(env)s, 'payout-check', %(url)s,"
    " %(gateway)s, 'p-9', '9999.00', 'USD', 'pending') RETURNING id"
)


def test_psql_under_a_makers_login_gets_no_row_around_the_policy(
    team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack of the issue: a journal row under environment `LIVE` with 9,999.00 and no
    submission. The database finds the gateway from the row's own URL."""
    _live(monkeypatch, team_db, "https://live.example")
    request = "https://live.example/paynet/api/v4/payout-check/1"
    honest = gateway_identity(request, "merchant")
    spellings = [
        request,
        "HTTPS://Live.Example.:443//paynet/./api/v4/payout-check/1/",
        "https://someone@live.example/paynet/api/v4/payout-check/1?x=1#y",
        "https://live.example/paynet/api/v4/%70ayout-check/1",
    ]
    with connect(team_db.dsn("alice")) as sql:
        for url in spellings:
            for env in ("LIVE", "live-copy", "sandbox"):
                row = {"env": env, "url": url, "gateway": honest}
                assert sql.execute(INSERT, row).fetchone() is None  # held back: not written
        # the gateway column says another one (an unregistered sandbox): refused
        for lie in (None, "http://localhost/x merchant", honest.replace("live", "other")):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="not the one its"):
                sql.execute(INSERT, {"env": "LIVE", "url": request, "gateway": lie})
        # an address the database cannot read, or a gateway the team never registered
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match=r"cannot read|not one"):
            sql.execute(INSERT, {"env": "LIVE", "url": "https://lïve.example/x", "gateway": "x"})
        far = "https://192.0.2.7/paynet/api/v4/payout-check/1"
        row = {"env": "LIVE", "url": far, "gateway": gateway_identity(far, "merchant")}
        assert sql.execute(INSERT, row).fetchone() is None
        assert sql.execute("SELECT count(*) FROM gateway.requests").fetchone()[0] == 0
    audit = _audit(team_db)
    assert sum("send without approval: p-9 (the policy of live)" in a for a in audit) == 12
    assert any("send to a gateway the team has not registered" in a for a in audit)


def test_a_new_gateway_holds_every_payout_until_its_policy_is_set(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        added = GatewayRegistry(admin).add(
            "acme", base_url="https://Gatewäy.example/paynet/", login="acme", endpoint_id="5"
        )
    assert (added.identity, added.mode) == ("https://xn--gatewy-fua.example:443/paynet", "all")
    payout = prepared_payout("https://xn--gatewy-fua.example/paynet", rsa_key)
    with TeamJournal(team_db.dsn("alice")) as alice:
        assert not Approvals(alice).needs_approval(payout)  # signed for "merchant": not acme
        other = prepare_as(payout, rsa_key, login="acme")
        assert Approvals(alice).needs_approval(other)


def prepare_as(like: Any, key: rsa.RSAPrivateKey, *, login: str) -> Any:
    from console.core.prepared import prepare

    return prepare(
        "payout-check", dict(like.params), base_url=like.url.split("/api/")[0], login=login,
        private_key=key, endpoint_id="5",
    )  # fmt: skip


def test_only_an_admin_registers_a_gateway_and_it_is_audited(
    team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _as(monkeypatch, team_db, "alice")
    add = ["team", "gateway", "add", "mine", "--base-url", "https://192.0.2.7/paynet",
           "--login", "merchant", "--endpoint-id", "1"]  # fmt: skip
    assert main(add) == EXIT_APPROVAL_REFUSED
    assert "only an admin may register a gateway" in capsys.readouterr().err
    _as(monkeypatch, team_db, "root_admin")
    assert main([*add[:-2], "--group-id", "3"]) == 0
    assert main([*add[:-2]]) != 0  # neither endpoint nor group
    assert "--endpoint-id or --group-id" in capsys.readouterr().err
    assert any("alice refused gateway add: not an admin" in a for a in _audit(team_db))
    assert any("root_admin gateway registered https://192.0.2.7/paynet" in a
               for a in _audit(team_db))  # fmt: skip


def test_an_internationalised_gateway_is_one_gateway_to_the_teams_guard(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Accepted through gatewäy.example, the same id is refused through xn--gatewy-fua."""
    from console.core.pipeline import RefusedError, Seen
    from tests.helpers.history_data import answered

    with TeamJournal(team_db.dsn("root_admin")) as admin:
        GatewayRegistry(admin).add(
            "idn", base_url="https://xn--gatewy-fua.example/paynet", login="merchant",
            endpoint_id="1",
        )  # fmt: skip
        GatewayRegistry(admin).set_policy("idn", "none")
    unicode = prepared_payout("https://gatewäy.example/paynet", rsa_key, order="idn-1")
    with TeamJournal(team_db.dsn("alice")) as alice:
        hooks = alice.journal("unicode")
        hooks.after_answer(hooks.before_send(unicode), answered(unicode, "type=async-response"))
        assert alice.fetch()[0].url.startswith("https://xn--gatewy-fua.example/paynet/")
    again = prepared_payout("https://xn--gatewy-fua.example/paynet", rsa_key, order="idn-1")
    with TeamJournal(team_db.dsn("dave")) as dave:
        other = pipeline(dave, "ascii", production=False)
        assert other.check(again).verdict.seen is Seen.ACCEPTED
        with pytest.raises(RefusedError, match="accepted"):
            other.send(again, Decision(production_confirmed=True))


def test_an_approved_payout_is_not_sent_through_an_unregistered_address(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """team approve / team send with connection options naming another gateway: exit 19,
    and the approval stays usable for the registered one."""
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _live(monkeypatch, team_db, server.url)
        _as(monkeypatch, team_db, "alice")
        assert main(_send(f"{server.url}/paynet", key_file)) == EXIT_SUBMITTED
        _as(monkeypatch, team_db, "bob")
        far = _connection("https://192.0.2.7/paynet", key_file)
        assert main(["team", "approve", "1", *far]) == EXIT_UNREGISTERED_GATEWAY
        assert main(["team", "send", "1", *far]) == EXIT_UNREGISTERED_GATEWAY
        assert "has not registered the gateway" in capsys.readouterr().err
        with TeamJournal(team_db.dsn("carol")) as carol:
            assert Approvals(carol).submission(1).state == "approved"
        near = _connection(f"{server.url}/paynet", key_file)
        assert main(["team", "send", "1", *near]) == 0
        assert len(server.received) == 1


def test_an_upgrade_keeps_environment_policies_aside_and_lets_nothing_out_unheld(
    pg_cluster: Any, key_file: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A team at schema 5 held acme-live's payouts above 1000 EUR by its environment's
    name. After `team init`: nothing goes to that gateway until it is registered, and
    registered under that name it takes that policy."""
    import time

    from console.core.team import initialise
    from console.core.team.storage import schema as team_schema

    name = f"team_v5_{int(time.time() * 1000)}"
    with connect(pg_cluster.dsn()) as owner:
        owner.execute(f"CREATE DATABASE {name}")
    dsn = pg_cluster.dsn("postgres", name)
    with monkeypatch.context() as old:
        old.setattr(team_schema, "MIGRATIONS", team_schema.MIGRATIONS[:5])
        old.setattr(team_schema, "SCHEMA_VERSION", 5)
        with connect(dsn) as conn:
            initialise(conn)
            conn.execute(
                "SELECT gateway.set_policy('acme-live', 'above', '{\"EUR\": \"1000.00\"}',"
                " interval '8 hours')"
            )
    assert main(["team", "init", "--dsn", dsn, "--no-save"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "updated from 5 to schema" in said
    assert "not used any more: acme-live (above)" in said
    assert "nothing held before goes out unheld" in said
    with connect(dsn) as conn, pytest.raises(psycopg.errors.FeatureNotSupported):
        conn.execute("SELECT gateway.needs_approval('acme-live', 'payout-check', '5', 'EUR')")
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", dsn)
    live = "https://192.0.2.7/paynet"
    assert main(_send(live, key_file, amount="5000.00")) == EXIT_UNREGISTERED_GATEWAY
    add = ["team", "gateway", "add", "acme-live", "--base-url", live, "--login", "merchant",
           "--endpoint-id", "1"]  # fmt: skip
    assert main(add) == 0
    assert "approval above 1000.00 EUR" in capsys.readouterr().out
    assert main(["team", "policy", "acme-live"]) == 0
    assert "expire after 8:00:00" in capsys.readouterr().out


def test_an_approval_for_one_gateway_covers_no_row_for_another(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Alice claims her payout approved for the sandbox gateway and writes, in psql, the
    same amount, receiver and hash to live: refused, the approval names its gateway."""
    from console.core.team.approvals.approval import approved_row
    from tests.helpers.team import register_policy

    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "sandbox", "all", base_url="https://sandbox.example")
        register_policy(admin, "live", "all", base_url="https://live.example")
    approved = prepared_payout("https://sandbox.example", rsa_key, amount="25.00")
    with TeamJournal(team_db.dsn("alice")) as alice:
        sid = Approvals(alice).submit("prod", approved).id
        key = alice.hash_key
    with TeamJournal(team_db.dsn("bob")) as bob:
        Approvals(bob).approve(sid)
    live = prepared_payout("https://live.example", rsa_key, amount="25.00")
    row = approved_row("prod", approved, key) | {"sid": sid, "url": live.url,
                                                 "gateway": live.gateway}  # fmt: skip
    insert = (
        "INSERT INTO gateway.requests (created, environment, command, url, gateway,"
        " client_orderid, amount, currency, receiver, content_hash, outcome, submission_id)"
        " VALUES (1, 'prod', 'payout-check', %(url)s, %(gateway)s, %(client_orderid)s,"
        " %(amount)s, %(currency)s, %(receiver)s, %(content_hash)s, 'pending', %(sid)s)"
    )
    with connect(team_db.dsn("alice")) as sql:
        assert (
            sql.execute("SELECT gateway.claim(%s, %s)", (sid, row["content_hash"])).fetchone()[0]
            == "ok"
        )
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="not claimed"):
            sql.execute(insert, row)


def test_an_upgrade_expires_submissions_that_name_no_gateway(
    pg_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from console.core.team import initialise
    from console.core.team.storage import schema as team_schema

    name = f"team_v5s_{int(time.time() * 1000)}"
    with connect(pg_cluster.dsn()) as owner:
        owner.execute(f"CREATE DATABASE {name}")
    dsn = pg_cluster.dsn("postgres", name)
    with monkeypatch.context() as old:
        old.setattr(team_schema, "MIGRATIONS", team_schema.MIGRATIONS[:5])
        old.setattr(team_schema, "SCHEMA_VERSION", 5)
        with connect(dsn) as conn:
            initialise(conn)
            # a maker of its own (roles are the cluster's: no other test's role changes)
            conn.execute(
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'v5_maker')"
                " THEN CREATE ROLE v5_maker LOGIN; END IF; END $$"
            )
            conn.execute("GRANT gateway_maker TO v5_maker")
        with connect(pg_cluster.dsn("v5_maker", name)) as maker:
            maker.execute(
                "SELECT gateway.submit('prod', 'payout-check', 'p-1', '25.00', 'USD', 'x',"
                " %s, '[]', NULL, false)",
                ("a" * 64,),
            )
    with connect(dsn) as conn:
        initialise(conn)
        state, reason = conn.execute("SELECT state, reason FROM gateway.submissions").fetchone()
    assert state == "expired"
    assert "upgraded (schema 6) before it was sent: submit it again" in reason
