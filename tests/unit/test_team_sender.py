"""The team sender against a real PostgreSQL server, as real processes: the sender (the only
profile with the production key), a maker whose profile has no key, a checker. A payout the
policy lets go is sent by the sender at once and the maker's ``send`` shows its outcome; one
it holds back is sent once a checker approves it; card data reaches the sender sealed and is
erased once sent."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli.failures import EXIT_APPROVAL_REFUSED, EXIT_OK, EXIT_SUBMITTED
from console.core.team import TeamJournal, connect
from console.core.team.storage.sealing import open_sealed, private_key_file, public_half, seal
from tests.helpers.batch_files import ACCOUNT_HEADER, account_row, card_file, write_csv
from tests.helpers.http_server import TestServer
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import (
    SENDER,
    Gateway,
    Profile,
    SenderTeam,
    send_args,
    sender_team,
    serving,
    stop,
    wait_for,
)
from tests.helpers.team import PAN, register_policy

OTHER_PAN = "4444441000044448"  # the same first six and last four: shown alike

psycopg = pytest.importorskip("psycopg")


def _rows(db: TeamDatabase) -> list[tuple[str, str, str, str | None]]:
    with connect(db.dsn()) as sql:
        return [
            tuple(r)
            for r in sql.execute(
                "SELECT client_orderid, outcome, made_by, approved_by FROM gateway.requests"
                " WHERE command = 'payout-check' ORDER BY id"
            ).fetchall()
        ]


def test_a_maker_without_a_key_sends_through_the_sender_and_sees_the_outcome(
    team: SenderTeam, gateway: tuple[Gateway, TestServer]
) -> None:
    stand_in, _server = gateway
    keys = team.alice.run("keys", "show", "--env", "live")  # her profile has no key
    assert keys.returncode == EXIT_OK, keys.stderr
    assert f"the team sender ({SENDER}) holds the key of live" in keys.stdout
    done = team.alice.run(*send_args("p-1"))
    assert done.returncode == EXIT_OK, done.stderr
    assert "Submitted to the team sender as #1" in done.stderr
    assert "ACCEPTED" in done.stdout.upper()
    assert stand_in.payouts == {"p-1": 1}
    assert _rows(team.db) == [("p-1", "accepted", SENDER, None)]

    queued = team.alice.run(*send_args("p-2", "--no-wait"))
    assert queued.returncode == EXIT_SUBMITTED
    assert queued.stdout.strip() == "2"
    assert wait_for(lambda: stand_in.payouts["p-2"] == 1, 30)
    assert wait_for(lambda: len(_rows(team.db)) == 2 and _rows(team.db)[1][1] == "accepted", 30)


def test_a_held_payout_is_sent_by_the_sender_once_a_checker_approves(
    team: SenderTeam, gateway: tuple[Gateway, TestServer]
) -> None:
    stand_in, _server = gateway
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "live", "all")
    held = team.alice.run(*send_args("p-1"))
    assert held.returncode == EXIT_SUBMITTED, held.stderr
    assert held.stdout.strip() == "1"
    assert "team approve 1" in held.stderr
    assert stand_in.payouts == {}  # nobody sends before the approval

    approved = team.bob.run("team", "approve", "1")
    assert approved.returncode == EXIT_OK, approved.stderr
    assert "The team sender, which holds the key, sends it" in approved.stderr
    assert wait_for(lambda: stand_in.payouts == {"p-1": 1}, 30)
    assert wait_for(lambda: _rows(team.db) == [("p-1", "accepted", SENDER, "bob")], 30)
    again = team.bob.run("team", "send", "1", "--env", "live")
    assert again.returncode != EXIT_OK
    assert stand_in.payouts == {"p-1": 1}


def test_card_data_reaches_the_sender_sealed_and_is_erased_once_sent(
    team: SenderTeam, gateway: tuple[Gateway, TestServer]
) -> None:
    stand_in, _server = gateway
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "live", "all")
    held = team.alice.run(*send_args("p-1", card=True))
    assert held.returncode == EXIT_SUBMITTED, held.stderr  # no --wait needed: it is sealed
    with connect(team.db.dsn()) as owner:  # even the database's owner reads no card number
        stored = owner.execute(
            "SELECT s.params, s.request_json, x.ciphertext FROM gateway.submissions s"
            " JOIN gateway.sealed x ON x.submission_id = s.id"
        ).fetchone()
        assert stored[0] is None
        assert PAN not in stored[1]
        assert PAN[-4:] in stored[1]
        assert PAN.encode() not in bytes(stored[2])
    with (
        connect(team.db.dsn("alice")) as maker,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        maker.execute("SELECT ciphertext FROM gateway.sealed").fetchall()

    assert team.bob.run("team", "approve", "1").returncode == EXIT_OK
    assert wait_for(lambda: stand_in.payouts == {"p-1": 1}, 30)
    assert stand_in.bodies[0]["credit_card_number"] == PAN  # the sender opened it
    with connect(team.db.dsn()) as owner:
        assert owner.execute("SELECT count(*) FROM gateway.sealed").fetchone()[0] == 0
        state = owner.execute("SELECT state FROM gateway.submissions WHERE id = 1").fetchone()
        assert state[0] == "sent"


def test_an_approved_card_payout_whose_sealed_card_was_swapped_is_not_sent(
    team: SenderTeam, gateway: tuple[Gateway, TestServer]
) -> None:
    stand_in, _server = gateway
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "live", "all")
    assert team.alice.run(*send_args("p-1", card=True)).returncode == EXIT_SUBMITTED
    seal_key = private_key_file(team.seal_file)
    # the owner seals another card, shown alike (first six, last four), under the same hash
    with connect(team.db.dsn()) as owner:
        digest, blob = owner.execute(
            "SELECT s.content_hash, x.ciphertext FROM gateway.submissions s"
            " JOIN gateway.sealed x ON x.submission_id = s.id WHERE s.id = 1"
        ).fetchone()
        fields = tuple(
            (n, OTHER_PAN if n == "credit_card_number" else v)
            for n, v in open_sealed(seal_key, bytes(blob), digest)
        )
        owner.execute(
            "UPDATE gateway.sealed SET ciphertext = %s WHERE submission_id = 1",
            (seal(public_half(seal_key)[0], fields, digest),),
        )
    assert team.bob.run("team", "approve", "1").returncode == EXIT_OK
    with connect(team.db.dsn()) as owner:
        assert wait_for(
            lambda: (
                owner.execute("SELECT state FROM gateway.submissions WHERE id = 1").fetchone()[0]
                == "refused"
            ),
            30,
        ), team.sender.logs()
    assert stand_in.payouts == {}
    assert "not the one approved" in team.sender.logs()


def test_a_rejected_card_payouts_sealed_data_is_erased(team: SenderTeam) -> None:
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "live", "all")
    assert team.alice.run(*send_args("p-1", card=True)).returncode == EXIT_SUBMITTED
    assert team.bob.run("team", "reject", "1", "--reason", "wrong card").returncode == EXIT_OK
    with connect(team.db.dsn()) as owner:
        assert owner.execute("SELECT count(*) FROM gateway.sealed").fetchone()[0] == 0


def test_only_the_sender_claims_a_submission_made_to_it(team: SenderTeam) -> None:
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "live", "all")
    assert team.alice.run(*send_args("p-1")).returncode == EXIT_SUBMITTED
    with connect(team.db.dsn("alice")) as maker:  # psql: she claims it, to send it herself
        digest = maker.execute("SELECT content_hash FROM gateway.submissions").fetchone()[0]
        answer = maker.execute("SELECT gateway.claim(1, %s)", (digest,)).fetchone()[0]
    assert "the team sender" in answer


def _batch_rows(db: TeamDatabase) -> list[tuple[str, str, str, str | None]]:
    return sorted(_rows(db))


def test_a_batch_runs_row_by_row_through_the_sender(
    team: SenderTeam, gateway: tuple[Gateway, TestServer], tmp_path: Path
) -> None:
    stand_in, _server = gateway
    path = card_file(tmp_path / "cards.csv", 3, "c")  # card rows: sealed to the sender
    done = team.alice.run("batch", "run", str(path), "--env", "live", "--yes")
    assert done.returncode == EXIT_OK, done.stderr
    assert stand_in.payouts == {"c-0": 1, "c-1": 1, "c-2": 1}
    assert {body["credit_card_number"] for body in stand_in.bodies} == {PAN}
    assert _batch_rows(team.db) == [(f"c-{n}", "accepted", SENDER, None) for n in range(3)]
    results = (tmp_path / "cards.results.csv").read_text()
    assert results.count("accepted") >= 3
    assert PAN not in results


def test_a_held_batch_is_sent_by_the_sender_once_approved_as_a_whole(
    team: SenderTeam, gateway: tuple[Gateway, TestServer], tmp_path: Path
) -> None:
    stand_in, _server = gateway
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "live", "all")
    path = write_csv(
        tmp_path / "pay.csv", [account_row("a-1"), account_row("a-2")], header=ACCOUNT_HEADER
    )
    held = team.alice.run("batch", "run", str(path), "--env", "live", "--yes")
    assert held.returncode == EXIT_SUBMITTED, held.stderr
    assert team.bob.run("team", "approve", "1").returncode == EXIT_OK
    assert stand_in.payouts == {}  # a batch is run by running its file again
    done = team.alice.run("batch", "run", str(path), "--env", "live", "--yes")
    assert done.returncode == EXIT_OK, done.stderr
    assert stand_in.payouts == {"a-1": 1, "a-2": 1}
    assert _batch_rows(team.db) == [
        ("a-1", "accepted", SENDER, "bob"),
        ("a-2", "accepted", SENDER, "bob"),
    ]
    with connect(team.db.dsn()) as owner:
        state = owner.execute("SELECT state, reason FROM gateway.submissions WHERE id = 1")
        assert state.fetchone()[0] == "sent"
    again = team.alice.run("batch", "run", str(path), "--env", "live", "--yes")
    assert "0 payouts from pay.csv" in again.stderr  # sent: none is taken again
    assert stand_in.payouts == {"a-1": 1, "a-2": 1}


def test_the_sender_refuses_a_submission_for_another_gateway(
    team: SenderTeam, gateway: tuple[Gateway, TestServer]
) -> None:
    """Alice's environment of the same name points elsewhere: the sender, which sends
    "live" to its own gateway, refuses it (nothing sent), whatever it is called."""
    stand_in, server = gateway
    moved = team.alice.run("env", "edit", "live", "--base-url", f"{server.url}/elsewhere", "--yes")
    assert moved.returncode == EXIT_OK, moved.stderr
    done = team.alice.run(*send_args("p-1"))
    assert done.returncode == EXIT_APPROVAL_REFUSED, done.stderr
    assert "this sender sends live to" in done.stderr
    assert "Nothing was sent" in done.stderr
    assert stand_in.payouts == {}
    assert _rows(team.db) == []


def _signed_up_to_the_head(db: TeamDatabase) -> bool:
    with connect(db.dsn()) as sql:
        head, signed = sql.execute(
            "SELECT (SELECT max(seq) FROM gateway.audit),"
            " (SELECT max(seq) FROM gateway.audit_checkpoints)"
        ).fetchone()
    return signed is not None and signed == head


def test_the_sender_signs_the_audit_trail_with_the_teams_audit_key(
    team_db: TeamDatabase,
    tmp_path: Path,
    gateway: tuple[Gateway, TestServer],
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The audit key the admin made lives with the sender, which signs each new head: a
    checker's `team audit --verify` finds every entry signed, the payout's included."""
    made = sender_team(team_db, tmp_path, gateway[1].url, rsa_key, other_rsa_key)
    monkeypatch.setenv("AUDIT_PASS", "correct horse battery staple")
    audit_key = tmp_path / "audit.pem"
    key_options = ["--key-file", str(audit_key), "--passphrase-env", "AUDIT_PASS"]
    admin = Profile(tmp_path / "admin", team_db.dsn("root_admin"))
    admin.home.mkdir()
    made_key = admin.run("team", "audit-key", "create", *key_options)
    assert made_key.returncode == EXIT_OK, made_key.stderr
    sender = made.sender.start(
        "team", "sender", "--env", "live", "--key-file", str(made.key_file),
        "--seal-key-file", str(made.seal_file), "--audit-key-file", str(audit_key),
        "--audit-passphrase-env", "AUDIT_PASS", "--poll", "0.2",
    )  # fmt: skip
    try:
        assert wait_for(lambda: serving(team_db), 60), made.sender.logs(sender)
        sent = made.alice.run(*send_args("p-signed"))
        assert sent.returncode == EXIT_OK, sent.stderr
        assert wait_for(lambda: _signed_up_to_the_head(team_db), 30), made.sender.logs(sender)
    finally:
        stop(sender)
    checked = made.bob.run("team", "audit", "--verify")
    assert checked.returncode == EXIT_OK, checked.stderr
    assert "not yet signed" not in checked.stdout + checked.stderr
