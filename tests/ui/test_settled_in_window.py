"""The window refuses a client_orderid whose order the gateway declined, as it refuses an
accepted one: here learnt by a status check after the send's answer was lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import requests
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from console.ui.main_window import MainWindow


def _check_status_on_the_question() -> None:
    def run() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, run)
            return
        next(b for b in box.buttons() if b.text() == "Check status").click()

    QTimer.singleShot(20, run)


def test_a_declined_order_turns_send_off_with_the_reason(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window(sandbox_options={"callback_delay": 0})  # final at once
    sandbox = window.session.sandbox
    sandbox.set_faults("payout-check:drop")
    window.show_command("payout-check")
    window.fill_example()
    window.form.rows["client_orderid"].set_text("declined-1")
    window.form.rows["cvv2"].set_text("101")  # the sandbox declines it: expired card
    window.form.load({"@callback": "none"})  # the status check must be what tells
    shown_before = window.last_outcome
    window.panel.send_button.click()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert str(window.last_outcome.result) == "unknown"
    sandbox.set_faults(None)

    _check_status_on_the_question()
    window.send()
    qtbot.waitUntil(lambda: not window.panel.send_button.isEnabled(), timeout=15_000)
    note = window.panel.guard.note.text()
    assert "Already sent and declined (status declined) at" in note
    assert "Send is off." in note
    assert "use a new client_orderid (Ctrl+G)" in window.panel.guard.new_id_button.toolTip()
    before = int(sandbox.sandbox.stats.requests)
    window.send()
    qtbot.wait(400)
    assert int(sandbox.sandbox.stats.requests) == before
    found = requests.get(f"{sandbox.control_url}/orders", timeout=10).json()
    assert sum(1 for o in found if o["client_orderid"] == "declined-1") == 1
