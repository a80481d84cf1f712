"""What a screen reader reads and hears, walked through Qt's accessibility interfaces in
this process: status lines read by their text and announced when they change, the
production question announced at once."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QAccessibleEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTabBar,
    QTextEdit,
    QWidget,
)

from console.core.pipeline.summary import SendSummary
from console.core.spec import COMMANDS
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
    assert "Accepted" in spoken
    assert window.form.values()["client_orderid"] in spoken
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
    assert "Live EUR" in alerts[0]
    assert "125.50 EUR" in alerts[0]


# -- the keyboard's cursor -------------------------------------------------------------------
def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keyboard focus"
    return widget


def in_sight(widget: QWidget) -> bool:
    """Shown and not scrolled away: some of it is on the screen."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def describe(widget: QWidget) -> str:
    return widget.objectName() or read(widget) or type(widget).__name__


@pytest.fixture
def active(qtbot: Any, window: MainWindow) -> MainWindow:
    window.activateWindow()
    qtbot.waitActive(window)
    window.show_command("payout-check")
    return window


def test_enter_on_send_keeps_the_cursor_in_sight(qtbot: Any, active: MainWindow) -> None:
    active.fill_example()
    send = active.panel.send_button
    send.setFocus()
    before = active.last_outcome
    qtbot.keyClick(send, Qt.Key.Key_Return)
    assert in_sight(focused()), f"the cursor went to {describe(focused())}, out of sight"
    qtbot.waitUntil(lambda: active.last_outcome is not before, timeout=20_000)
    assert in_sight(focused()), f"the cursor went to {describe(focused())}, out of sight"
    assert "Accepted" in read(focused())  # where the cursor waits, the answer is read


def test_every_tab_stop_of_the_payout_form_is_in_sight(qtbot: Any, active: MainWindow) -> None:
    active.form.focus_first()
    seen: list[QWidget] = []
    for _ in range(60):
        widget = focused()
        assert in_sight(widget), f"Tab stop {len(seen) + 1} ({describe(widget)}) is out of sight"
        if seen and widget is seen[0]:
            break
        assert widget not in seen[-1:], f"Tab after {describe(widget)} did not move the cursor"
        seen.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    names = [w.objectName() for w in seen]
    assert "sandbox-hint-more" in names  # the test data's "More" is a stop of its own
    more = next(w for w in seen if w.objectName() == "sandbox-hint-more")
    more.setFocus()
    qtbot.keyClick(more, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "116" in read(active.form.hint))  # all the CVV2 outcomes


def test_enter_presses_the_focused_button(qtbot: Any, active: MainWindow) -> None:
    row = active.form.rows["client_orderid"]
    row.set_text("")
    generate = next(b for b in row.findChildren(QPushButton) if b.text() == "Generate")
    generate.setFocus()
    qtbot.keyClick(generate, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: row.text() != "")


def test_a_skip_from_the_card_details_to_send(qtbot: Any, active: MainWindow) -> None:
    active.fill_example()
    active.form.focus_field("cvv2")
    for _ in range(3):
        qtbot.keyClick(focused(), Qt.Key.Key_Tab)
        if focused().objectName().startswith("skip-to-send"):
            break
    skip = focused()
    assert skip.objectName() == "skip-to-send:card", describe(skip)
    assert in_sight(skip)
    qtbot.keyClick(skip, Qt.Key.Key_Return)
    assert focused() is active.panel.send_button


# -- names, labels and states ----------------------------------------------------------------
INTERACTIVE = (
    QAbstractButton,
    QLineEdit,
    QComboBox,
    QDialog,
    QAbstractSpinBox,
    QPlainTextEdit,
    QTextEdit,
    QAbstractItemView,
    QTabBar,
)
_INSIDE = (QComboBox, QAbstractSpinBox, QAbstractItemView, QTabBar)  # their parts are theirs


def _words(text: str) -> str:
    """A visible label as words: no mnemonic &, no required *, no trailing colon or …."""
    text = re.sub(r"<[^>]+>", "", text).replace("&&", "\0").replace("&", "").replace("\0", "&")
    return text.replace("*", "").strip().rstrip(":…").strip()


def unclear_controls(root: QWidget) -> list[str]:
    """Every control a person can use under ``root`` whose spoken name is missing, leaves
    out its visible label, or is its current value or a glyph."""
    labels = {id(b): lab for lab in root.findChildren(QLabel) if (b := lab.buddy()) is not None}
    found: list[str] = []
    for w in root.findChildren(QWidget):
        if not isinstance(w, INTERACTIVE) or not w.isVisibleTo(root):
            continue
        if isinstance(w.parentWidget(), _INSIDE) or w.focusPolicy() == Qt.FocusPolicy.NoFocus:
            continue
        name = read(w)
        interface = QAccessible.queryAccessibleInterface(w)
        # a screen reader says a control's labels (Qt: on Linux a combo box's name is its
        # value, and its label relation says what it is)
        labelled = [str(i.text(QAccessible.Text.Name)) for i, _ in interface.relations()]
        said = " ".join([name, *labelled])
        what = f"{type(w).__name__} {w.objectName() or '?'} named {name!r}"
        visible = ""
        if isinstance(w, QAbstractButton) and w.text():
            visible = _words(w.text())
        elif id(w) in labels:
            visible = _words(labels[id(w)].text())
        if not said.strip() or (name.strip() in "•✓!✕#" and not labelled):
            found.append(f"{what}: no name")
        elif visible and visible.lower() not in said.lower():
            found.append(f"{what}: its visible label {visible!r} is not in it")
        elif isinstance(w, QComboBox) and not labelled:
            found.append(f"{what}: read by its current value, nothing says what it is")
    for label in root.findChildren(QLabel):
        shown = plain_text(label.text()) if label.text() else ""
        fixed = label.accessibleName()
        glyph = len(shown) == 1  # a state mark: its name is its words
        if shown and fixed and not glyph and label.isVisibleTo(root) and plain_text(fixed) != shown:
            found.append(f"QLabel {fixed!r}: a fixed name replaces its text {shown[:60]!r}")
    return found


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
            label = _words(row.label.text())
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


def test_f6_goes_from_pane_to_pane_and_the_shortcut_list_says_so(
    qtbot: Any, active: MainWindow
) -> None:
    from console.ui.menus import shortcut_rows

    active.inspector.show()
    history = active.journal.history_dock
    history.show()
    active.form.focus_field("amount")
    visited = []
    for _ in range(3):
        qtbot.keyClick(focused(), Qt.Key.Key_F6)
        here = focused()
        assert in_sight(here), describe(here)
        visited.append(
            "inspector"
            if active.inspector.isAncestorOf(here)
            else "history"
            if history.isAncestorOf(here)
            else "form"
            if active.centralWidget().isAncestorOf(here)
            else describe(here)
        )
    assert visited[-1] == "form"
    assert {"inspector", "history"} <= set(visited)
    qtbot.keyClick(focused(), Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert not active.centralWidget().isAncestorOf(focused())
    assert ("Next pane", "F6") in shortcut_rows(active)
