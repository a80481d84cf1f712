"""An answer stays under the form that sent it, labelled with its command and order id."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from console.ui.main_window import MainWindow


def _send_and_wait(qtbot: Any, window: MainWindow) -> Any:
    shown_before = window.last_outcome
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    return window.last_outcome


def test_result_belongs_to_its_form(qtbot: Any, window: MainWindow) -> None:
    window.show_command("payout-check")
    window.fill_example()
    order = window.form.values()["client_orderid"]
    _send_and_wait(qtbot, window)
    text = window.panel.result.text()
    assert f"payout-check {order}" in window.panel.result_of("payout-check")[1]
    assert order in window.panel.guard.note.text()  # named once, by the line above
    assert order in window.inspector.windowTitle()
    window.show_command("create-recurring-payment")
    assert window.panel.result.text() == ""  # the payout's answer is not shown under this form
    window.show_command("payout-check")
    assert window.panel.result.text() == text


def test_use_in_payout_only_under_the_card_reference_form(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-card-ref")
    window.form.load({"client_orderid": "first-payment-1", "orderid": "9000001"})
    _send_and_wait(qtbot, window)
    assert window.panel.use_in_payout_button.isVisible()
    window.show_command("create-recurring-payment")
    assert not window.panel.use_in_payout_button.isVisible()
    window.show_command("create-card-ref")
    assert window.panel.use_in_payout_button.isVisible()


def test_example_twice_gives_two_order_ids(window: MainWindow) -> None:
    window.show_command("payout-check")
    window.fill_example()
    first = window.form.values()["client_orderid"]
    window.fill_example()
    assert window.form.values()["client_orderid"] != first  # a resend would be refused (202)
    window.show_command("create-card-ref")
    window.fill_example()  # here the id names an existing first payment: kept as given
    kept = window.form.values()["client_orderid"]
    window.fill_example()
    assert window.form.values()["client_orderid"] == kept


def test_check_status_and_follow_only_beside_the_payouts_own_result(
    qtbot: Any, window: MainWindow
) -> None:
    window.show_command("payout-check")
    window.fill_example()
    _send_and_wait(qtbot, window)
    status = window.status_part
    buttons = (status.check_button, status.follow_button)
    assert all(b.isVisible() for b in buttons)
    for other in ("create-card-ref", "create-recurring-payment", "status"):
        window.show_command(other)
        assert not any(b.isVisible() for b in buttons), other
    window.show_command("create-card-ref")  # another form's answer: still not about the payout
    window.form.load({"client_orderid": "first-payment-1", "orderid": "9000001"})
    _send_and_wait(qtbot, window)
    assert not any(b.isVisible() for b in buttons)
    window.show_command("payout-check")
    assert all(b.isVisible() for b in buttons)  # the payout's line and its buttons are back
