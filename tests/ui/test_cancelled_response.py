"""After Cancel, the Response tab says no answer is coming; never "Waiting for the answer…"
beside "Cancelled: nothing sent."."""

from __future__ import annotations

import dataclasses
from typing import Any

from console.core.environments import EnvKind
from console.ui.main_window import MainWindow
from tests.helpers.dialogs import answer_next_question


def _response_says(window: MainWindow) -> str:
    window.inspector.show_tab(2)
    return window.inspector.response.headline.text()


def test_cancel_at_the_card_number_question_says_no_answer_is_coming(
    qtbot: Any, window: MainWindow
) -> None:
    window.fill_example()
    window.form.rows["credit_card_number"].set_text("4444444444444441")  # fails Luhn
    answer_next_question(False, [])
    window.send()
    qtbot.waitUntil(lambda: "Cancelled" in window.panel.result.text(), timeout=5_000)
    said = _response_says(window)
    assert "Waiting" not in said
    assert "nothing was sent" in said


def test_cancel_at_the_production_confirmation_says_no_answer_is_coming(
    qtbot: Any, window: MainWindow
) -> None:
    env = window.session.environment
    assert env is not None
    window.session.use(
        dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION), window.session.private_key
    )
    window.fill_example()
    answer_next_question(False, [])
    window.send()
    qtbot.waitUntil(lambda: "Cancelled" in window.panel.result.text(), timeout=5_000)
    said = _response_says(window)
    assert "Waiting" not in said
    assert "nothing was sent" in said
