"""After Cancel, the Response tab says no answer is coming; never "Waiting for the answer…"
beside "Cancelled: nothing sent."."""

from __future__ import annotations

from typing import Any

from console.ui.main_window import MainWindow
from tests.helpers.dialogs import answer_next_question
from tests.helpers.production import cancel_on_production


def _says_no_answer_is_coming(qtbot: Any, window: MainWindow) -> None:
    """Once the send is cancelled, the Response tab says nothing was sent, not "Waiting"."""
    qtbot.waitUntil(lambda: "Cancelled" in window.panel.result.text(), timeout=5_000)
    window.inspector.show_tab(2)
    said = window.inspector.response.headline.text()
    assert "Waiting" not in said
    assert "nothing was sent" in said


def test_cancel_at_the_card_number_question_says_no_answer_is_coming(
    qtbot: Any, window: MainWindow
) -> None:
    window.fill_example()
    window.form.rows["credit_card_number"].set_text("4444444444444441")  # fails Luhn
    answer_next_question(False, [])
    window.send()
    _says_no_answer_is_coming(qtbot, window)


def test_cancel_at_the_production_confirmation_says_no_answer_is_coming(
    qtbot: Any, window: MainWindow
) -> None:
    cancel_on_production(window)
    _says_no_answer_is_coming(qtbot, window)
