"""The window's words as a person reads them: labels as written, no contract words where
plain ones exist, messages about the choice made, plurals right, no command-line flags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from console.ui.forms.payout_form import PayoutForm
from console.ui.main_window import MainWindow
from tests.helpers.batch_files import card_row, write_csv
from tests.ui.test_batch_dialog import open_dialog


def _label(window: MainWindow, command: str, name: str) -> str:
    window.show_command(command)
    return window.form.rows[name].label.text()


def test_labels_read_as_written(window: MainWindow) -> None:
    payer = _label(window, "create-recurring-payment", "customer-ip")
    assert payer.startswith("Payer's IP address")
    assert "#x27" not in payer
    assert _label(window, "create-recurring-payment", "max-repeats-number") == "Most charges"
    assert _label(window, "status", "by-request-sn") == "Serial number of the request"


def test_a_bank_payout_without_an_account_names_the_account_only(window: MainWindow) -> None:
    window.fill_example()
    form = window.form
    assert isinstance(form, PayoutForm)
    form.receiver.set_key("bank")
    form.rows["account_number"].set_text("")
    lines = [
        window.panel.summary.list.item(i).text() for i in range(window.panel.summary.list.count())
    ]
    receiver = [line for line in lines if "receiver" in line.lower()]
    assert receiver, lines
    assert "account_number" in receiver[0]
    assert "credit_card_number" not in receiver[0]
    assert "card_recurring_payment_id" not in receiver[0]


def test_an_amount_with_a_comma_is_one_mistake(window: MainWindow) -> None:
    window.fill_example()
    window.form.rows["amount"].set_text("5,00")
    said = [p.message for p in window.panel.summary.problems if "amount" in p.fields]
    assert len(said) == 1
    assert "Write 5.00" in said[0]


def test_a_chosen_server_callback_left_empty_keeps_send_off(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    form = window.form
    assert isinstance(form, PayoutForm)
    form.callback.set_key("server_callback_url")
    form.rows["server_callback_url"].set_text("")
    assert not window.panel.send_button.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    row = form.rows["server_callback_url"]
    assert row.state == "error"
    assert "empty" in row.message.full_text()


def test_the_batch_dialog_speaks_of_its_own_choices(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    path = write_csv(tmp_path / "one-bad.csv", [card_row("w-1", "10.00"), card_row("w-2", "ten")])
    dialog = open_dialog(qtbot, window, path)
    said = dialog.message.text()
    assert "1 row has errors (row 3)" in said
    assert "--skip-invalid" not in said
    assert "Leave out rows with errors" in said
