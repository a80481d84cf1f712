"""Production confirmation of a recurring profile: the card it charges is repeated, masked."""

from __future__ import annotations

import dataclasses
from typing import Any

from console.core.environments import EnvKind
from console.ui.main_window import MainWindow
from tests.helpers.dialogs import answer_next_question
from tests.ui.test_sending import _requests

PAN = "4111111111111111"
MASKED = "411111******1111"


def test_recurring_profile_confirmation_names_the_masked_card(
    qtbot: Any, window: MainWindow
) -> None:
    env = window.session.environment
    assert env is not None
    window.session.use(
        dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION), window.session.private_key
    )
    window.show_command("create-recurring-payment")
    window.fill_example()
    window.form.load({"credit-card-number": PAN, "cvv2": "111"})
    before = _requests(window)
    seen: list[str] = []
    answer_next_question(False, seen)
    window.send()
    qtbot.waitUntil(lambda: bool(seen), timeout=5_000)
    assert "9.99" in seen[0]
    assert "USD" in seen[0]
    assert MASKED in seen[0]
    assert PAN not in seen[0]
    qtbot.wait(200)
    assert _requests(window) == before
