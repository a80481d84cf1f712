"""Sandbox test data next to the forms: CVV2 outcomes, seeded first payments; not on production."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPoint

from console.core.environments import EnvKind
from console.ui.main_window import MainWindow
from tests.ui.journal_helpers import settle


def _switch(window: MainWindow, kind: EnvKind) -> None:
    env = window.session.environment
    assert env is not None
    window.session.use(
        dataclasses.replace(env, name=str(kind), kind=kind), window.session.private_key
    )


def test_payout_hint_gives_test_card_and_cvv2_outcomes(window: MainWindow) -> None:
    window.show_command("payout-check")
    hint = window.form.hint
    assert hint.isVisibleTo(window)
    assert "4444 4444 4444 4448" in hint.text()
    assert "116 declined" not in hint.text()  # one line until the person asks for more
    hint.linkActivated.emit("hint:more")
    text = hint.text()
    assert "4444 4444 4444 4448" in text
    assert "116 declined (insufficient funds)" in text
    assert "field notes" in text
    assert ".13 declined" in text  # the local sandbox's own rule
    _switch(window, EnvKind.SANDBOX)
    assert "116 declined" in window.form.hint.text()  # still open
    assert ".13" not in window.form.hint.text()  # not a rule of other sandboxes


def test_card_ref_hint_fills_a_seeded_first_payment(window: MainWindow) -> None:
    window.show_command("create-card-ref")
    window.clear_form()
    hint = window.form.hint
    assert "first-payment-1" in hint.text()
    hint.linkActivated.emit("seed:first-payment-1:9000001")
    assert window.form.values() == {"client_orderid": "first-payment-1", "orderid": "9000001"}
    assert window.panel.send_button.isEnabled()


def test_the_card_reference_example_works_on_the_built_in_sandbox(
    qtbot: Any, window: MainWindow
) -> None:
    window.show_command("create-card-ref")
    window.fill_example()
    assert window.form.values() == {"client_orderid": "first-payment-1", "orderid": "9000001"}
    window.sender_.confirm = lambda *_: True
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert str(window.last_outcome.result) == "accepted"


def test_no_hints_on_production(window: MainWindow) -> None:
    window.show_command("create-card-ref")
    _switch(window, EnvKind.PRODUCTION)
    for name in ("payout-check", "create-card-ref"):
        window.show_command(name)
        assert not window.form.hint.isVisibleTo(window)
        assert window.form.hint.text() == ""


def test_the_hint_is_there_from_the_first_paint_and_nothing_moves(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window(ready=False)  # the built-in sandbox starts after the first paint
    window.show_command("payout-check")
    form = window.form
    assert window.session.environment is None  # not running yet
    assert form.hint.isVisibleTo(form)
    amount = form.rows["amount"].editor
    before = amount.mapTo(window, QPoint(0, 0)).y()
    assert "(not set)" not in form.redirect.help.text()
    assert window.wait_ready(30_000)
    settle(qtbot)
    assert amount.mapTo(window, QPoint(0, 0)).y() == before
