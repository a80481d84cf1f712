"""The team sender and the team's registered gateways: the sender's path obeys the registry
(a gateway the team has not registered is refused, exit 19, by the maker's console, the
database and the sender itself) and the rejected-before rule, as real processes on a real
PostgreSQL."""

from __future__ import annotations

import pytest

from console.cli.failures import (
    EXIT_APPROVAL_REFUSED,
    EXIT_SUBMITTED,
    EXIT_UNREGISTERED_GATEWAY,
)
from console.core.team import TeamJournal, connect
from tests.helpers.http_server import TestServer
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import SENDER, Gateway, SenderTeam, send_args, stop, wait_for
from tests.helpers.team import register_policy

psycopg = pytest.importorskip("psycopg")

FAR = "https://far.example/paynet"  # not on this computer: the team must register it


@pytest.fixture
def team(idle_team: SenderTeam) -> SenderTeam:
    made = idle_team
    for profile in (made.sender, made.alice):  # the same far gateway in both profiles
        added = profile.run(
            "env", "add", "far", "--kind", "production", "--base-url", FAR, "--login",
            "merchant", "--endpoint-id", "1",
        )  # fmt: skip
        assert added.returncode == 0, added.stderr
    return made


def _served_by_the_sender(db: TeamDatabase, environment: str) -> None:
    """As if a team sender had started for ``environment`` (nothing is sent by it here)."""
    with connect(db.dsn()) as owner:
        owner.execute(
            "INSERT INTO gateway.senders (environment, sender) VALUES (%s, %s)",
            (environment, SENDER),
        )


def _serving(db: TeamDatabase, environment: str) -> bool:
    with connect(db.dsn()) as sql:
        found = sql.execute(
            "SELECT count(*) FROM gateway.senders WHERE environment = %s", (environment,)
        ).fetchone()
    return bool(found[0])


def _submissions(db: TeamDatabase) -> list[tuple[int, str, str | None, int | None]]:
    with connect(db.dsn()) as sql:
        return [
            (int(r[0]), str(r[1]), r[2], r[3])
            for r in sql.execute(
                "SELECT id, state, gateway_name, after_rejection_of FROM gateway.submissions"
                " ORDER BY id"
            ).fetchall()
        ]


def test_a_send_through_the_sender_to_an_unregistered_gateway_exits_19_with_nothing_stored(
    team: SenderTeam,
) -> None:
    _served_by_the_sender(team.db, "far")
    keys = team.alice.run("keys", "show", "--env", "far")
    assert f"the team sender ({SENDER}) holds the key of far" in keys.stdout  # its path
    done = team.alice.run(*send_args("f-1", "--no-wait", env="far"))
    assert done.returncode == EXIT_UNREGISTERED_GATEWAY, done.stderr
    assert "has not registered the gateway https://far.example:443/paynet" in done.stderr
    assert _submissions(team.db) == []


def test_the_database_refuses_a_submission_to_the_sender_for_an_unregistered_gateway(
    team: SenderTeam,
) -> None:
    """alice in psql, past her console: refused, nothing stored."""
    with (
        connect(team.db.dsn("alice")) as maker,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="has not registered"),
    ):
        maker.execute(
            "SELECT gateway.submit_to_sender('far', 'payout-check', 'f-1', '25.00', 'USD',"
            " 'x', %s, '[]', '[]'::jsonb, %s, 'merchant', NULL, NULL, NULL)",
            ("a" * 64, f"{FAR}/api/v4/payout-check/1"),
        )
    assert _submissions(team.db) == []


def test_the_sender_refuses_a_queued_submission_whose_gateway_is_no_longer_registered(
    team: SenderTeam,
) -> None:
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "far", "none", base_url=FAR)
    _served_by_the_sender(team.db, "far")
    queued = team.alice.run(*send_args("f-1", "--no-wait", env="far"))
    assert queued.returncode == EXIT_SUBMITTED, queued.stderr
    assert _submissions(team.db) == [(1, "approved", "far", None)]
    with connect(team.db.dsn()) as owner:  # the registration is gone before the sender runs
        owner.execute("DELETE FROM gateway.gateways WHERE name = 'far'")
    sender = team.sender.start(
        "team", "sender", "--env", "far", "--key-file", str(team.key_file),
        "--seal-key-file", str(team.seal_file), "--poll", "0.2",
    )  # fmt: skip
    try:
        assert wait_for(lambda: _submissions(team.db)[0][1] == "refused", 60), team.sender.logs()
    finally:
        stop(sender)
    with connect(team.db.dsn()) as sql:
        reason, sent = sql.execute(
            "SELECT s.reason, (SELECT count(*) FROM gateway.requests r"
            " WHERE r.command = 'payout-check') FROM gateway.submissions s WHERE s.id = 1"
        ).fetchone()
    assert "has not registered the gateway https://far.example:443/paynet" in reason
    assert sent == 0  # nothing was journalled, so nothing left


def test_a_request_rejected_before_goes_to_the_sender_again_only_after_saying_so(
    team: SenderTeam, gateway: tuple[Gateway, TestServer]
) -> None:
    stand_in, _server = gateway
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "live", "all")
    sender = team.start_sender()
    try:
        assert wait_for(lambda: _serving(team.db, "live"), 60), team.sender.logs()
        held = team.alice.run(*send_args("p-1", "--no-wait", env="live"))
        assert held.returncode == EXIT_SUBMITTED, held.stderr
        rejected = team.bob.run("team", "reject", "1", "--reason", "wrong month")
        assert rejected.returncode == 0, rejected.stderr

        again = team.alice.run(*send_args("p-1", "--no-wait", env="live"))
        assert again.returncode == EXIT_APPROVAL_REFUSED, again.stderr
        assert "#1 was rejected before by bob" in again.stderr
        assert "wrong month" in again.stderr
        assert [s[0] for s in _submissions(team.db)] == [1]

        said = team.alice.run(*send_args("p-1", "--no-wait", "--after-rejection", env="live"))
        assert said.returncode == EXIT_SUBMITTED, said.stderr
        assert _submissions(team.db) == [(1, "rejected", "live", None), (2, "pending", "live", 1)]
        pending = team.bob.run("team", "pending")
        assert "#1 was rejected before by bob" in pending.stdout
        assert "alice submitted it again" in pending.stdout
        assert stand_in.payouts == {}  # nothing went out without a checker
    finally:
        stop(sender)
