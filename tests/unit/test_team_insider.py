"""A maker with their own database login (psql, not the console) against a real PostgreSQL
server: a journal row that is not what was approved, a final status set on someone else's
order, an audit entry rewritten by the superuser. Each is refused by the database or found by
``team audit --verify``."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.failures import EXIT_AUDIT_BROKEN
from console.core.callbacks import control_code
from console.core.gateway_identity import gateway_identity
from console.core.pipeline import Decision
from console.core.team import Approvals, TeamJournal, TeamPermissionError, connect, content_hash
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import (
    FORM,
    accepted,
    audit_entries,
    pipeline,
    prepared_payout,
    register_policy,
)

psycopg = pytest.importorskip("psycopg")

INSERT = (
    "INSERT INTO gateway.requests (created, environment, command, url, gateway, client_orderid,"
    " amount, currency, receiver, content_hash, outcome, submission_id) VALUES (1, 'prod',"
    " 'payout-check', %(url)s, %(gateway)s, 'p-1', %(amount)s, %(currency)s, %(receiver)s,"
    " %(hash)s, 'pending', %(sid)s) RETURNING id, approved_by"
)


def _approved_25_usd(db: TeamDatabase, key: rsa.RSAPrivateKey) -> tuple[int, str]:
    """Alice's payout of 25.00 USD to the team's gateway "prod", approved by bob; its id
    and request URL."""
    with TeamJournal(db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all", base_url="https://gw.example")
    prepared = prepared_payout("https://gw.example", key, amount="25.00", currency="USD")
    with TeamJournal(db.dsn("alice")) as alice:
        sid = Approvals(alice).submit("prod", prepared).id
    with TeamJournal(db.dsn("bob")) as bob:
        Approvals(bob).approve(sid)
    return sid, prepared.url


def test_a_row_that_is_not_the_approved_payout_is_refused_by_the_database(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    sid, url = _approved_25_usd(team_db, rsa_key)
    with connect(team_db.dsn("alice")) as sql:  # the maker, in psql
        approved = sql.execute(
            "SELECT amount, currency, receiver, content_hash FROM gateway.submissions"
            " WHERE id = %s",
            (sid,),
        ).fetchone()
        assert approved[:2] == ("25.00", "USD")
        assert sql.execute("SELECT gateway.claim(%s, %s)", (sid, approved[3])).fetchone()[0] == (
            "ok"
        )
        honest = {
            "url": url,
            "gateway": gateway_identity(url, "merchant"),
            "amount": approved[0],
            "currency": approved[1],
            "receiver": approved[2],
            "hash": approved[3],
            "sid": sid,
        }
        for changed, what in (
            ({"amount": "9999.00"}, "amount"),
            ({"currency": "EUR"}, "currency"),
            ({"receiver": "555555******4444"}, "receiver"),
            ({"hash": "0" * 64}, "request hash"),
            ({"amount": "9999.00", "receiver": "555555******4444"}, "amount, receiver"),
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match=f"its {what} differ"):
                sql.execute(INSERT, honest | changed)
        row_id, approved_by = sql.execute(INSERT, honest).fetchone()  # what was approved
    assert approved_by == "bob"
    with TeamJournal(team_db.dsn("carol")) as carol:
        assert [(r.id, r.amount) for r in carol.fetch()] == [(row_id, "25.00")]


def test_a_claim_that_names_no_request_hash_takes_nothing_and_the_payout_goes_out(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Carol (a checker, in psql) claims alice's approved payout without saying what it is:
    refused and audited, and alice's console then takes it for sending as approved."""
    sid, url = _approved_25_usd(team_db, rsa_key)
    with connect(team_db.dsn("carol")) as sql:
        assert sql.execute("SELECT gateway.claim(%s, NULL)", (sid,)).fetchone()[0] == (
            "refused: a claim names the request hash it sends"
        )
        assert sql.execute(
            "SELECT state FROM gateway.submissions WHERE id = %s", (sid,)
        ).fetchone() == ("approved",)
    assert ("carol", "refused", "send: no request hash given; the submission stays approved") in (
        audit_entries(team_db)
    )
    with TeamJournal(team_db.dsn("alice")) as alice:  # the approved payout is still hers
        prepared = prepared_payout("https://gw.example", rsa_key, amount="25.00", currency="USD")
        assert prepared.url == url
        Approvals(alice).claim(sid, content_hash("prod", prepared, alice.hash_key))
    with connect(team_db.dsn("carol")) as sql:
        assert sql.execute(
            "SELECT state, sender FROM gateway.submissions WHERE id = %s", (sid,)
        ).fetchone() == ("sending", "alice")


def test_a_checker_can_check_a_card_payouts_hash(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The card payout's hash is the team's keyed hash, not a secret of the maker's console:
    the checker, shown the request, gets the same hash (and the card number is not in it)."""
    prepared = prepared_payout("https://gw.example", rsa_key, card=True)
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all", base_url="https://gw.example")
    with TeamJournal(team_db.dsn("alice")) as alice:
        sid = Approvals(alice).submit("prod", prepared).id
    with TeamJournal(team_db.dsn("bob")) as bob, bob.reading() as db:
        stored = db.execute(
            "SELECT content_hash FROM gateway.submissions WHERE id = %s", (sid,)
        ).fetchone()[0]
        assert stored == content_hash("prod", prepared, bob.hash_key)


def _bobs_payout(db: TeamDatabase, key: rsa.RSAPrivateKey) -> int:
    with (
        serve(lambda r: Reply(200, accepted("p-1", "9001"), FORM)) as server,
        TeamJournal(db.dsn("bob")) as bob,
    ):
        sent = pipeline(bob, "gw", production=False).send(
            prepared_payout(server.url, key), Decision()
        )
        assert sent.result == "accepted"
        return bob.fetch()[0].id


def _final(db: TeamDatabase, row_id: int) -> tuple[Any, ...]:
    with TeamJournal(db.dsn("carol")) as carol:
        row = carol.get(row_id)
        return (row.final_status, row.final_status_source)


def test_a_maker_cannot_settle_another_persons_payout(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    row_id = _bobs_payout(team_db, rsa_key)
    with connect(team_db.dsn("alice")) as sql:
        for source in ("callback", "status", "manual"):
            changed = sql.execute(
                "SELECT * FROM gateway.set_final_status('gw', 'p-1', 'approved', NULL, %s)",
                (source,),
            ).fetchall()
            assert changed == []
        forged = control_code("approved", "9001", "p-1", "a guess")
        assert (
            sql.execute(
                "SELECT * FROM gateway.set_final_status('gw', 'p-1', 'approved', '9001',"
                " 'callback', %s)",
                (forged,),
            ).fetchall()
            == []
        )
        updated = sql.execute(
            "UPDATE gateway.requests SET final_status = 'approved' WHERE id = %s", (row_id,)
        )
        assert updated.rowcount == 0  # row-level security: not hers
    assert _final(team_db, row_id) == (None, None)
    refusals = [d for who, what, d in audit_entries(team_db) if (who, what) == ("alice", "refused")]
    assert len(refusals) == 4
    assert "no callback or status answer the database could verify" in refusals[0]


# a status row as a console writes it (its gateway the identity of its address: bob's
# payout went to this computer, so no registration is needed)
FAKE_STATUS = (
    "INSERT INTO gateway.requests (created, environment, command, url, gateway, client_orderid,"
    " outcome, final_status, final_status_source) VALUES (1, 'gw', 'status',"
    " 'http://127.0.0.1:9/paynet/api/v4/status/1', 'http://localhost/paynet/api/v4/status/1"
    " merchant', 'p-1', 'accepted', 'declined', 'status') RETURNING id"
)


def test_a_makers_forged_status_row_does_not_decline_another_persons_payout(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Alice, in psql, journals a "status" answer that never went to the gateway, then asks
    the database to settle bob's accepted payout from it: refused, and audited."""
    row_id = _bobs_payout(team_db, rsa_key)
    with connect(team_db.dsn("alice")) as sql:
        sql.execute(FAKE_STATUS).fetchone()
        changed = sql.execute(
            "SELECT * FROM gateway.set_final_status('gw', 'p-1', 'declined', NULL, 'status')"
        ).fetchall()
        assert changed == []
    assert _final(team_db, row_id) == (None, None)
    refusals = [d for who, what, d in audit_entries(team_db) if (who, what) == ("alice", "refused")]
    assert "only the team sender's status answers count" in refusals[-1]


def test_the_team_senders_status_answer_settles_another_persons_payout(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    row_id = _bobs_payout(team_db, rsa_key)
    with TeamJournal(team_db.dsn()) as owner:
        Approvals(owner).add_user("sendbot", "sender")
    with connect(team_db.dsn("sendbot")) as sql:  # its own status answer, in its journal
        sql.execute(FAKE_STATUS).fetchone()
        changed = sql.execute(
            "SELECT * FROM gateway.set_final_status('gw', 'p-1', 'declined', NULL, 'status')"
        ).fetchall()
        assert changed == [(row_id,)]
    assert _final(team_db, row_id) == ("declined", "status")


def test_a_maker_cannot_stand_in_for_the_team_sender(team_db: TeamDatabase) -> None:
    """Alice, in psql, publishes a sealing key of hers (card data would then be sealed to
    her), or takes a submission to the sender for herself: both refused, and audited."""
    with connect(team_db.dsn("alice")) as sql:
        answer = sql.execute("SELECT gateway.sender_start('pem', 'fp', ARRAY['prod'])").fetchone()
        assert answer[0].startswith("refused: only the team sender")
        assert sql.execute("SELECT count(*) FROM gateway.sender_key").fetchone()[0] == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            sql.execute("INSERT INTO gateway.senders (environment) VALUES ('prod')")
        refused = sql.execute("SELECT gateway.refuse_queued(1, 'x')").fetchone()[0]
        assert refused.startswith("refused:")
    refusals = [d for who, what, d in audit_entries(team_db) if (who, what) == ("alice", "refused")]
    assert "sender start: not the team sender" in refusals


def test_the_team_sender_neither_submits_nor_approves(team_db: TeamDatabase) -> None:
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        approvals = Approvals(admin)
        with pytest.raises(TeamPermissionError, match="cannot be the team sender"):
            approvals.add_user("bob", "sender")  # a checker
        approvals.add_user("sendbot", "sender")
        with pytest.raises(TeamPermissionError, match="is the team sender"):
            approvals.add_user("sendbot", "maker")


def test_verified_callbacks_and_the_senders_own_status_settle_and_are_audited(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    row_id = _bobs_payout(team_db, rsa_key)
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        Approvals(admin).set_callback_secret("gw", "merchant-secret")
    control = control_code("approved", "9001", "p-1", "merchant-secret")
    with TeamJournal(team_db.dsn("alice")) as alice:  # her console received the callback
        assert alice.set_final_status(
            "gw", "p-1", "approved", orderid="9001", source="callback", control=control
        ) == [row_id]
    assert _final(team_db, row_id) == ("approved", "callback")
    with TeamJournal(team_db.dsn("bob")) as bob:  # the sender's own console
        assert bob.set_final_status("gw", "p-1", "chargeback", source="status") == [row_id]
    assert _final(team_db, row_id) == ("chargeback", "status")
    changes = [(who, d) for who, what, d in audit_entries(team_db) if what == "final status"]
    assert changes == [
        ("alice", "p-1: none -> approved (callback; callback verified by the database)"),
        ("bob", "p-1: approved -> chargeback (status; set by its sender)"),
    ]


def test_an_audit_entry_rewritten_by_the_superuser_is_found(
    team_db: TeamDatabase,
    rsa_key: rsa.RSAPrivateKey,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _approved_25_usd(team_db, rsa_key)
    with TeamJournal(team_db.dsn("root_admin")) as admin:  # and more after it
        register_policy(admin, "prod", "none")
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("carol"))
    assert main(["team", "audit", "--verify"]) == 0
    intact = capsys.readouterr().out
    assert "The audit trail is intact" in intact
    head = ":".join(intact.split("Its head is ")[1].split(":")[:2])
    assert main(["team", "audit", "--verify", "--expect", head]) == 0
    with connect(team_db.dsn()) as owner:  # the superuser, who owns the table
        approval, following = owner.execute(
            "SELECT id, (SELECT min(b.id) FROM gateway.audit b WHERE b.seq > a.seq)"
            " FROM gateway.audit a WHERE action = 'approve'"
        ).fetchone()
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            owner.execute("UPDATE gateway.audit SET detail = 'x' WHERE id = %s", (approval,))
        owner.execute("SET session_replication_role = replica")  # the triggers are off
        owner.execute("UPDATE gateway.audit SET actor = 'carol' WHERE id = %s", (approval,))
    capsys.readouterr()
    assert main(["team", "audit", "--verify"]) == EXIT_AUDIT_BROKEN
    err = capsys.readouterr().err
    assert f"entry {approval} is broken: its content does not match its hash" in err
    with connect(team_db.dsn()) as owner:  # put back, and removed instead
        owner.execute("SET session_replication_role = replica")
        owner.execute("UPDATE gateway.audit SET actor = 'bob' WHERE id = %s", (approval,))
        owner.execute("DELETE FROM gateway.audit WHERE id = %s", (approval,))
    assert main(["team", "audit", "--verify"]) == EXIT_AUDIT_BROKEN
    assert f"entry {following} is broken: entries" in capsys.readouterr().err
