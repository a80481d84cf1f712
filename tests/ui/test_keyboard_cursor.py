"""The keyboard's cursor for a person who cannot see it move: it never lands out of sight,
Enter presses the button it is on, Skip to Send and F6 shorten the way."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QWidget

from console.ui.main_window import MainWindow
from tests.helpers.accessibility import describe, focused, in_sight, read


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
