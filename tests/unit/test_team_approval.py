"""Team mode against a real PostgreSQL server: four-eyes approval, one send, the audit trail,
the database's own refusals, a console killed mid-send, live updates."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.errors import SendRefusedError
from console.core.team import (
    ApprovalRefusedError,
    Approvals,
    TeamJournal,
    connect,
)
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import (
    FORM,
    NOWHERE,
    PAN,
    accepted,
    audit_entries,
    pipeline,
    prepare_values,
    prepared_payout,
    prod_policy,
    silent_gateway,
)

psycopg = pytest.importorskip("psycopg")


def test_a_checker_approves_and_the_payout_is_sent_exactly_once(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    prod_policy(team_db)
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        prepared = prepared_payout(server.url, rsa_key)
        assert Approvals(alice).needs_approval(prepared)
        submitted = Approvals(alice).submit("prod", prepared)
        assert [s.id for s in Approvals(bob).pending()] == [submitted.id]
        assert server.received == []  # submitted, not sent

        Approvals(bob).approve(submitted.id)
        again = prepare_values(server.url, rsa_key, Approvals(bob).submission(submitted.id).values)
        sent = Approvals(bob).send_approved(pipeline(bob), submitted.id, again)

        assert sent.result == "accepted"
        assert len(server.received) == 1
        with pytest.raises(ApprovalRefusedError, match="is sent by bob: it is not sent again"):
            Approvals(alice).send_approved(pipeline(alice), submitted.id, prepared)
        assert len(server.received) == 1
        row = alice.fetch()[0]  # the maker sees the checker's send in the shared journal
        assert (row.outcome, row.client_orderid) == ("accepted", "p-1")
        assert alice.people([row.id]) == {row.id: ("bob", "bob")}
    actions = [(who, what) for who, what, _ in audit_entries(team_db)]
    for step in [("alice", "submit"), ("bob", "approve"), ("bob", "send"), ("bob", "outcome")]:
        assert step in actions


def test_the_makers_own_approval_is_refused_by_the_database_and_audited(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    prod_policy(team_db)
    with TeamJournal(team_db.dsn("dave")) as dave:  # a maker who is also a checker
        submitted = Approvals(dave).submit("prod", prepared_payout(NOWHERE, rsa_key))
        with pytest.raises(ApprovalRefusedError, match="other than its maker"):
            Approvals(dave).approve(submitted.id)
    # plain SQL as the maker: the function refuses, the table cannot be written at all
    with connect(team_db.dsn("dave")) as sql:
        answer = sql.execute("SELECT gateway.decide(%s, true, 'me')", (submitted.id,)).fetchone()
        assert answer[0].startswith("refused: a submission is decided by someone other")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            sql.execute(
                "UPDATE gateway.submissions SET state = 'approved', decided_by = 'bob'"
                " WHERE id = %s",
                (submitted.id,),
            )
    # not even the owner can record a self-approval: a CHECK constraint
    with connect(team_db.dsn()) as owner, pytest.raises(psycopg.errors.CheckViolation):
        owner.execute(
            "UPDATE gateway.submissions SET state = 'approved', decided_by = maker WHERE id = %s",
            (submitted.id,),
        )
    refusals = [(who, detail) for who, what, detail in audit_entries(team_db) if what == "refused"]
    assert refusals == [("dave", "approve: self-approval"), ("dave", "approve: self-approval")]
    with TeamJournal(team_db.dsn("bob")) as bob:
        assert Approvals(bob).submission(submitted.id).state == "pending"


def test_the_audit_trail_cannot_be_changed_even_by_its_owner(team_db: TeamDatabase) -> None:
    prod_policy(team_db)
    with connect(team_db.dsn()) as owner:
        for statement in (
            "UPDATE gateway.audit SET detail = 'nothing happened'",
            "DELETE FROM gateway.audit",
            "TRUNCATE gateway.audit",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
                owner.execute(statement)
    with connect(team_db.dsn("bob")) as bob, pytest.raises(psycopg.errors.InsufficientPrivilege):
        bob.execute("INSERT INTO gateway.audit (role, action) VALUES ('x', 'forged')")
    assert ("root_admin", "policy") in [(w, a) for w, a, _ in audit_entries(team_db)]


@pytest.mark.parametrize("carol_late", [0.0, 1.0], ids=["together", "after-the-send"])
def test_two_checkers_approving_at_the_same_moment_give_one_send(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, carol_late: float
) -> None:
    prod_policy(team_db)
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        with TeamJournal(team_db.dsn("alice")) as alice:
            sid = Approvals(alice).submit("prod", prepared_payout(server.url, rsa_key)).id
        barrier = threading.Barrier(2, timeout=30)
        results: dict[str, str] = {}
        crashed: dict[str, BaseException] = {}

        def approve_and_send(person: str) -> None:
            try:
                with TeamJournal(team_db.dsn(person)) as journal:
                    approvals = Approvals(journal)
                    barrier.wait()
                    if person == "carol":
                        time.sleep(carol_late)  # 1 s: she acts once bob's send is done
                    with contextlib.suppress(ApprovalRefusedError):  # the other was first:
                        approvals.approve(sid)  # still try to send, as a person would
                    values = approvals.submission(sid).values
                    try:
                        sent = approvals.send_approved(
                            pipeline(journal), sid, prepare_values(server.url, rsa_key, values)
                        )
                        results[person] = str(sent.result)
                    except SendRefusedError as exc:  # the database's refusal, or the guard's
                        results[person] = f"refused: {exc.message}"
            except BaseException as exc:  # reported below, not lost with the thread
                crashed[person] = exc

        threads = [threading.Thread(target=approve_and_send, args=(p,)) for p in ("bob", "carol")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads)
    assert crashed == {}
    assert len(server.received) == 1
    assert sorted(results) == ["bob", "carol"]
    assert sorted(results.values())[0] == "accepted"
    assert sorted(results.values())[1].startswith("refused: ")


def test_a_changed_request_loses_its_approval(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    prod_policy(team_db)
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        approved = prepared_payout(server.url, rsa_key, amount="10.50")
        sid = Approvals(alice).submit("prod", approved).id
        Approvals(bob).approve(sid)
        changed = prepared_payout(server.url, rsa_key, amount="1050.00")
        with pytest.raises(ApprovalRefusedError, match="not the one approved"):
            Approvals(alice).send_approved(pipeline(alice), sid, changed)
        with pytest.raises(ApprovalRefusedError, match="void"):
            Approvals(alice).send_approved(pipeline(alice), sid, approved)
        assert server.received == []
        assert Approvals(bob).submission(sid).state == "void"


def test_the_database_holds_back_a_payout_sent_around_the_approval(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    prod_policy(team_db, "above", thresholds={"USD": "100.00"})
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
    ):
        small = prepared_payout(server.url, rsa_key, order="small", amount="99.99")
        big = prepared_payout(server.url, rsa_key, order="big", amount="100.01")
        euro = prepared_payout(server.url, rsa_key, order="eur", currency="EUR")
        approvals = Approvals(alice)
        assert [approvals.needs_approval(p) for p in (small, big, euro)] == [
            False,
            True,
            True,  # no threshold for the currency: a checker decides
        ]
        assert pipeline(alice).send(small, _yes()).result == "accepted"
        with pytest.raises(ApprovalRefusedError, match="approval policy"):
            pipeline(alice).send(big, _yes())  # the pipeline alone, as psql would
        assert len(server.received) == 1
    assert ("alice", "refused", "send without approval: big (the policy of prod)") in audit_entries(
        team_db
    )


def test_a_pending_submission_expires(team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey) -> None:
    prod_policy(team_db, expiry=timedelta(seconds=0.3))
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        sid = Approvals(alice).submit("prod", prepared_payout(NOWHERE, rsa_key)).id
        time.sleep(0.4)
        assert Approvals(bob).pending() == []
        with pytest.raises(ApprovalRefusedError, match="expired"):
            Approvals(bob).approve(sid)
        assert Approvals(bob).submission(sid).state == "expired"
    assert ("bob", "refused", "approve: expired") in audit_entries(team_db)


def test_card_data_never_reaches_the_shared_database(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The maker's console keeps the card in memory and sends when the approval arrives."""
    prod_policy(team_db)
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        submitted = Approvals(alice).submit("prod", prepared_payout(server.url, rsa_key, card=True))
        seen = Approvals(bob).submission(submitted.id)
        assert seen.card_data
        assert seen.params is None
        assert seen.receiver == "card 444444******4448"

        decided = threading.Timer(0.3, Approvals(bob).approve, args=(submitted.id,))
        decided.start()
        result = Approvals(alice).wait_for_decision(submitted.id, timeout=10)
        assert result.state == "approved"
        sent = Approvals(alice).send_approved(pipeline(alice), submitted.id, submitted.prepared)
        assert sent.result == "accepted"
        assert PAN in server.received[0].body.decode()  # the gateway got the card...
    with connect(team_db.dsn()) as owner:  # ...the shared database never did
        for table in ("submissions", "requests", "request_details", "audit"):
            dump = json.dumps(
                owner.execute(f"SELECT json_agg(t) FROM gateway.{table} t").fetchone()[0]
            )
            assert PAN not in dump, table
            assert '"123"' not in dump, table


def test_a_second_console_sees_a_new_send_within_a_second(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    heard: list[tuple[str, int, float]] = []
    arrived = threading.Event()
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):

        def listener(event: str, row_id: int) -> None:
            heard.append((event, row_id, time.monotonic()))
            arrived.set()

        bob.subscribe(listener)
        time.sleep(0.2)  # the listening connection is up
        started = time.monotonic()
        pipeline(alice).send(prepared_payout(server.url, rsa_key), _yes())
        assert arrived.wait(1.0)
        assert heard[0][0] == "added"
        assert heard[0][2] - started < 1.0
        assert bob.get(heard[0][1]).client_orderid == "p-1"


_KILLED_SENDER = """
import sys
from cryptography.hazmat.primitives.asymmetric import rsa
from console.core.team import TeamJournal
from tests.helpers.team import pipeline, prepared_payout
from console.core.pipeline import Decision
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
journal = TeamJournal(sys.argv[1])
pipeline(journal).send(prepared_payout(sys.argv[2], key, order="killed"), Decision(True))
"""


def test_a_console_killed_mid_send_leaves_outcome_unknown_for_everyone(
    team_db: TeamDatabase,
) -> None:
    root = Path(__file__).resolve().parents[2]
    with silent_gateway() as url, TeamJournal(team_db.dsn("bob")) as bob:
        child = subprocess.Popen(
            [sys.executable, "-c", _KILLED_SENDER, team_db.dsn("alice"), url],
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
        )
        try:
            assert bob.wait_for(lambda: bool(bob.fetch()), timeout=20), "never journalled"
            assert bob.fetch()[0].outcome == "pending"  # in flight: nobody touches it
            assert bob.recover_interrupted() == []
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=10)
        finally:
            if child.poll() is None:
                child.kill()
        assert bob.wait_for(lambda: bool(bob.recover_interrupted()), timeout=5)
        row = bob.fetch()[0]
        assert (row.outcome_text, row.interrupted) == ("outcome unknown", True)
    with TeamJournal(team_db.dsn("carol")) as carol:  # any console, later
        assert carol.fetch()[0].outcome_unknown


def _yes():  # type: ignore[no-untyped-def]
    from console.core.pipeline import Decision

    return Decision(production_confirmed=True)


def test_every_refused_approval_step_is_in_the_audit_trail(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """A second approval, a send of a changed request, a send of a void approval: each is
    refused and named in the audit trail with the person and their role."""
    prod_policy(team_db)
    with (
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
        TeamJournal(team_db.dsn("carol")) as carol,
    ):
        approved = prepared_payout(NOWHERE, rsa_key, amount="10.50")
        sid = Approvals(alice).submit("prod", approved).id
        Approvals(bob).approve(sid)
        with pytest.raises(ApprovalRefusedError, match="already approved"):
            Approvals(carol).approve(sid)
        changed = prepared_payout(NOWHERE, rsa_key, amount="99.00")
        with pytest.raises(ApprovalRefusedError, match="not the one approved"):
            Approvals(alice).send_approved(pipeline(alice), sid, changed)
        with pytest.raises(ApprovalRefusedError, match="void"):
            Approvals(carol).send_approved(pipeline(carol), sid, approved)
    with TeamJournal(team_db.dsn()) as owner:
        refused = [
            (a.actor, a.role, a.detail, a.submission_id)
            for a in Approvals(owner).audit()
            if a.action == "refused"
        ]
    assert refused == [
        ("carol", "checker", "approve: already approved", sid),
        ("alice", "maker", "send: the request changed after approval; the approval is void", sid),
        ("carol", "checker", "send: void", sid),
    ]
