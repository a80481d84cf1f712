"""In the window, a payout a checker rejected before: the submit question says who rejected
it, when and why, and submits it again only with its box ticked (the approval queue's side is
in test_team_queue). Against a real PostgreSQL server."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QCheckBox, QMessageBox

from console.core.team import Approvals, TeamJournal
from console.ui.sending import AGAIN, ask_approval_again
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import register_environment

pytest.importorskip("psycopg")


def test_submitting_again_after_a_rejection_needs_its_box_ticked(qtbot: Any) -> None:
    seen: list[tuple[bool, bool]] = []

    def answer(tick: bool) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, lambda: answer(tick))
            return
        go = next(b for b in box.buttons() if b.text() == "Submit for approval")
        check = box.checkBox()
        assert isinstance(check, QCheckBox)
        assert check.text() == AGAIN
        before = go.isEnabled()
        if tick:
            check.setChecked(True)
        seen.append((before, go.isEnabled()))
        (go if go.isEnabled() else box.buttons()[-1]).click()

    QTimer.singleShot(0, lambda: answer(False))
    assert ask_approval_again(None, "#1 was rejected before by bob") is False
    QTimer.singleShot(0, lambda: answer(True))
    assert ask_approval_again(None, "#1 was rejected before by bob") is True
    assert seen == [(False, False), (False, True)]


def test_the_window_asks_with_the_rejection_and_submits_again_only_when_ticked(
    qtbot: Any, make_window: Any, team_db: TeamDatabase, monkeypatch: Any
) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("alice"))
    window = make_window()
    window.attach_journal()
    env = window.session.environment
    assert env is not None
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_environment(admin, env, "all")
    window.show_command("payout-check")
    window.fill_example()
    qtbot.waitUntil(lambda: window.panel.send_button.text() == "Submit for approval")
    window.sender_.confirm_submit = lambda _w, _text: True
    window.sender_.wait_step = 0.3
    window.send()
    qtbot.waitUntil(lambda: "Submitted for approval as #1" in window.panel.result.text())
    with TeamJournal(team_db.dsn("bob")) as bob:
        Approvals(bob).reject(1, "wrong month")
    qtbot.waitUntil(lambda: "rejected by bob" in window.panel.result.text(), timeout=10_000)
    qtbot.waitUntil(window.panel.send_button.isEnabled)

    asked: list[str] = []
    window.sender_.confirm_submit = lambda _w, _text: pytest.fail("asked without the rejection")
    window.sender_.confirm_submit_again = lambda _w, text: bool(asked.append(text))  # not ticked
    window.send()
    qtbot.waitUntil(lambda: bool(asked))
    assert "#1 was rejected before by bob at " in asked[0]
    assert ": wrong month." in asked[0]
    window.sender_.confirm_submit_again = lambda _w, text: bool(asked.append(text)) or True
    window.send()
    qtbot.waitUntil(lambda: "Submitted for approval as #2" in window.panel.result.text())
    with TeamJournal(team_db.dsn("carol")) as carol:
        (again,) = Approvals(carol).pending()
    assert again.after_rejection_of == 1
