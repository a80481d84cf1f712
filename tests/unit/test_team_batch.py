"""``batch run`` in team mode, against a real PostgreSQL server: one approval for the whole
batch (bound to every row's request), each row sent once, a changed file needs a new
approval, card rows only from the console that waits."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.failures import EXIT_SUBMITTED, EXIT_USAGE
from console.core.team import Approvals, TeamJournal, connect
from console.core.team.approvals.approval import approved_row
from console.core.team.storage.gateways import Target
from tests.helpers.batch_files import ACCOUNT_HEADER, PAN, account_row, card_file, write_csv
from tests.helpers.http_server import Received, Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, accepted, prepared_payout, register_policy

pytest.importorskip("psycopg")


def _accept(request: Received) -> Reply:
    order = parse_qs(request.body.decode())["client_orderid"][0]
    return Reply(200, accepted(order, str(abs(hash(order)) % 10**8)), FORM)


def _run(path: Path, url: str, key_file: Path, *more: str) -> list[str]:
    return [
        "batch", "run", str(path), "--base-url", url, "--login", "merchant",
        "--endpoint-id", "1", "--key-file", str(key_file), *more,
    ]  # fmt: skip


def _as(monkeypatch: pytest.MonkeyPatch, db: TeamDatabase, person: str) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", db.dsn(person))


def _policy(db: TeamDatabase, url: str, mode: str, **limits: str) -> None:
    with TeamJournal(db.dsn("root_admin")) as admin:
        register_policy(admin, f"command line ({url.split('//')[1]})", mode, limits)


def test_a_batch_is_approved_as_a_whole_and_each_row_is_sent_once(
    team_db: TeamDatabase,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    small = write_csv(
        tmp_path / "small.csv",
        [account_row("s-1", "40.00"), account_row("s-2", "40.00")],
        header=ACCOUNT_HEADER,
    )
    big = write_csv(
        tmp_path / "big.csv",
        [account_row("b-1", "40.00"), account_row("b-2", "45.50"), account_row("b-3", "40.00")],
        header=ACCOUNT_HEADER,
    )
    with serve(_accept) as server:
        _policy(team_db, server.url, "above", USD="100.00")
        _as(monkeypatch, team_db, "alice")
        assert main(_run(small, server.url, key_file)) == 0  # 80.00 USD in all: no approval
        assert len(server.received) == 2
        # every row is below the threshold, the batch's total is not
        assert main(_run(big, server.url, key_file)) == EXIT_SUBMITTED
        assert "Submitted for approval as #1" in capsys.readouterr().err
        assert len(server.received) == 2
        assert main(_run(big, server.url, key_file)) == EXIT_SUBMITTED  # not submitted twice
        assert "Batch #1 waits for a checker" in capsys.readouterr().err

        _as(monkeypatch, team_db, "bob")
        assert main(["team", "pending"]) == 0
        pending = capsys.readouterr().out
        assert "#1" in pending
        assert "#2" not in pending
        for line in (
            "batch  by alice",
            "3 payouts from big.csv",
            "Total USD: 125.50 in 3 payouts",
            "Largest USD payout: 45.50 USD (row 3",
        ):
            assert line in pending
        assert main(["team", "pending", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)[0]["batch"]["rows"] == 3
        assert main(["team", "approve", "1"]) == 0
        assert "It is a batch" in capsys.readouterr().err
        assert main(["team", "send", "1"]) == EXIT_USAGE  # a batch is not one request
        assert len(server.received) == 2

        _as(monkeypatch, team_db, "alice")
        assert main(_run(big, server.url, key_file)) == 0
        assert "Batch #1 approved by bob; sending." in capsys.readouterr().err
        assert len(server.received) == 5
        assert main(_run(big, server.url, key_file)) == 0  # again: nothing left, nothing asked
        assert len(server.received) == 5
    with TeamJournal(team_db.dsn("carol")) as carol:
        rows = [r for r in carol.fetch() if r.client_orderid.startswith("b-")]
        assert sorted(r.client_orderid for r in rows) == ["b-1", "b-2", "b-3"]
        assert {carol.people([r.id])[r.id] for r in rows} == {("alice", "bob")}
        approvals = Approvals(carol)
        assert approvals.submission(1).state == "sent"
        assert approvals.pending() == []
        assert ("batch", "3 of 3 rows sent") in [(a.action, a.detail) for a in approvals.audit()]


def test_a_changed_batch_file_needs_a_new_approval(
    team_db: TeamDatabase,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = [account_row("c-1", "10.00"), account_row("c-2", "20.00")]
    path = write_csv(tmp_path / "pay.csv", rows, header=ACCOUNT_HEADER)
    with serve(_accept) as server:
        _policy(team_db, server.url, "all")
        _as(monkeypatch, team_db, "alice")
        assert main(_run(path, server.url, key_file)) == EXIT_SUBMITTED
        with TeamJournal(team_db.dsn("bob")) as bob:
            Approvals(bob).approve(1)
        write_csv(
            path,
            [account_row("c-1", "10.00"), account_row("c-2", "2000.00")],
            header=ACCOUNT_HEADER,
        )
        capsys.readouterr()
        assert main(_run(path, server.url, key_file)) == EXIT_SUBMITTED
        assert "Submitted for approval as #2" in capsys.readouterr().err
        assert server.received == []
        with TeamJournal(team_db.dsn("bob")) as bob:
            assert [s.id for s in Approvals(bob).pending()] == [2]
        write_csv(path, rows, header=ACCOUNT_HEADER)  # the file as approved
        assert main(_run(path, server.url, key_file)) == 0
        assert len(server.received) == 2
        assert "2000.00" not in b"".join(r.body for r in server.received).decode()


def test_card_rows_are_run_by_the_console_that_waits_for_the_approval(
    team_db: TeamDatabase,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = card_file(tmp_path / "cards.csv", 3, "k")

    def checker() -> None:
        with TeamJournal(team_db.dsn("bob")) as bob:
            assert bob.wait_for(lambda: bool(Approvals(bob).pending()), timeout=10)
            waiting = Approvals(bob).pending()[0]
            assert waiting.card_data
            assert waiting.batch_rows == 3
            Approvals(bob).approve(waiting.id)

    with serve(_accept) as server:
        _policy(team_db, server.url, "all")
        _as(monkeypatch, team_db, "alice")
        assert main(_run(path, server.url, key_file)) == EXIT_USAGE
        assert "--wait SECONDS" in capsys.readouterr().err
        with TeamJournal(team_db.dsn("bob")) as bob:
            assert Approvals(bob).pending() == []  # nothing was stored
        bob = threading.Thread(target=checker)
        bob.start()
        assert main(_run(path, server.url, key_file, "--wait", "10")) == 0
        bob.join(timeout=10)
        assert len(server.received) == 3
        assert all(PAN in r.body.decode() for r in server.received)
    assert "approved by bob; sending." in capsys.readouterr().err
    with connect(team_db.dsn()) as owner:  # the shared database never saw a card number
        for table in ("submissions", "requests", "request_details", "audit"):
            dump = json.dumps(
                owner.execute(f"SELECT json_agg(t) FROM gateway.{table} t").fetchone()[0]
            )
            assert PAN not in dump, table


def test_the_database_lets_each_row_of_a_claimed_batch_through_once(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """With psql as the batch's sender: a row outside the batch, or a row twice, is refused."""
    psycopg = pytest.importorskip("psycopg")
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all", base_url="https://gw.example")
    rows = {
        order: prepared_payout("https://gw.example", rsa_key, order=order, amount="5.00")
        for order in ("r-1", "r-2", "r-9")
    }
    with TeamJournal(team_db.dsn("alice")) as alice:
        sid = Approvals(alice).submit_batch(
            "prod", "payout-check", "f" * 64, {"lines": []}, [rows["r-1"], rows["r-2"]],
            card_data=False, source="pay.csv", target=Target.of(rows["r-1"]),
        )  # fmt: skip
        key = alice.hash_key
    with TeamJournal(team_db.dsn("bob")) as bob:
        Approvals(bob).approve(sid)
    insert = (
        "INSERT INTO gateway.requests (created, environment, command, url, gateway,"
        " client_orderid, amount, currency, receiver, content_hash, outcome, submission_id)"
        " VALUES (1, 'prod', 'payout-check', %(url)s, %(gateway)s, %(client_orderid)s,"
        " %(amount)s, %(currency)s, %(receiver)s, %(content_hash)s, 'pending', %(sid)s)"
    )

    def row(order: str) -> dict[str, object]:
        where = {"url": rows[order].url, "gateway": rows[order].gateway}
        return approved_row("prod", rows[order], key) | {"sid": sid} | where

    with connect(team_db.dsn("alice")) as sql:
        assert sql.execute("SELECT gateway.claim(%s, %s)", (sid, "f" * 64)).fetchone()[0] == "ok"
        sql.execute(insert, row("r-1"))
        for order in ("r-1", "r-9"):  # again, and not in the batch
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="not claimed"):
                sql.execute(insert, row(order))
        sql.execute(insert, row("r-2"))
        assert sql.execute("SELECT gateway.end_claim(%s, '')", (sid,)).fetchone()[0] == "sent"
    with TeamJournal(team_db.dsn("carol")) as carol:
        assert Approvals(carol).submission(sid).rows_sent == 2


def test_one_currency_over_its_threshold_holds_a_mixed_currency_batch(
    team_db: TeamDatabase,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def in_eur(row: list[str]) -> list[str]:
        return [*row[:2], "EUR", *row[3:]]

    rows = [
        account_row("m-1", "60.00"),
        in_eur(account_row("m-2", "10.00")),
        account_row("m-3", "60.00"),
    ]
    path = write_csv(tmp_path / "mixed.csv", rows, header=ACCOUNT_HEADER)
    with serve(_accept) as server:
        # USD 120.00 is above its threshold, EUR 10.00 is not: the batch waits all the same
        _policy(team_db, server.url, "above", USD="100.00", EUR="1000.00")
        _as(monkeypatch, team_db, "alice")
        assert main(_run(path, server.url, key_file)) == EXIT_SUBMITTED
        assert "Submitted for approval as #1" in capsys.readouterr().err
        assert server.received == []


def test_stopping_an_approved_batch_leaves_the_rest_unsent_and_says_so_in_the_audit(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    """The window's Stop on a batch running on its approval (it gets the runner when the
    run starts): the rows after the one in flight are not sent, and the audit trail says
    how many rows went and why the rest did not."""
    from console.core import batch as core
    from console.core.team.approvals.held_batch import hold_batch
    from tests.helpers.team import pipeline

    path = write_csv(
        tmp_path / "stop.csv",
        [account_row(f"st-{i}", "10.00") for i in (1, 2, 3)],
        header=ACCOUNT_HEADER,
    )
    with serve(_accept) as server:
        environment = f"command line ({server.url.split('//')[1]})"
        _policy(team_db, server.url, "all")
        conn = {"base_url": server.url, "login": "merchant", "endpoint_id": "1",
                "private_key": rsa_key}  # fmt: skip
        with TeamJournal(team_db.dsn("alice")) as alice:
            sends = pipeline(alice, environment, production=False)
            validation = core.check_batch(
                core.read_batch(path), lambda oid: sends.verdict(core.COMMAND, oid)
            )
            plan = core.Plan(
                validation, environment, False, core.limits_for(environment, production=False)
            )
            held = hold_batch(sends, conn, plan)
            assert held is not None
            awaiting = held.submit(waiting=False)
            with TeamJournal(team_db.dsn("bob")) as bob:
                Approvals(bob).approve(awaiting.id)
            running: list[core.BatchRunner] = []
            report = awaiting.run(
                concurrency=1,
                on_start=running.append,
                on_row=lambda _result, _progress: running[0].stop(),  # Stop after row 1
            )
            assert report.stopped == "Stopped: the rest was not sent."
            assert [r.checked.row.values["client_orderid"] for r in report.results] == ["st-1"]
            assert len(server.received) == 1
            approvals = Approvals(alice)
            assert approvals.submission(awaiting.id).state == "sent"
            assert (
                "batch",
                "1 of 3 rows sent; Stopped: the rest was not sent.",
            ) in [(a.action, a.detail) for a in approvals.audit()]


def test_a_total_above_the_threshold_by_a_third_decimal_is_held(
    team_db: TeamDatabase,
    key_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def in_bhd(order: str, amount: str) -> list[str]:
        row = account_row(order, amount)
        return [*row[:2], "BHD", *row[3:]]

    # 1000.005 BHD (three decimals) is above 1000.000; written with two it was 1000.00
    rows = [in_bhd("b-1", "500.002"), in_bhd("b-2", "500.003")]
    path = write_csv(tmp_path / "bhd.csv", rows, header=ACCOUNT_HEADER)
    with serve(_accept) as server:
        _policy(team_db, server.url, "above", BHD="1000.000")
        _as(monkeypatch, team_db, "alice")
        assert main(_run(path, server.url, key_file)) == EXIT_SUBMITTED
        assert "Submitted for approval as #1" in capsys.readouterr().err
        assert server.received == []
