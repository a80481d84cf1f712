"""Generated forms: widgets per type, choices that keep either-or rules, live validation."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QPlainTextEdit

from console.core.spec import COMMANDS, example_values
from console.core.spec.labels import label_for
from console.ui.forms.payout_form import PayoutForm
from console.ui.forms.recurring_form import RecurringForm
from console.ui.main_window import MainWindow


def _type(qtbot: Any, window: MainWindow, name: str, text: str, *, leave: bool = True) -> None:
    """Type into a field as a person does, then (``leave``) move on with Tab."""
    row = window.form.rows[name]
    editor = row.editor
    line = editor if isinstance(editor, QLineEdit) else editor.findChild(QLineEdit)
    assert line is not None, name
    line.setFocus()
    line.clear()
    qtbot.keyClicks(line, text)
    if leave:
        qtbot.keyClick(line, Qt.Key.Key_Tab)


def test_every_field_has_its_widget_tooltip_and_accessible_name(window: MainWindow) -> None:
    for name, form in window.forms.items():
        for field in COMMANDS[name].fields:
            row = form.rows[field.name]
            editor = row.editor
            spoken = row.findChild(QLineEdit, f"field:{field.name}") or editor  # a date's line
            assert spoken.accessibleName() == label_for(field.name)  # the words shown
            assert field.name in spoken.accessibleDescription()
            tip = editor.toolTip() if field.card_types is None else row.label.toolTip()
            assert field.meaning[:20].replace("`", "") in tip.replace("`", "")
            assert field.length.text in row.label.toolTip()
            if field.choices:
                assert isinstance(editor, QComboBox)
            elif field.length.max and field.length.max > 32767:
                assert isinstance(editor, QPlainTextEdit)
            elif field.type.value != "Date":
                # never cut to the contract's length: the core names a value that is too long
                assert isinstance(editor, QLineEdit)
                assert editor.maxLength() == 32767


def test_input_longer_than_the_contract_is_kept_and_named(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    row = window.form.rows["amount"]
    row.editor.setFocus()
    row.editor.clear()  # type: ignore[attr-defined]
    qtbot.keyClicks(row.editor, "2500000000.75")  # a paste, as a person makes it
    assert row.text() == "2500000000.75"  # nothing cut
    qtbot.keyClick(row.editor, Qt.Key.Key_Tab)
    assert row.state == "error"
    assert "10" in row.message.full_text()
    assert not window.panel.send_button.isEnabled()
    _type(qtbot, window, "currency", "USDX")
    assert window.form.rows["currency"].text() == "USDX"
    window.show_command("create-recurring-payment")
    desc = window.form.rows["order_desc"].editor
    assert isinstance(desc, QPlainTextEdit)  # 65K does not fit a line edit
    limit = COMMANDS["create-recurring-payment"].field("order_desc").length.max  # type: ignore[union-attr]
    desc.setPlainText("x" * (limit + 10))
    assert len(desc.toPlainText()) == limit + 10


def test_an_amount_sequence_is_read_per_amount_like_the_core(
    qtbot: Any, window: MainWindow
) -> None:
    window.show_command("create-recurring-payment")
    window.fill_example()
    form = window.form
    assert isinstance(form, RecurringForm)
    form.amount_rule.set_key("sequence")
    _type(qtbot, window, "amount-sequence", "10.00,20.00,30.00")
    assert form.rows["amount-sequence"].text() == "10.00,20.00,30.00"
    assert form.rows["amount-sequence"].state == "warning"  # the core's reading, too
    preview = form.preview
    assert [preview.table.item(i, 2).text() for i in range(3)] == ["10.00", "20.00", "30.00"]


def test_date_picker_writes_dd_mm_yyyy(window: MainWindow) -> None:
    from PySide6.QtCore import QDate

    window.show_command("create-recurring-payment")
    row = window.form.rows["start-date"]
    calendar = row.editor.calendar  # type: ignore[attr-defined]
    calendar.clicked.emit(QDate(2027, 3, 9))
    assert row.text() == "09.03.2027"


def test_receiver_type_shows_only_its_fields(window: MainWindow) -> None:
    form = window.forms["payout-check"]
    assert isinstance(form, PayoutForm)
    form.receiver.set_key("card")
    assert form.rows["credit_card_number"].isVisibleTo(form)
    assert not form.rows["account_number"].isVisibleTo(form)
    assert not form.rows["card_recurring_payment_id"].isVisibleTo(form)
    form.receiver.set_key("bank")
    assert form.rows["account_number"].isVisibleTo(form)
    assert not form.rows["credit_card_number"].isVisibleTo(form)
    assert not form.sections["card"].isVisibleTo(form)
    form.receiver.set_key("card-ref")
    assert form.rows["card_recurring_payment_id"].isVisibleTo(form)


def test_card_and_stored_reference_cannot_both_be_sent(window: MainWindow) -> None:
    form = window.forms["payout-check"]
    assert isinstance(form, PayoutForm)
    form.load(example_values("payout-check"))
    form.rows["card_recurring_payment_id"].set_text("777")  # typed earlier, now hidden
    assert form.receiver.key() == "card"
    assert "card_recurring_payment_id" not in form.values()
    form.receiver.set_key("card-ref")
    values = form.values()
    assert values["card_recurring_payment_id"] == "777"
    assert "credit_card_number" not in values


def test_callback_choice_sends_one_address(window: MainWindow) -> None:
    form = window.forms["payout-check"]
    assert isinstance(form, PayoutForm)
    form.load({"server_callback_url": "https://m.example/a", "notify_url": "https://m.example/b"})
    form.callback.set_key("notify_url")
    values = form.values()
    assert values.get("notify_url") == "https://m.example/b"
    assert "server_callback_url" not in values
    form.callback.set_key("none")
    assert not {"notify_url", "server_callback_url"} & set(form.values())


def test_no_redirect_sends_the_environment_placeholder_and_explains(window: MainWindow) -> None:
    form = window.forms["payout-check"]
    assert isinstance(form, PayoutForm)
    form.redirect.set_key("none")
    form.set_placeholder("https://gw.example/paynet/placeholder")
    assert form.values()["redirect_url"] == "https://gw.example/paynet/placeholder"
    assert "4.2 rule 6" in form.redirect.help.text()
    form.redirect.set_key("pair")
    assert "redirect_url" not in form.values()


def test_redirect_pair_half_filled_names_the_missing_field(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    form = window.form
    assert isinstance(form, PayoutForm)
    form.redirect.set_key("pair")
    _type(qtbot, window, "redirect_success_url", "https://m.example/ok")
    row = form.rows["redirect_fail_url"]
    assert row.state == "required"  # asked for calmly: the person has not been there yet
    assert "redirect_fail_url" in row.message.full_text()
    assert not window.panel.send_button.isEnabled()
    row.editor.setFocus()
    form.rows["redirect_success_url"].editor.setFocus()  # left empty
    assert row.state == "error"
    _type(qtbot, window, "redirect_fail_url", "https://m.example/fail")
    assert form.rows["redirect_fail_url"].state == "fine"


def test_card_details_go_together_message(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    _type(qtbot, window, "card_printed_name", "")
    assert window.form.rows["card_printed_name"].state == "error"
    assert any(p.code == "together" for p in window.panel.summary.problems)
    assert not window.panel.send_button.isEnabled()


def test_live_validation_per_keystroke(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    assert window.panel.summary.errors == 0
    _type(qtbot, window, "amount", "10,5")
    row = window.form.rows["amount"]
    assert row.state == "error"
    assert row.message.isVisibleTo(window)
    assert row.message.text()
    assert window.panel.summary.errors >= 1
    assert not window.panel.send_button.isEnabled()
    qtbot.keyClick(row.editor, Qt.Key.Key_Backspace)
    qtbot.keyClick(row.editor, Qt.Key.Key_Backspace)
    assert row.state == "fine"


def test_required_state_then_fine(qtbot: Any, window: MainWindow) -> None:
    window.clear_form()
    row = window.form.rows["client_orderid"]
    assert row.state == "required"
    _type(qtbot, window, "client_orderid", "abc")
    assert row.state == "fine"


def test_summary_jumps_to_the_field(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    _type(qtbot, window, "currency", "U")
    item = next(
        window.panel.summary.list.item(i)
        for i in range(window.panel.summary.list.count())
        if "currency" in window.panel.summary.list.item(i).text()
    )
    window.panel.summary.list.itemActivated.emit(item)
    assert window.form.rows["currency"].editor.hasFocus()


def test_generate_fills_a_fresh_client_orderid(window: MainWindow) -> None:
    window.clear_form()
    window.actions_by_name["generate"].trigger()
    first = window.form.rows["client_orderid"].text()
    window.actions_by_name["generate"].trigger()
    assert first
    assert window.form.rows["client_orderid"].text() != first


def test_src_dst_switch_disables_unsupported_fields(window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    form = window.form
    assert isinstance(form, RecurringForm)
    form.card_type.set_key("DST")
    for name in ("country", "city", "first-name", "email", "ssn", "birthday"):
        assert not form.rows[name].isEnabled(), name
        assert name not in form.values()
    assert form.rows["credit-card-number"].isEnabled()
    assert not form.schedule.combo.isEnabled()
    assert form.values()["rp_card_type"] == "DST"
    form.card_type.set_key("SRC")
    assert form.rows["country"].isEnabled()


def test_amount_rule_choice_keeps_one_rule(window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    form = window.form
    assert isinstance(form, RecurringForm)
    form.load({"amount": "5.00", "amount-sequence": "1,2,3"})
    form.amount_rule.set_key("sequence")
    values = form.values()
    assert values["amount-sequence"] == "1,2,3"
    assert "amount" not in values
    form.amount_rule.set_key("range")
    assert form.rows["amount-from"].isVisibleTo(form)
    assert not form.rows["amount-sequence"].isVisibleTo(form)


def test_schedule_preview_follows_the_inputs(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    window.fill_example()
    form = window.form
    assert isinstance(form, RecurringForm)
    preview = form.preview
    assert preview.table.rowCount() == 12  # the example: monthly, 12 repeats
    _type(qtbot, window, "start-date", "31.01.2027")
    assert preview.table.item(1, 1).text().startswith("Sun 28.02.2027")
    assert "last day" in preview.table.item(1, 1).text()
    form.rows["max-repeats-number"].set_text("3")
    assert preview.table.rowCount() == 3
    assert "max-repeats-number" in preview.summary.text()
    form.amount_rule.set_key("sequence")
    form.rows["amount-sequence"].set_text("1.00,2.00")
    assert [preview.table.item(i, 2).text() for i in range(3)] == [
        "1.00",
        "2.00",
        "2.00 (last)",
    ]
    form.schedule.set_key("none")
    assert preview.table.rowCount() == 0
    assert "No automatic schedule" in preview.summary.text()


def test_the_page_shown_is_the_command_chosen(window: MainWindow) -> None:
    assert window.command == "payout-check"
    assert window.forms_part.stack.currentWidget() is window.form
    for name in ("create-recurring-payment", "create-card-ref", "status", "payout-check"):
        window.show_command(name)
        assert window.command == name
        assert window.forms_part.tabs.currentIndex() == window.forms.names.index(name)
        assert window.forms_part.stack.currentWidget() is window.forms[name]


def test_tab_reaches_the_amounts_and_the_schedule_after_the_currency(
    qtbot: Any, window: MainWindow
) -> None:
    window.show_command("create-recurring-payment")
    window.fill_example()
    form = window.form
    assert isinstance(form, RecurringForm)
    form.amount_rule.set_key("sequence")
    window.activateWindow()
    qtbot.waitActive(window)
    form.rows["currency"].editor.setFocus()
    stops = []
    for _ in range(5):
        widget = QApplication.focusWidget()
        stops.append(widget.objectName())
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    assert stops[:4] == [
        "field:currency",
        "field:amount-sequence",
        "field:period",
        "field:interval",
    ]


def test_labels_are_plain_words_with_the_wire_name_beside(window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    row = window.form.rows["expire-month"]
    assert row.label.text() == "Expiry month"
    assert row.wire_name.text() == "expire-month"
    # read off a card: month before year, as the person reads it
    assert window.form.rows["expire-month"].y() < window.form.rows["expire-year"].y()


def test_window_shortcuts_work_while_typing_in_a_field(qtbot: Any, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitActive(window)
    window.clear_form()
    editor = window.form.rows["client_orderid"].editor
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert window.form.text_of("amount")  # Fill with example ran, not "end of line"


def test_a_date_fields_text_box_carries_the_fields_name(window: MainWindow) -> None:
    from PySide6.QtWidgets import QLineEdit

    window.show_command("create-recurring-payment")
    row = window.form.rows["start-date"]
    line = row.findChild(QLineEdit)
    assert line is not None
    assert line.accessibleName() == "First charge"  # as its label says
    assert "start-date" in line.accessibleDescription()
    assert line.objectName() == "field:start-date"
