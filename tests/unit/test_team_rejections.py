"""A rejection is not undone by asking again: the same payout (its request, or only its
client_orderid) or the same batch file submitted after a checker rejected it tells the maker
who rejected it, when and why, and goes in again only with ``--after-rejection``, shown to
the checkers and written in the audit trail. Against a real PostgreSQL server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import EXIT_APPROVAL_REFUSED, EXIT_SUBMITTED
from console.core.team import Approvals, TeamJournal, connect
from tests.helpers.batch_files import ACCOUNT_HEADER, account_row, write_csv
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, accepted, payout_values

psycopg = pytest.importorskip("psycopg")


def _as(monkeypatch: pytest.MonkeyPatch, db: TeamDatabase, person: str) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", db.dsn(person))


def _connection(url: str, key_file: Path) -> list[str]:
    return ["--base-url", url, "--login", "merchant", "--endpoint-id", "1", "--key-file",
            str(key_file)]  # fmt: skip


def _send(url: str, key_file: Path, order: str = "p-2", **fields: str) -> list[str]:
    values = payout_values(order, **fields)
    return ["send", "payout-check", *_connection(url, key_file),
            *[f"-f{n}={v}" for n, v in values.items()]]  # fmt: skip


def _live(monkeypatch: pytest.MonkeyPatch, db: TeamDatabase, url: str) -> None:
    _as(monkeypatch, db, "root_admin")
    add = ["team", "gateway", "add", "live", "--base-url", url, "--login", "merchant",
           "--endpoint-id", "1"]  # fmt: skip
    assert main(add) == 0


def _audit(db: TeamDatabase) -> list[str]:
    with connect(db.dsn()) as owner:
        rows = owner.execute("SELECT actor, action, detail FROM gateway.audit ORDER BY id")
        return [" ".join(r) for r in rows.fetchall()]


def test_a_rejected_payout_submitted_again_says_who_rejected_it_and_needs_saying_so(
    team_db: TeamDatabase,
    key_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _live(monkeypatch, team_db, server.url)
        _as(monkeypatch, team_db, "alice")
        assert main(_send(server.url, key_file)) == EXIT_SUBMITTED
        _as(monkeypatch, team_db, "bob")
        assert main(["team", "reject", "1", "--reason", "wrong month"]) == 0
        capsys.readouterr()

        _as(monkeypatch, team_db, "alice")
        for again in (_send(server.url, key_file), _send(server.url, key_file, amount="11.00")):
            assert main(again) == EXIT_APPROVAL_REFUSED  # the same request, or the same id
            err = " ".join(capsys.readouterr().err.split())
            assert "Not submitted: The same request #1 was rejected before by bob at " in err
            assert ": wrong month." in err
            assert "--after-rejection" in err
        with TeamJournal(team_db.dsn("carol")) as carol:
            assert [s.id for s in Approvals(carol).pending()] == []

        assert main([*_send(server.url, key_file), "--after-rejection"]) == EXIT_SUBMITTED
        assert "Submitted for approval as #2" in capsys.readouterr().err
        _as(monkeypatch, team_db, "carol")  # another checker sees it
        assert main(["team", "pending"]) == 0
        shown = capsys.readouterr().out
        assert "#2  command line" in shown
        assert "! #1 was rejected before by bob at " in shown
        assert ": wrong month; alice submitted it again" in shown
        assert server.received == []
    assert any(
        a.startswith("alice submit payout-check p-2")
        and "after the rejection of #1 by bob: wrong month" in a
        for a in _audit(team_db)
    )


def test_psql_under_the_makers_login_cannot_submit_a_rejected_request_again_unseen(
    team_db: TeamDatabase, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _live(monkeypatch, team_db, server.url)
        _as(monkeypatch, team_db, "alice")
        assert main(_send(server.url, key_file)) == EXIT_SUBMITTED
    with TeamJournal(team_db.dsn("bob")) as bob:
        Approvals(bob).reject(1, "wrong month")
    with connect(team_db.dsn("alice")) as sql:
        digest = sql.execute("SELECT content_hash FROM gateway.submissions").fetchone()[0]
        call = (
            "SELECT gateway.submit('x', 'payout-check', %s, '10.50', 'USD', NULL, %s, '[]',"
            " NULL, false, 'http://127.0.0.1:1/api/v4/payout-check/1', 'merchant')"
        )
        for order, hashed in (("p-2", "0" * 64), ("other", digest)):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="rejected before"):
                sql.execute(call, (order, hashed))
        # without the address it goes to: no submission at all
        bare = call.replace("'http://127.0.0.1:1/api/v4/payout-check/1'", "NULL")
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="names the address"):
            sql.execute(bare, ("p-new", "2" * 64))


def test_a_batch_file_run_again_after_its_rejection_needs_saying_so(
    team_db: TeamDatabase,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = [account_row("b-1", "10.00"), account_row("b-2", "20.00")]
    path = write_csv(tmp_path / "pay.csv", rows, header=ACCOUNT_HEADER)
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _live(monkeypatch, team_db, server.url)
        run = ["batch", "run", str(path), *_connection(server.url, key_file)]
        _as(monkeypatch, team_db, "alice")
        assert main(run) == EXIT_SUBMITTED
        with TeamJournal(team_db.dsn("bob")) as bob:
            Approvals(bob).reject(1, "wrong month")
        capsys.readouterr()
        assert main(run) == EXIT_APPROVAL_REFUSED
        err = " ".join(capsys.readouterr().err.split())
        assert "#1 was rejected before by bob at " in err
        assert ": wrong month" in err
        # one row of the rejected batch, sent on its own: the same
        assert main(_send(server.url, key_file, order="b-1")) == EXIT_APPROVAL_REFUSED
        assert "#1 was rejected before by bob" in capsys.readouterr().err
        assert main([*run, "--after-rejection"]) == EXIT_SUBMITTED
        assert "Submitted for approval as #2" in capsys.readouterr().err
        _as(monkeypatch, team_db, "carol")
        assert main(["team", "pending", "--json"]) == 0
        (pending,) = json.loads(capsys.readouterr().out)
        assert pending["rejected_before"].startswith("#1 was rejected before by bob at ")
        assert server.received == []
