"""The window of a maker whose profile has no production key, in a team with a team sender
(a real process) on a real PostgreSQL server: the environment is usable all the same, Send
goes through the sender (the card data sealed to it), and the outcome shows as for a send."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.keys_cmd import CONTROL_ENV
from console.core.callbacks import control_code
from console.core.team import Approvals, TeamJournal, connect
from tests.helpers.http_server import serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import SENDER, Gateway, sender_team, stop, wait_for
from tests.ui.journal_helpers import pane_of, shown_rows

pytest.importorskip("psycopg")

SECRET = "merchant-control-secret"


def _serving(db: TeamDatabase) -> bool:
    with connect(db.dsn()) as sql:
        return bool(sql.execute("SELECT count(*) FROM gateway.senders").fetchone()[0])


def _makers_window(make_window: Any, url: str, dsn: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """alice's window, on the team journal, its environment "live" without a key."""
    added = ["env", "add", "live", "--kind", "production", "--base-url", url,
             "--login", "merchant", "--endpoint-id", "1", "--use"]  # fmt: skip
    assert main(added) == 0  # this window's profile: no key for it
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", dsn)
    window = make_window(ready=False)
    window.attach_journal()
    assert window.wait_ready(30_000), window.session.problem
    return window


def _send_example(qtbot: Any, window: Any) -> str:
    """Send the example payout from the form; its client_orderid."""
    window.show_command("payout-check")
    window.fill_example()
    order = str(window.form.values()["client_orderid"])
    window.sender_.confirm = lambda _w, _text: True  # the production question
    window.sender_.wait_step = 0.3
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=30_000)
    return order


def test_a_window_without_the_key_sends_through_the_team_sender(
    qtbot: Any,
    make_window: Any,
    team_db: TeamDatabase,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stand_in = Gateway()
    (tmp_path / "team").mkdir()
    with serve(stand_in) as server:
        team = sender_team(team_db, tmp_path / "team", server.url, rsa_key, other_rsa_key)
        sender = team.start_sender()
        try:
            assert wait_for(lambda: _serving(team_db), 60), team.sender.logs()
            window = _makers_window(make_window, server.url, team_db.dsn("alice"), monkeypatch)
            order = _send_example(qtbot, window)
            assert str(window.last_outcome.result) == "accepted"
            assert stand_in.payouts == {order: 1}
            card = window.form.values().get("credit_card_number")
            if card:  # the example carries a card: it reached the sender, sealed
                assert stand_in.bodies[0]["credit_card_number"] == card
            with connect(team_db.dsn()) as sql:
                made_by = sql.execute("SELECT made_by FROM gateway.requests").fetchone()[0]
            assert made_by == SENDER
        finally:
            stop(sender)


def test_the_window_shows_the_final_status_a_callback_to_the_sender_brought(
    qtbot: Any,
    make_window: Any,
    team_db: TeamDatabase,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The gateway calls the sender back, not the maker's computer: her window's result line
    and history pane show the final status all the same, from the callback."""
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        Approvals(admin).set_callback_secret("live", SECRET)
    stand_in = Gateway()
    (tmp_path / "team").mkdir()
    with serve(stand_in) as server:
        team = sender_team(team_db, tmp_path / "team", server.url, rsa_key, other_rsa_key)
        sender = team.start_sender(
            "--callback-listen", "127.0.0.1:0", variables={CONTROL_ENV: SECRET}
        )
        try:
            assert wait_for(lambda: _serving(team_db), 60), team.sender.logs()
            listens = re.search(r"callbacks at (http://\S+/callback)", team.sender.logs(sender))
            assert listens, team.sender.logs(sender)
            window = _makers_window(make_window, server.url, team_db.dsn("alice"), monkeypatch)
            order = _send_example(qtbot, window)
            assert str(window.last_outcome.result) == "accepted"
            orderid = "9001"  # the stand-in's order id for the first payout
            control = control_code("approved", orderid, order, SECRET)
            callback = {"status": "approved", "orderid": orderid, "client_orderid": order,
                        "type": "payout", "control": control}  # fmt: skip
            assert requests.post(listens.group(1), data=callback, timeout=10).status_code == 200
            qtbot.waitUntil(lambda: "(callback)" in window.panel.result.text(), timeout=15_000)
            assert "approved" in window.panel.result.text()
            pane = pane_of(window)
            qtbot.waitUntil(
                lambda: shown_rows(qtbot, pane, 1)[0].final_status_source == "callback",
                timeout=15_000,
            )
            assert shown_rows(qtbot, pane, 1)[0].final_status == "approved"
        finally:
            stop(sender)
