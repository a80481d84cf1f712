"""A fresh form asks calmly for what is missing; mistakes and tried sends show in colour."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit

from console.ui.forms.recurring_form import RecurringForm
from console.ui.main_window import MainWindow
from console.ui.theme import state_colour


def _colour(window: MainWindow, state: str) -> str:
    return state_colour(state, window.panel.summary.palette()).name()


def test_fresh_form_is_calm_and_still_blocks_send(window: MainWindow) -> None:
    window.show_command("create-card-ref")
    window.clear_form()
    headline = window.panel.summary.headline.text()
    assert "Fill in the 2 required fields" in headline
    assert _colour(window, "required") in headline
    assert _colour(window, "error") not in headline
    assert window.form.rows["orderid"].state == "required"
    assert not window.panel.send_button.isEnabled()
    editor = window.form.rows["orderid"].editor
    assert isinstance(editor, QLineEdit)
    assert editor.placeholderText() == "required"


def test_a_bad_value_turns_red_when_the_field_is_left(qtbot: Any, window: MainWindow) -> None:
    window.show_command("payout-check")
    window.clear_form()
    amount = window.form.rows["amount"].editor
    assert isinstance(amount, QLineEdit)
    amount.setFocus()
    qtbot.keyClicks(amount, "ten")
    # still typing: said calmly, not in red
    assert window.form.rows["amount"].state == "required"
    assert window.form.rows["amount"].message.full_text()
    assert _colour(window, "error") not in window.panel.summary.headline.text()
    qtbot.keyClick(amount, Qt.Key.Key_Tab)
    headline = window.panel.summary.headline.text()
    assert "1 problem to fix" in headline
    assert "required fields to fill in" in headline
    assert _colour(window, "error") in headline
    assert window.form.rows["amount"].state == "error"
    assert window.form.rows["currency"].state == "required"  # untouched: still calm


def test_either_or_rule_asking_for_one_is_calm_until_broken(window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    window.clear_form()
    assert window.form.rows["amount"].state == "required"
    window.form.load({"@amount-rule": "range", "amount-from": "5.00"})
    # half a pair asks for the other half calmly, until the person leaves it empty
    assert window.form.rows["amount-to"].state == "required"
    window.form.rows["amount-to"].editor.setFocus()
    window.form.rows["amount-from"].editor.setFocus()
    assert window.form.rows["amount-to"].state == "error"


def test_a_choice_does_not_make_its_partner_red_at_once(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    window.clear_form()
    form = window.form
    assert isinstance(form, RecurringForm)
    form.schedule.set_key("auto")
    window.form.rows["interval"].editor.setFocus()
    period = window.form.rows["period"].editor
    assert isinstance(period, QComboBox)
    period.setCurrentText("month")
    # "period and interval go together": interval is still to fill in, not a mistake yet
    assert window.form.rows["interval"].state != "error"
    assert window.form.rows["period"].state != "error"
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.form.rows["interval"].state == "error"


def test_trying_to_send_turns_missing_values_into_errors(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-card-ref")
    window.clear_form()
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    headline = window.panel.summary.headline.text()
    assert "2 problems to fix" in headline
    assert _colour(window, "error") in headline
    assert window.form.rows["orderid"].state == "error"
    assert "required" in window.form.rows["orderid"].message.text()
    assert window.form.rows["client_orderid"].editor.hasFocus()  # the first one to fill
    window.clear_form()  # a fresh start is calm again
    assert window.form.rows["orderid"].state == "required"


def test_a_dialog_opened_from_an_empty_field_leaves_it_calm(qtbot: Any, window: MainWindow) -> None:
    # the cursor waits in the Order status form's first field; File > Batch payouts… opens
    # over it and closes: nobody left the field for another one, so nothing turns red
    window.show_command("status")
    window.clear_form()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    field = window.form.rows["client_orderid"]
    field.editor.setFocus()
    qtbot.waitUntil(field.editor.hasFocus)
    window.actions_by_name["batch"].trigger()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is not window)
    dialog = QApplication.activeWindow()
    assert dialog is not None
    dialog.close()
    window.activateWindow()  # the window system's part, where there is one
    qtbot.waitUntil(window.isActiveWindow)
    assert _colour(window, "error") not in window.panel.summary.headline.text()
    assert "Fill in the required field" in window.panel.summary.headline.text()
    # back in the field, moving on to another field of the form is leaving it
    qtbot.waitUntil(field.editor.hasFocus)
    window.form.rows["orderid"].editor.setFocus()
    assert "1 problem to fix" in window.panel.summary.headline.text()
    assert _colour(window, "error") in window.panel.summary.headline.text()
