"""Fill with example on the status form: the last payout of this environment, an order the
gateway knows, instead of the contract's example order that does not exist."""

from __future__ import annotations

from typing import Any

from console.core.paths import resolve
from console.core.spec import example_values
from console.ui.main_window import MainWindow
from console.ui.theme import state_colour
from tests.ui.journal_helpers import bulk_rows, send_form, send_payout


def test_without_a_payout_the_status_example_says_send_a_payout_first(
    window: MainWindow,
) -> None:
    window.journal  # noqa: B018 (the journal exists, with rows of another environment only)
    bulk_rows(resolve().history_db, 3, environment="elsewhere")
    window.show_command("status")
    window.fill_example()
    assert window.form.values() == example_values("status")
    text = window.panel.result.text()
    assert "Send a payout first" in text
    warned = state_colour("warning", window.palette()).name()
    assert warned in text  # said beside "Ready to send": these ids name no order


def test_status_example_is_the_last_payout_and_the_gateway_knows_it(
    qtbot: Any, window: MainWindow
) -> None:
    send_payout(qtbot, window, "older-payout")
    outcome = send_payout(qtbot, window, "newest-payout")
    gateway_id = outcome.response.get("gateway-order-id")
    assert gateway_id
    window.show_command("status")
    window.fill_example()
    values = window.form.values()
    assert values["client_orderid"] == "newest-payout"
    assert values["orderid"] == gateway_id
    assert "newest-payout" in window.panel.result.text()
    answer = send_form(qtbot, window)
    assert str(answer.result) == "accepted", answer.summary  # not 207: the order exists
