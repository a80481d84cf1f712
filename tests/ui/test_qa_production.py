"""Production confirmation of a recurring profile: the card it charges is repeated, masked."""

from __future__ import annotations

from typing import Any

from console.ui.main_window import MainWindow
from tests.helpers.dialogs import answer_next_question
from tests.helpers.production import go_live
from tests.ui.test_sending import _requests

PAN = "4111111111111111"
MASKED = "411111******1111"


def test_recurring_profile_confirmation_names_the_masked_card(
    qtbot: Any, window: MainWindow
) -> None:
    go_live(window)
    window.show_command("create-recurring-payment")
    window.fill_example()
    window.form.load({"credit-card-number": PAN, "cvv2": "111"})
    before = _requests(window)
    seen: list[str] = []
    answer_next_question(False, seen)
    window.send()
    qtbot.waitUntil(lambda: bool(seen), timeout=5_000)
    assert "9.99" in seen[0]
    assert "USD" in seen[0]
    assert MASKED in seen[0]
    assert PAN not in seen[0]
    qtbot.wait(200)
    assert _requests(window) == before


def test_nothing_says_sending_while_the_confirmation_is_open(
    qtbot: Any, window: MainWindow
) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    go_live(window)
    window.show_command("payout-check")
    window.fill_example()
    panel = window.panel
    seen: list[str] = []

    def look_then_cancel() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, look_then_cancel)
            return
        panel.update_send()  # as a field's validation does when the question takes the focus
        seen.extend((panel.result.text(), panel.summary.headline.text()))
        seen.append("busy" if panel.busy.isVisible() else "")
        window.show_command("status")  # another form's line does not say it is on its way
        seen.append(panel.result.text())
        window.show_command("payout-check")
        box.reject()

    QTimer.singleShot(20, look_then_cancel)
    window.send()
    qtbot.waitUntil(lambda: len(seen) == 4, timeout=5_000)
    assert not any("Sending" in text for text in seen), seen
    assert "busy" not in seen
    assert "question" in seen[1]  # why Send is off meanwhile
    assert "Cancelled: nothing sent" in panel.result.text()
