"""Moving to another environment leaves behind what belongs to the old one."""

from __future__ import annotations

import dataclasses
from typing import Any

from console.core.environments import EnvKind
from console.ui.main_window import MainWindow


def test_switching_clears_results_ids_and_old_order_ids(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-card-ref")
    window.form.load({"client_orderid": "first-payment-1", "orderid": "9000001"})
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert window.panel.use_in_payout_button.isVisible()
    window.panel.use_in_payout_button.click()  # a stored card of the sandbox in the payout form
    payout = window.forms["payout-check"]
    assert payout.text_of("card_recurring_payment_id")
    payout.rows["client_orderid"].set_text("sandbox-order-1")
    old_order = "sandbox-order-1"
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.session.use(live, window.session.private_key)
    assert payout.text_of("card_recurring_payment_id") == ""  # no sandbox id on production
    assert payout.text_of("client_orderid") not in ("", old_order)
    window.show_command("create-card-ref")
    assert window.form.text_of("orderid") == ""  # the sandbox's order id means nothing here
    assert window.panel.result.text() == ""  # the sandbox's answer stays with the sandbox
    assert not window.panel.use_in_payout_button.isVisible()
