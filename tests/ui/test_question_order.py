"""The window asks the pipeline's questions in the core's order: on production, after a lost
answer, with a card number failing its check digit: the unknown outcome, then the card
number, then production; Cancel at any of them sends nothing and asks nothing more."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from console.ui.main_window import MainWindow
from tests.helpers.asking import MISTYPED
from tests.helpers.production import go_live

# the window's dialogs for resend_unknown, card_number, production (tests/helpers/asking.ORDER)
DIALOGS = ["unknown-outcome-question", "card-number-confirmation", "production-confirmation"]


def _requests(window: MainWindow) -> int:
    return int(window.session.sandbox.sandbox.stats.requests)


def _answer(go: int, seen: list[str], questions: int) -> None:
    """Answer the next ``questions`` questions as they open, noting each dialog's name: the
    go-ahead button for the first ``go``, then Cancel."""

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        seen.append(box.objectName())
        if len(seen) > go:
            box.button(QMessageBox.StandardButton.Cancel).click()
            return
        accept = QMessageBox.ButtonRole.AcceptRole
        next(b for b in box.buttons() if box.buttonRole(b) == accept).click()
        if len(seen) < questions:
            QTimer.singleShot(20, answer)

    QTimer.singleShot(20, answer)


def test_the_window_asks_in_the_cores_order_and_the_first_cancel_ends_it(
    qtbot: Any, window: MainWindow
) -> None:
    go_live(window)
    window.fill_example()
    window.form.rows["client_orderid"].set_text("q-1")
    window.session.sandbox.set_faults("payout-check:drop")  # processed, the answer is lost
    seen: list[str] = []
    _answer(1, seen, 1)
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert seen == ["production-confirmation"]
    assert str(window.last_outcome.result) == "unknown"
    window.session.sandbox.set_faults(None)
    window.form.rows["credit_card_number"].set_text(MISTYPED)

    for go in range(len(DIALOGS)):  # Cancel at each question in turn
        before = _requests(window)
        seen = []
        _answer(go, seen, go + 1)
        window.send()
        assert seen == DIALOGS[: go + 1]
        qtbot.wait(200)
        assert _requests(window) == before
        assert "Cancelled: nothing sent." in window.panel.result.text()

    seen = []
    _answer(len(DIALOGS), seen, len(DIALOGS))
    before, shown_before = _requests(window), window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert seen == DIALOGS
    assert _requests(window) == before + 1
    assert window.last_outcome.prepared.value("client_orderid") == "q-1"
