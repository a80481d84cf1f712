"""What a screen reader reads and hears, walked through Qt's accessibility interfaces in
this process: status lines read by their text and announced when they change, the
production question announced at once, every control of every form, dock and dialog named
by what the screen shows, a field's wire name, required and invalid in its description."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QAccessibleEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QWidget,
)

from console.core.pipeline.summary import SendSummary
from console.core.spec import COMMANDS
from console.ui.main_window import MainWindow
from console.ui.sending import ask_production, production_question
from console.ui.speech import plain_text
from tests.helpers.accessibility import read, unclear_controls, words

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


@pytest.fixture
def active(qtbot: Any, window: MainWindow) -> MainWindow:
    window.activateWindow()
    qtbot.waitActive(window)
    window.show_command("payout-check")
    return window


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
    assert "Accepted" in spoken
    assert spoken == plain_text(result.text())
    assert ("Polite", spoken) in heard  # the outcome is heard without looking for it
    # the same id again: Send is off; the line that says so names the accepted order (the
    # outcome's line leaves it out), and it is read and heard too
    qtbot.waitUntil(lambda: bool(window.findChildren(QLabel, "why-send-is-off")[0].isVisible()))
    why = read(status_line(window, "why-send-is-off"))
    assert why.startswith("Already sent and accepted")
    assert window.form.values()["client_orderid"] in why
    assert "Send is off" in why
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
    assert "Live EUR" in alerts[0]
    assert "125.50 EUR" in alerts[0]


# -- names, labels and states ----------------------------------------------------------------
def test_every_field_is_named_by_its_label_with_wire_name_and_states(
    qtbot: Any, window: MainWindow
) -> None:
    problems: list[str] = []
    for name, form in window.forms.items():
        window.show_command(name)
        for field in COMMANDS[name].fields:
            row = form.rows[field.name]
            spoken = row.findChild(QLineEdit, f"field:{field.name}") or row.editor
            interface = QAccessible.queryAccessibleInterface(spoken)
            said = str(interface.text(QAccessible.Text.Name))
            described = str(interface.text(QAccessible.Text.Description))
            label = words(row.label.text())
            if label not in said:
                problems.append(f"{name} {field.name}: read as {said!r}, shown as {label!r}")
            if field.name not in described:
                problems.append(f"{name} {field.name}: wire name not in {described!r}")
            if row.required and "required" not in described:
                problems.append(f"{name} {field.name}: required, not said: {described!r}")
            labelled = [str(i.text(QAccessible.Text.Name)) for i, _ in interface.relations()]
            if not any(label in text for text in labelled):
                problems.append(f"{name} {field.name}: no label relation ({labelled})")
        problems += [f"{name}: {p}" for p in unclear_controls(form)]
    assert not problems, "\n".join(problems)


def test_an_invalid_field_says_so_with_its_message(qtbot: Any, active: MainWindow) -> None:
    row = active.form.rows["amount"]
    row.editor.setFocus()
    qtbot.keyClicks(row.editor, "-5")
    qtbot.keyClick(row.editor, Qt.Key.Key_Tab)  # left with a mistake: now it is one
    qtbot.waitUntil(lambda: row.state == "error")
    described = str(
        QAccessible.queryAccessibleInterface(row.editor).text(QAccessible.Text.Description)
    )
    assert "invalid" in described
    assert row.message.full_text().rstrip(".") in described
    assert read(row.mark) == "invalid"  # the state mark is not read as "✕"
    row.editor.setFocus()
    qtbot.keyClick(row.editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(row.editor, "5.00")
    qtbot.waitUntil(lambda: row.state == "fine")
    assert read(row.mark) == "valid"
    assert "invalid" not in str(
        QAccessible.queryAccessibleInterface(row.editor).text(QAccessible.Text.Description)
    )


def test_every_control_of_the_window_and_its_docks_is_named(qtbot: Any, window: MainWindow) -> None:
    window.show_command("payout-check")
    for dock in window.journal.docks:
        dock.show()
    window.inspector.show()
    problems = unclear_controls(window)
    assert not problems, "\n".join(problems)


DIALOGS: dict[str, Callable[[MainWindow], object]] = {
    "keys": lambda w: w.actions_by_name["keys"].trigger(),
    "environments": lambda w: w.actions_by_name["environments"].trigger(),
    "batch payouts": lambda w: w.actions_by_name["batch"].trigger(),
    "signature lab": lambda w: w.actions_by_name["signature-lab"].trigger(),
    "keyboard shortcuts": lambda w: w.actions_by_name["shortcuts"].trigger(),
}


@pytest.mark.parametrize("name", DIALOGS)
def test_every_control_of_every_dialog_is_named(qtbot: Any, window: MainWindow, name: str) -> None:
    before = {id(w) for w in QApplication.topLevelWidgets() if w.isVisible()}
    found: list[str] = []
    done: list[bool] = []

    def walk() -> None:
        dialog = next(
            (
                w
                for w in QApplication.topLevelWidgets()
                if isinstance(w, QDialog) and w.isVisible() and id(w) not in before
            ),
            None,
        )
        if dialog is None:
            QTimer.singleShot(20, walk)
            return
        qtbot.wait(100)
        found.extend(unclear_controls(dialog))
        done.append(True)
        dialog.reject()

    QTimer.singleShot(0, walk)
    DIALOGS[name](window)
    qtbot.waitUntil(lambda: bool(done), timeout=15_000)
    assert not found, f"{name}:\n" + "\n".join(found)
