"""Moving to another environment leaves behind what belongs to the old one."""

from __future__ import annotations

import dataclasses
from typing import Any

from console.core.environments import EnvKind
from console.ui.main_window import MainWindow
from tests.ui.journal_helpers import send_payout


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


def test_switching_leaves_the_old_request_and_answer_behind(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-card-ref")
    window.form.load({"client_orderid": "first-payment-2", "orderid": "9000001"})
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    inspector = window.inspector
    sandbox_url = window.session.environment.base_url  # type: ignore[union-attr]
    assert sandbox_url in inspector.request.line.text()
    assert "first-payment-2" in inspector.windowTitle()
    assert inspector.signature.authorization.value()
    assert inspector.response.fields.rowCount()
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.session.use(live, window.session.private_key)
    # nothing of the sandbox's request or answer stays on screen under production
    assert sandbox_url not in inspector.request.line.text()
    assert inspector.request.params.rowCount() == 0
    assert inspector.request.curl.value() == ""
    assert not inspector.request.reveal.isEnabled()
    assert "first-payment-2" not in inspector.windowTitle()
    assert inspector.signature.authorization.value() == ""
    assert inspector.signature.oauth.rowCount() == 0
    assert inspector.response.fields.rowCount() == 0
    assert "No answer yet" in inspector.response.headline.text()


def test_a_sandbox_order_is_not_offered_for_a_status_check_on_production(
    qtbot: Any, window: MainWindow, monkeypatch: Any
) -> None:
    send_payout(qtbot, window, "sandbox-order-2", **{"@callback": "none"})
    status = window.status_part
    assert status.check_button.isVisible()
    assert status.follow_button.isVisible()
    asked: list[str] = []
    real = status.controller.connection_for
    monkeypatch.setattr(
        status.controller, "connection_for", lambda name: asked.append(name) or real(name)
    )
    env = window.session.environment
    assert env is not None
    live = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.session.use(live, window.session.private_key)
    # under "PRODUCTION – REAL MONEY" no button speaks of the sandbox's order...
    assert not status.check_button.isVisible()
    assert not status.follow_button.isVisible()
    # ...and nothing asks any gateway about it (a shortcut or a late click included)
    status.check_last()
    assert status.follow_last() is None
    qtbot.wait(200)
    assert asked == []
    assert window.panel.result.text() == ""
    # back on the sandbox, nothing of the old order is offered again
    window.session.use(env, window.session.private_key)
    assert not status.check_button.isVisible()  # the old order went with the switch


def test_a_followed_order_names_its_environment_after_a_switch(
    qtbot: Any, window: MainWindow
) -> None:
    send_payout(qtbot, window, "sandbox-order-3", **{"@callback": "none"})
    follow = window.status_part.follow_last()
    assert follow is not None
    env = window.session.environment
    assert env is not None
    window.session.use(
        dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION), window.session.private_key
    )
    qtbot.wait(50)
    follow.strip.show_state(follow.state)
    assert f"({env.name})" in follow.strip.label.text()  # not read as a production order
    follow.cancel()
