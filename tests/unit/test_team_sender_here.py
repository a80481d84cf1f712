"""A maker's console in this test's own process, the team sender as its own process: what the
maker's send, batch and window-less commands say while the sender holds the key (their code
runs here, so the money rules' coverage sees it)."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import EXIT_OK, EXIT_SUBMITTED
from console.core.team import Approvals, TeamJournal
from tests.helpers.batch_files import card_file, card_row, write_csv
from tests.helpers.http_server import TestServer
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import (
    Gateway,
    Profile,
    SenderTeam,
    send_args,
    serving,
    wait_for,
)
from tests.helpers.team import PAN, register_policy

psycopg = pytest.importorskip("psycopg")


def _as(profile: Profile, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process is ``profile``'s console (its profile folder and team database)."""
    monkeypatch.setenv("GATEWAY_CONSOLE_HOME", str(profile.home))
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", profile.dsn)


def test_a_card_payout_sent_here_goes_sealed_to_the_sender_and_its_outcome_is_shown(
    team: SenderTeam,
    gateway: tuple[Gateway, TestServer],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stand_in, _server = gateway
    _as(team.alice, monkeypatch)
    assert main(send_args("h-1", card=True)) == EXIT_OK
    said = capsys.readouterr()
    assert "Submitted to the team sender as #1" in said.err
    assert "ACCEPTED" in said.out.upper()
    assert stand_in.payouts == {"h-1": 1}


def test_a_held_payout_submitted_here_waits_for_a_checker_then_the_sender(
    team: SenderTeam,
    gateway: tuple[Gateway, TestServer],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stand_in, _server = gateway
    with TeamJournal(team.db.dsn("root_admin")) as admin:
        register_policy(admin, "live", "all")
    _as(team.alice, monkeypatch)
    assert main(send_args("h-2", "--no-wait")) == EXIT_SUBMITTED
    said = capsys.readouterr()
    assert said.out.strip() == "1"
    assert "holds this payout-check for a checker's approval; then the team sender" in said.err
    assert stand_in.payouts == {}
    approved = team.bob.run("team", "approve", "1")
    assert approved.returncode == EXIT_OK, approved.stderr
    assert wait_for(lambda: stand_in.payouts == {"h-2": 1}, 30)


def test_a_batch_run_here_goes_row_by_row_through_the_sender(
    team: SenderTeam,
    gateway: tuple[Gateway, TestServer],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    stand_in, _server = gateway
    _as(team.alice, monkeypatch)
    path = card_file(tmp_path / "cards.csv", 2, "hb")
    assert main(["batch", "run", str(path), "--env", "live", "--yes"]) == EXIT_OK
    assert stand_in.payouts == {"hb-0": 1, "hb-1": 1}


def test_a_batch_row_the_sender_refuses_is_skipped_and_said(
    team: SenderTeam,
    gateway: tuple[Gateway, TestServer],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A card number failing its check digit, confirmed for this run, is not the sender's to
    confirm: it refuses the row, which the results say was not sent."""
    stand_in, _server = gateway
    _as(team.alice, monkeypatch)
    row = card_row("hr-0")
    row[3] = "4444444444444449"  # fails the check digit
    path = write_csv(tmp_path / "luhn.csv", [row])
    run = ["batch", "run", str(path), "--env", "live", "--yes", "--confirm-card-numbers"]
    main(run)
    said = capsys.readouterr()
    assert stand_in.payouts == {}
    assert "1 skipped" in said.out + said.err
    results = (tmp_path / "luhn.results.csv").read_text()
    assert "4444444444444449" not in results


def test_a_batch_row_with_no_outcome_from_the_sender_in_time_stops_the_run_as_unknown(
    team: SenderTeam,
    gateway: tuple[Gateway, TestServer],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stand_in, _server = gateway
    monkeypatch.setattr("console.core.team.approvals.held.SENDER_WAIT", 0.5)
    stand_in.delay = 5.0  # the gateway answers after the maker stopped waiting
    _as(team.alice, monkeypatch)
    path = card_file(tmp_path / "slow.csv", 2, "hs")
    main(["batch", "run", str(path), "--env", "live", "--yes"])
    said = capsys.readouterr()
    assert "Stopped at row 2" in said.out + said.err
    assert "hs-1" not in stand_in.payouts  # the run stopped at the row with no outcome


def test_the_team_sender_run_in_this_process_sends_a_queued_payout_once(
    team_db: TeamDatabase,
    idle_team: SenderTeam,
    gateway: tuple[Gateway, TestServer],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`team sender` in this test's own process (so the money rules' coverage sees its send):
    alice's card payout, queued at once, is sent once and the sender stops on SIGTERM."""
    stand_in, _server = gateway
    team = idle_team
    _as(team.sender, monkeypatch)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    said: list[int] = []

    def alice_then_stop() -> None:
        if not wait_for(lambda: serving(team_db), 60):
            return  # the sender never served (it said why, and returned)
        try:
            said.append(team.alice.run(*send_args("s-1", "--no-wait", card=True)).returncode)
            wait_for(lambda: stand_in.payouts == {"s-1": 1}, 60)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # its handler is the sender's: it stops

    handlers = {n: signal.getsignal(n) for n in (signal.SIGTERM, signal.SIGINT)}
    other = threading.Thread(target=alice_then_stop)
    other.start()
    try:
        args = ["team", "sender", "--env", "live", "--key-file", str(team.key_file)]
        code = main([*args, "--seal-key-file", str(team.seal_file), "--poll", "0.2"])
    finally:
        other.join()
        for number, handler in handlers.items():
            signal.signal(number, handler)
    assert code == EXIT_OK
    assert said == [EXIT_SUBMITTED]
    assert stand_in.payouts == {"s-1": 1}
    assert stand_in.bodies[0]["credit_card_number"] == PAN  # opened from its seal
    assert "#1 payout-check s-1 -> ACCEPTED" in capsys.readouterr().err
    with TeamJournal(team_db.dsn("bob")) as bob:  # the submission says so, with its row
        done = Approvals(bob).submission(1)
        assert (done.state, done.rows_sent) == ("sent", 1)
        assert [r.id for r in bob.fetch()] == [done.request_id]
