"""The window in team mode, against a real PostgreSQL server: its sends go to the team's
shared journal (the guard sees every member's sends), Send says "Submit for approval" where
the policy holds a payout back, the card data stays in the window's memory, and the payout is
sent once, by this window, when a checker approves it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from PySide6.QtCore import Qt

from console.core.team import Approvals, TeamJournal
from console.ui.main_window import MainWindow
from tests.helpers.history_data import answered, prepared_for
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import register_environment

pytest.importorskip("psycopg")


@pytest.fixture
def team_window(make_window: Any, team_db: TeamDatabase, monkeypatch: Any) -> MainWindow:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("alice"))  # a maker
    window = make_window()
    window.attach_journal()
    return window


def _orders(window: MainWindow, client_orderid: str) -> int:
    handle = window.session.sandbox
    found = requests.get(f"{handle.control_url}/orders", timeout=10).json()
    return sum(1 for o in found if o["client_orderid"] == client_orderid)


def _held_payout(qtbot: Any, window: MainWindow, team_db: TeamDatabase) -> None:
    """The example payout on a form whose environment's policy holds every payout."""
    env = window.session.environment
    assert env is not None
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_environment(admin, env, "all")
    window.show_command("payout-check")
    window.fill_example()
    qtbot.waitUntil(lambda: window.panel.send_button.text() == "Submit for approval")


def test_a_held_payout_is_submitted_and_sent_once_by_this_window_when_approved(
    qtbot: Any, team_window: MainWindow, team_db: TeamDatabase
) -> None:
    window = team_window
    _held_payout(qtbot, window, team_db)
    order = window.form.values()["client_orderid"]
    asked: list[str] = []
    window.sender_.confirm_submit = lambda _w, text: bool(asked.append(text)) or True
    window.sender_.wait_step = 0.3
    window.send()
    qtbot.waitUntil(lambda: "Submitted for approval as #" in window.panel.result.text())
    assert "card data stays in this window only" in window.panel.result.text()
    assert "holds this payout-check" in asked[0]
    assert _orders(window, order) == 0  # nothing sent before the approval
    with TeamJournal(team_db.dsn("carol")) as carol:
        approvals = Approvals(carol)
        (pending,) = approvals.pending()
        assert pending.card_data  # the number itself never reached the database
        approvals.approve(pending.id)
    shown_before = window.last_outcome
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert str(window.last_outcome.result) == "accepted"
    qtbot.wait(500)
    assert _orders(window, order) == 1


def test_the_same_request_sent_again_while_it_waits_says_it_is_already_waiting(
    qtbot: Any, team_window: MainWindow, team_db: TeamDatabase
) -> None:
    window = team_window
    _held_payout(qtbot, window, team_db)
    window.form.rows["client_orderid"].set_text("team-again-1")
    window.sender_.confirm_submit = lambda _w, _text: True
    window.sender_.wait_step = 0.3
    window.send()
    qtbot.waitUntil(lambda: "Submitted for approval as #" in window.panel.result.text())
    first = window.panel.result.text()
    qtbot.waitUntil(window.panel.send_button.isEnabled)
    window.send()  # the same request, still waiting for a checker
    qtbot.waitUntil(lambda: window.panel.result.text() != first, timeout=10_000)
    with TeamJournal(team_db.dsn("carol")) as carol:
        (pending,) = Approvals(carol).pending()  # one submission, not two
    again = window.panel.result.text()
    assert f"already waiting for a checker's decision as #{pending.id}" in again
    assert "Submitted for approval" not in again
    assert "nothing new was submitted" in again


def test_the_guard_sees_a_send_made_by_another_team_member(
    qtbot: Any, team_window: MainWindow, team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    window = team_window
    env = window.session.environment
    assert env is not None
    with TeamJournal(team_db.dsn("dave")) as dave:  # another maker, another console
        hooks = dave.journal(env.name)
        req = prepared_for(env, rsa_key, client_orderid="team-dup-1")
        hooks.after_answer(
            hooks.before_send(req),
            answered(req, "type=async-response&serial-number=s&gateway-order-id=77"),
        )
    window.show_command("payout-check")
    window.fill_example()
    window.form.rows["client_orderid"].set_text("team-dup-1")
    qtbot.waitUntil(lambda: window.panel.guard.note.isVisible(), timeout=10_000)
    assert not window.panel.send_button.isEnabled()
    assert "Already sent and accepted" in window.panel.guard.note.text()


def test_a_held_batch_is_approved_as_a_whole_and_run_once_by_this_window(
    qtbot: Any, team_window: MainWindow, team_db: TeamDatabase, tmp_path: Path
) -> None:
    from tests.helpers.batch_files import card_row, write_csv
    from tests.ui.test_batch_dialog import open_dialog, payouts

    window = team_window
    env = window.session.environment
    assert env is not None
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_environment(admin, env, "all")
    path = write_csv(tmp_path / "team.csv", [card_row(f"tb-{i}", f"{10 + i}.00") for i in (1, 2)])
    dialog = open_dialog(qtbot, window, path)
    asked: list[str] = []
    dialog.controller.confirm_submit = lambda _w, text: bool(asked.append(text)) or True
    dialog.controller.wait_step = 0.3
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Submitted for approval as #" in dialog.message.text())
    assert "batch of 2 payouts" in asked[0]
    assert payouts(window) == Counter()  # nothing before the approval
    with TeamJournal(team_db.dsn("bob")) as bob:
        approvals = Approvals(bob)
        (pending,) = approvals.pending()
        approvals.approve(pending.id)
    qtbot.waitUntil(lambda: "Results:" in dialog.message.text(), timeout=20_000)
    assert payouts(window) == Counter({"tb-1": 1, "tb-2": 1})


def test_the_policy_is_asked_again_only_when_what_it_looks_at_changes(
    qtbot: Any, team_window: MainWindow, team_db: TeamDatabase, monkeypatch: Any
) -> None:
    window = team_window
    env = window.session.environment
    assert env is not None
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_environment(admin, env, "above", {"USD": "100.00"})
    window.show_command("payout-check")
    window.fill_example()  # 10.50 USD: below the threshold
    assert window.tasks.wait(10_000)  # the policy asked about the example has answered
    asked: list[str] = []
    real = window.sender_.needs_approval

    def counting(command: str, values: Any) -> bool:
        asked.append(values.get("amount", ""))
        return real(command, values)

    monkeypatch.setattr(window.sender_, "needs_approval", counting)
    window.form.rows["amount"].set_text("150.00")
    qtbot.waitUntil(lambda: window.panel.send_button.text() == "Submit for approval")
    for text in ("W", "Wi", "Win"):  # typing elsewhere: the database is not asked again
        window.form.rows["order_desc"].set_text(text)
    qtbot.wait(200)
    assert asked == ["150.00"]
    window.form.rows["amount"].set_text("50.00")
    qtbot.waitUntil(lambda: window.panel.send_button.text() == "Send")
    assert asked == ["150.00", "50.00"]
