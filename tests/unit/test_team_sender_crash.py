"""The team sender killed (kill -9) at any moment and started again, and two senders started
at once, as real processes against a real PostgreSQL server: nothing is sent twice, nothing
is lost (a send whose outcome the kill left unknown is asked by status, never sent again)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.prepared import PreparedRequest, prepare
from console.core.team import Approvals, TeamJournal, connect
from console.core.team.approvals.via_sender import placeholder_key, submit_to_sender
from tests.helpers.http_server import serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import Gateway, kill9, sender_team, stop, wait_for
from tests.helpers.team import payout_values

pytest.importorskip("psycopg")


def _payout(url: str, order: str) -> PreparedRequest:
    """Alice's payout as her console prepares it: no key of the team's in her profile."""
    return prepare(
        "payout-check",
        payout_values(order),
        base_url=url,
        login="merchant",
        private_key=placeholder_key(),
        endpoint_id="1",
    )


def _submit(db: TeamDatabase, url: str, orders: list[str]) -> None:
    with TeamJournal(db.dsn("alice")) as alice:
        approvals = Approvals(alice)
        for order in orders:
            submit_to_sender(approvals, "live", _payout(url, order))


def _settled(db: TeamDatabase) -> bool:
    """Every submission sent, no row pending, every unknown outcome's status asked."""
    with connect(db.dsn()) as sql:
        waiting = sql.execute(
            "SELECT count(*) FROM gateway.submissions WHERE state <> 'sent'"
        ).fetchone()[0]
        open_rows = sql.execute(
            "SELECT count(*) FROM gateway.requests WHERE command = 'payout-check'"
            " AND (outcome = 'pending' OR (outcome = 'unknown' AND final_status IS NULL))"
        ).fetchone()[0]
    return bool(waiting == 0 and open_rows == 0)


def _rows(db: TeamDatabase) -> list[tuple[str, str, str | None]]:
    with connect(db.dsn()) as sql:
        return [
            (str(r[0]), str(r[1]), r[2])
            for r in sql.execute(
                "SELECT client_orderid, outcome, final_status FROM gateway.requests"
                " WHERE command = 'payout-check' ORDER BY id"
            ).fetchall()
        ]


@pytest.mark.parametrize("concurrency", [1, 4])
def test_the_sender_killed_ten_times_sends_nothing_twice_and_loses_nothing(
    team_db: TeamDatabase,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    concurrency: int,
) -> None:
    stand_in = Gateway(delay=0.2)
    orders = [f"k-{n}" for n in range(40 * concurrency)]  # several sends on their way at a kill
    option = ("--concurrency", str(concurrency))
    with serve(stand_in) as server:
        team = sender_team(team_db, tmp_path, server.url, rsa_key, other_rsa_key)
        _submit(team_db, server.url, orders)
        chance = random.Random(32)
        for _kill in range(10):
            sender = team.start_sender(*option)
            time.sleep(chance.uniform(1.0, 2.5))  # start-up, then somewhere mid-batch
            kill9(sender)
        sender = team.start_sender(*option)
        try:
            assert wait_for(lambda: _settled(team_db), 180), team.sender.logs()
        finally:
            stop(sender)
    assert max(stand_in.payouts.values()) == 1  # nothing twice
    rows = _rows(team_db)
    assert sorted(order for order, _o, _s in rows) == sorted(orders)  # one row each
    for order, outcome, final in rows:  # an unknown outcome was asked, never sent again
        assert outcome == "accepted" or (outcome == "unknown" and final is not None), order
        if outcome == "unknown":
            assert final == ("approved" if stand_in.payouts[order] else "unknown")
    assert set(stand_in.payouts) <= set(orders)


def test_two_senders_started_at_once_one_sends_and_the_other_waits(
    team_db: TeamDatabase,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
) -> None:
    stand_in = Gateway(delay=0.05)
    with serve(stand_in) as server:
        team = sender_team(team_db, tmp_path, server.url, rsa_key, other_rsa_key)
        senders = [team.start_sender(), team.start_sender()]
        try:
            waits = "Another team sender is running"
            assert wait_for(lambda: waits in team.sender.logs(), 60), team.sender.logs()
            waiting = next(s for s in senders if waits in team.sender.logs(s))
            leader = next(s for s in senders if s is not waiting)
            first = [f"a-{n}" for n in range(15)]
            _submit(team_db, server.url, first)
            assert wait_for(lambda: _settled(team_db), 60), team.sender.logs()
            assert "#" not in team.sender.logs(waiting)  # it sent nothing
            kill9(leader)  # the other takes over
            second = [f"b-{n}" for n in range(15)]
            _submit(team_db, server.url, second)
            assert wait_for(lambda: sum(stand_in.payouts.values()) == 30, 60), team.sender.logs()
            assert wait_for(lambda: _settled(team_db), 60)
        finally:
            for sender in senders:
                stop(sender)
    assert stand_in.payouts == {order: 1 for order in first + second}


def test_a_sender_waiting_for_the_other_stops_on_sigterm(
    team_db: TeamDatabase,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
) -> None:
    with serve(Gateway()) as server:
        team = sender_team(team_db, tmp_path, server.url, rsa_key, other_rsa_key)
        leader = team.start_sender()
        try:
            assert wait_for(lambda: "serves live" in team.sender.logs(leader), 60)
            waiting = team.start_sender()
            waits = "Another team sender is running"
            assert wait_for(lambda: waits in team.sender.logs(waiting), 60)
            waiting.terminate()
            assert waiting.wait(timeout=15) == 0
            assert "stopped." in team.sender.logs(waiting)
        finally:
            stop(leader)


def test_a_sender_with_concurrency_four_has_four_sends_on_their_way_each_sent_once(
    team_db: TeamDatabase,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
) -> None:
    stand_in = Gateway(delay=0.6)  # each answer comes 0.6 s after its request
    orders = [f"c-{n}" for n in range(8)]
    with serve(stand_in) as server:
        team = sender_team(team_db, tmp_path, server.url, rsa_key, other_rsa_key)
        too_many = team.sender.run("team", "sender", "--env", "live", "--concurrency", "17")
        assert too_many.returncode == 2
        assert "--concurrency: give a whole number from 1 to 16, not '17'" in too_many.stderr
        _submit(team_db, server.url, orders)
        sender = team.start_sender("--concurrency", "4")
        try:
            assert wait_for(lambda: _settled(team_db), 60), team.sender.logs()
        finally:
            stop(sender)
    assert stand_in.payouts == {order: 1 for order in orders}
    first = sorted(stand_in.arrived)[:4]
    assert first[-1] - first[0] < 0.5, first  # the four left before the first answer came
    assert [o for o, outcome, _s in _rows(team_db) if outcome != "accepted"] == []
