"""The window of a maker whose profile has no production key, in a team with a team sender
(a real process) on a real PostgreSQL server: the environment is usable all the same, Send
goes through the sender (the card data sealed to it), and the outcome shows as for a send."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core.team import connect
from tests.helpers.http_server import serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import SENDER, Gateway, sender_team, stop, wait_for

pytest.importorskip("psycopg")


def _serving(db: TeamDatabase) -> bool:
    with connect(db.dsn()) as sql:
        return bool(sql.execute("SELECT count(*) FROM gateway.senders").fetchone()[0])


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
            added = ["env", "add", "live", "--kind", "production", "--base-url", server.url,
                     "--login", "merchant", "--endpoint-id", "1", "--use"]  # fmt: skip
            assert main(added) == 0  # this window's profile: no key for it
            monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("alice"))
            window = make_window(ready=False)
            window.attach_journal()
            assert window.wait_ready(30_000), window.session.problem
            window.show_command("payout-check")
            window.fill_example()
            order = window.form.values()["client_orderid"]
            window.sender_.confirm = lambda _w, _text: True  # the production question
            window.sender_.wait_step = 0.3
            shown_before = window.last_outcome
            window.send()
            qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=30_000)
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
