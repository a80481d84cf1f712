"""What a screen reader reads and hears, walked through Qt's accessibility interfaces in
this process: status lines read by their text and announced when they change, the
production question announced at once."""

from __future__ import annotations


from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QAccessibleEvent
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget

from console.core.pipeline.summary import SendSummary
from console.ui.main_window import MainWindow
from console.ui.sending import ask_production, production_question
from console.ui.speech import plain_text

Heard = list[tuple[str, str]]  # (politeness, words) of each announcement


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> Heard:
    """Every announcement the window makes, as a screen reader would get it."""
    said: Heard = []

    def update(event: QAccessibleEvent) -> None:
        if isinstance(event, QAccessibleAnnouncementEvent):
            said.append((event.politeness().name, event.message()))

    monkeypatch.setattr(QAccessible, "updateAccessibility", staticmethod(update))
    return said


def read(widget: QWidget) -> str:
    """What a screen reader reads for a widget: its accessible name."""
    interface = QAccessible.queryAccessibleInterface(widget)
    assert interface is not None
    return str(interface.text(QAccessible.Text.Name))


def status_line(window: QWidget, name: str) -> QLabel:
    found = [w for w in window.findChildren(QLabel, name) if w.isVisible()]
    assert len(found) == 1, f"{len(found)} status lines {name!r} shown"
    return found[0]


def _send(qtbot: Any, window: MainWindow) -> None:
    before = window.last_outcome
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.last_outcome is not before, timeout=20_000)


def test_status_lines_are_read_by_their_text(qtbot: Any, window: MainWindow, heard: Heard) -> None:
    window.show_command("payout-check")
    window.fill_example()
    hint = status_line(window, "sandbox-hint")
    assert "4444 4444 4444 4448" in read(hint)  # the test card, not "Sandbox test data"
    summary = status_line(window, "validation-summary")
    assert read(summary) == plain_text(summary.text())
    assert "Ready to send" in read(summary)
    _send(qtbot, window)
    result = status_line(window, "last-outcome")
    spoken = read(result)
    assert "Accepted" in spoken and window.form.values()["client_orderid"] in spoken
    assert spoken == plain_text(result.text())
    assert ("Polite", spoken) in heard  # the outcome is heard without looking for it
    # the same id again: Send is off, and the reason is read and heard
    qtbot.waitUntil(lambda: bool(window.findChildren(QLabel, "why-send-is-off")[0].isVisible()))
    why = read(status_line(window, "why-send-is-off"))
    assert why.startswith("Already sent and accepted")
    assert ("Polite", why) in heard
    for label in (hint, summary, result, status_line(window, "why-send-is-off")):
        assert label.accessibleName() == ""  # no fixed name in place of the text
        assert label.accessibleDescription()  # what the line is, said after it


def test_production_question_is_an_alert_with_environment_and_amount(
    qtbot: Any, window: MainWindow, heard: Heard
) -> None:
    summary = SendSummary.of(
        "Live EUR",
        True,
        "payout-check",
        [("amount", "125.50"), ("currency", "EUR"), ("client_orderid", "gc-1")],
    )

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        box.reject()

    QTimer.singleShot(0, answer)
    assert not ask_production(window, production_question(summary))
    alerts = [words for politeness, words in heard if politeness == "Assertive"]
    assert len(alerts) == 1, heard
    assert "PRODUCTION" in alerts[0]
    assert "Live EUR" in alerts[0] and "125.50 EUR" in alerts[0]


