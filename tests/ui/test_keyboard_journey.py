"""A person who never touches the mouse: a payout to a card, a recurring profile, a status check.

Every step is a key press on whatever has the focus (Tab, arrows, typing, the menus'
shortcuts), against the real window and the built-in sandbox. The test finds widgets only by
their object or accessible names and reads what a person reads on screen: the result line,
the schedule preview, the history.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QTableView,
    QTableWidget,
    QWidget,
)

from console.ui.main_window import MainWindow

CTRL = Qt.KeyboardModifier.ControlModifier
TAB_LIMIT = 80  # more Tab presses than any form has stops: the target is not reachable


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keyboard focus"
    return widget


def press(
    qtbot: Any, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    """One key (or shortcut) pressed on whatever has the focus."""
    qtbot.keyClick(focused(), key, modifier)


def stop_name(widget: QWidget) -> str:
    """The name of a Tab stop: a date's line edit goes by its date field's name."""
    parent = widget.parentWidget()
    if isinstance(widget, QLineEdit) and not widget.objectName() and parent is not None:
        return parent.objectName()
    return widget.objectName()


def tab_to(qtbot: Any, name: str) -> QWidget:
    """Press Tab until the widget named ``name`` has the focus, as a person does."""
    for _ in range(TAB_LIMIT):
        widget = focused()
        if stop_name(widget) == name:
            return widget
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reaches {name}")


def type_in(qtbot: Any, field: str, text: str) -> None:
    """Tab to a field and type into it."""
    qtbot.keyClicks(tab_to(qtbot, f"field:{field}"), text)


def choose(qtbot: Any, choice: str, option: str) -> None:
    """Tab to a choice and move through its options with the arrow keys."""
    combo = tab_to(qtbot, f"choice:{choice}")
    assert isinstance(combo, QComboBox)
    while combo.currentIndex() > 0:
        qtbot.keyClick(combo, Qt.Key.Key_Up)
    for _ in range(combo.count()):
        if combo.currentText().startswith(option):
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    raise AssertionError(f"{choice} has no option {option!r}: {combo.currentText()!r}")


def shown_child(window: QWidget, kind: type[QWidget], name: str) -> Any:
    """The one widget of that object name on screen (each form has its own fields)."""
    found = [w for w in window.findChildren(kind, name) if w.isVisible()]
    assert len(found) == 1, f"{len(found)} {kind.__name__} named {name!r} shown"
    return found[0]


def by_accessible_name(window: QWidget, kind: type[QWidget], name: str) -> Any:
    found = [w for w in window.findChildren(kind) if w.accessibleName() == name]
    assert len(found) == 1, f"{len(found)} {kind.__name__} named {name!r}"
    return found[0]


def seen(label: QLabel) -> str:
    """A label's text as a person reads it (no markup)."""
    return html.unescape(re.sub(r"<[^>]+>", "", label.text()))


def result_line(window: QWidget) -> str:
    """The lines beside Send as a person reads them: why Send is off, when it is (it names an
    order sent already, which the last outcome's line then leaves out), and that line."""
    names = ("why-send-is-off", "last-outcome")
    lines = [w for n in names for w in window.findChildren(QLabel, n) if w.isVisible()]
    return " ".join(seen(w) for w in lines)


def wait_for_line(qtbot: Any, window: QWidget, *words: str, timeout: int = 20_000) -> str:
    """Wait until the lines beside Send say all of ``words``."""
    try:
        qtbot.waitUntil(lambda: all(w in result_line(window) for w in words), timeout=timeout)
    except Exception:
        raise AssertionError(f"the result line says {result_line(window)!r}") from None
    return result_line(window)


def shown_command(window: QWidget) -> str:
    """The title of the form shown (the Commands tab that is current)."""
    from PySide6.QtWidgets import QTabBar

    tabs = by_accessible_name(window, QTabBar, "Commands")
    return str(tabs.tabText(tabs.currentIndex()))


def history_rows(qtbot: Any, window: QWidget, count: int) -> list[dict[str, str]]:
    """The history table as shown: one dict per row, by column title, once ``count`` rows
    are read."""
    table = window.findChild(QTableView, "history-table")
    assert table is not None
    assert table.isVisible()
    model: QAbstractItemModel = table.model()

    def cell(row: int, column: int) -> str:
        return str(model.data(model.index(row, column)) or "")

    def ready() -> bool:
        return model.rowCount() == count and all(cell(r, 0) != "…" for r in range(model.rowCount()))

    qtbot.waitUntil(ready, timeout=10_000)
    titles = [
        str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())
    ]
    return [
        {titles[c]: cell(r, c) for c in range(model.columnCount())} for r in range(model.rowCount())
    ]


@pytest.fixture
def keyboard_window(qtbot: Any, window: MainWindow) -> MainWindow:
    """The window at start-up, active, nothing clicked."""
    window.activateWindow()
    qtbot.waitActive(window)
    return window


def test_payout_recurring_profile_and_status_with_the_keyboard_only(
    qtbot: Any, keyboard_window: MainWindow
) -> None:
    window = keyboard_window

    # -- a payout to a card ------------------------------------------------------------------
    press(qtbot, Qt.Key.Key_1, CTRL)
    assert shown_command(window) == "Payout check"
    choose(qtbot, "receiver", "Card")
    choose(qtbot, "callback", "This console's callback listener")
    choose(qtbot, "redirect", "None")
    tab_to(qtbot, "field:client_orderid")
    press(qtbot, Qt.Key.Key_G, CTRL)  # Generate order id
    order_id = focused()
    assert isinstance(order_id, QLineEdit)
    client_orderid = order_id.text()
    assert client_orderid.startswith("gc-")
    type_in(qtbot, "amount", "12.30")
    type_in(qtbot, "currency", "EUR")
    type_in(qtbot, "credit_card_number", "4444 4444 4444 4448")  # as the sandbox hint shows it
    card = focused()
    assert isinstance(card, QLineEdit)
    assert card.text() == "4444444444444448"  # normalised in sight
    type_in(qtbot, "card_printed_name", "JOHN SMITH")
    type_in(qtbot, "expire_month", "12")
    type_in(qtbot, "expire_year", "203")  # a digit short, seen after moving on
    type_in(qtbot, "cvv2", "123")  # the sandbox approves it
    press(qtbot, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    year = focused()
    assert stop_name(year) == "field:expire_year"
    press(qtbot, Qt.Key.Key_End)
    qtbot.keyClicks(year, "0")
    assert isinstance(year, QLineEdit)
    assert year.text() == "2030"
    press(qtbot, Qt.Key.Key_Return, CTRL)  # Send
    line = wait_for_line(qtbot, window, client_orderid, "Final status approved")
    assert "Already sent and accepted" in line

    # -- a recurring profile, its schedule seen before sending ----------------------------------
    press(qtbot, Qt.Key.Key_3, CTRL)
    assert shown_command(window) == "Create recurring payment profile"
    choose(qtbot, "amount-rule", "Fixed amount")
    choose(qtbot, "schedule", "Automatic")
    choose(qtbot, "callback", "None")
    tab_to(qtbot, "field:client-orderid")
    press(qtbot, Qt.Key.Key_G, CTRL)
    profile_id = focused()
    assert isinstance(profile_id, QLineEdit)
    profile_orderid = profile_id.text()
    assert profile_orderid.startswith("gc-")
    assert profile_orderid != client_orderid
    type_in(qtbot, "credit-card-number", "4444-4444-4444-4448")
    type_in(qtbot, "card-printed-name", "JANE DOE")
    type_in(qtbot, "expire-month", "11")
    type_in(qtbot, "expire-year", "2031")
    type_in(qtbot, "cvv2", "123")
    type_in(qtbot, "amount", "9.99")
    type_in(qtbot, "currency", "EUR")
    type_in(qtbot, "period", "month")
    type_in(qtbot, "interval", "1")
    type_in(qtbot, "start-date", "01.03.2027")
    type_in(qtbot, "max-repeats-number", "6")
    type_in(qtbot, "country", "DE")
    type_in(qtbot, "city", "Berlin")
    type_in(qtbot, "zip-code", "10115")
    type_in(qtbot, "address1", "Unter den Linden 1")
    type_in(qtbot, "first-name", "Jane")
    type_in(qtbot, "last-name", "Doe")
    type_in(qtbot, "email", "jane.doe@example.com")

    preview = shown_child(window, QWidget, "schedule-preview")
    summary = " ".join(seen(label) for label in preview.findChildren(QLabel))
    assert "First charge Mon 01.03.2027" in summary
    assert "6 charge(s) in all" in summary
    charges = by_accessible_name(preview, QTableWidget, "Next charges")
    assert charges.rowCount() == 6
    last = [charges.item(5, c).text() for c in range(3)]
    assert last[1].endswith("01.08.2027")
    assert "9.99" in last[2]

    press(qtbot, Qt.Key.Key_Return, CTRL)
    profile_line = wait_for_line(qtbot, window, profile_orderid)
    assert "The recurring payment profile was created" in profile_line
    assert "approved" in profile_line.lower() or "accepted" in profile_line.lower()

    # -- the payout's status --------------------------------------------------------------------
    press(qtbot, Qt.Key.Key_4, CTRL)
    assert shown_command(window) == "Order status"
    press(qtbot, Qt.Key.Key_E, CTRL)  # Fill with example: the last payout
    assert shown_child(window, QLineEdit, "field:client_orderid").text() == client_orderid
    press(qtbot, Qt.Key.Key_Return, CTRL)
    status_line = wait_for_line(qtbot, window, "The order status is approved")
    assert client_orderid in status_line

    # -- the history shows all three ------------------------------------------------------------
    history = window.findChild(QDockWidget, "pane:History")
    if history is None or not history.isVisible():
        press(qtbot, Qt.Key.Key_H, CTRL)
    rows = history_rows(qtbot, window, 3)
    by_command = {r["Command"]: r for r in rows}
    assert set(by_command) == {"payout-check", "create-recurring-payment", "status"}
    payout = by_command["payout-check"]
    assert payout["Client order id"] == client_orderid
    assert payout["Final status"] == "approved"
    assert "444444" in payout["Receiver"]
    assert "4444444444444448" not in payout["Receiver"]
    assert by_command["create-recurring-payment"]["Client order id"] == profile_orderid


# -- where the keyboard gets lost ---------------------------------------------------------------
# The journey above gets through, but these stops make a keyboard user lose sight of the focus.


def _stop(widget: QWidget) -> str:
    return stop_name(widget) or widget.accessibleName() or type(widget).__name__


def test_switching_forms_puts_the_cursor_in_the_form(
    qtbot: Any, keyboard_window: MainWindow
) -> None:
    landed = []
    press(qtbot, Qt.Key.Key_3, CTRL)  # from the Commands tabs, where the window starts
    landed.append(_stop(focused()))
    tab_to(qtbot, "field:client-orderid")
    press(qtbot, Qt.Key.Key_1, CTRL)  # from a field of the recurring form
    assert shown_command(keyboard_window) == "Payout check"
    landed.append(_stop(focused()))
    assert all(s.startswith(("switch:", "choice:", "field:")) for s in landed), landed


def test_tab_goes_from_the_commands_tabs_into_the_form(
    qtbot: Any, keyboard_window: MainWindow
) -> None:
    from PySide6.QtWidgets import QTabBar

    by_accessible_name(keyboard_window, QTabBar, "Commands").setFocus()
    stops = []
    for _ in range(3):
        press(qtbot, Qt.Key.Key_Tab)
        stops.append(_stop(focused()))
    assert "choice:receiver" in stops, stops


def test_tab_goes_from_the_last_field_to_send(qtbot: Any, keyboard_window: MainWindow) -> None:
    press(qtbot, Qt.Key.Key_1, CTRL)
    press(qtbot, Qt.Key.Key_E, CTRL)  # a complete payout: Send is on
    send = keyboard_window.findChild(QWidget, "send")
    assert send is not None
    assert send.isEnabled()
    tab_to(qtbot, "field:merchant_customer_identifier")  # the form's last field
    stops = []
    while focused() is not send and len(stops) < TAB_LIMIT:
        press(qtbot, Qt.Key.Key_Tab)
        widget = focused()
        on_screen = keyboard_window.rect().contains(
            widget.mapTo(keyboard_window, widget.rect().center())
        )
        stops.append(f"{_stop(widget)}{'' if on_screen else ' (off screen)'}")
    assert stops == ["send"], stops
