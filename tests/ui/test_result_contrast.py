"""The result line under the form stays readable, measured from its rendered pixels, also
when the theme changes after it was written."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from console.ui.main_window import MainWindow
from console.ui.schedule_view import TimelineStrip
from console.ui.theme import apply_theme
from tests.helpers.contrast import rendered_text_contrast
from tests.helpers.dialogs import answer_next_question


@pytest.fixture(autouse=True)
def _system_theme_afterwards() -> Any:
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "system", set_style=False)


@pytest.mark.parametrize(("first", "then"), [("light", "dark"), ("dark", "light")])
def test_cancelled_nothing_sent_is_readable_in_either_theme(
    qtbot: Any, window: MainWindow, first: str, then: str
) -> None:
    window.actions_by_name[f"theme:{first}"].trigger()
    window.fill_example()
    window.form.rows["credit_card_number"].set_text("4444444444444441")  # fails Luhn
    answer_next_question(False, [])
    window.send()
    qtbot.waitUntil(lambda: "Cancelled" in window.panel.result.text(), timeout=5_000)
    for theme in (first, then):
        window.actions_by_name[f"theme:{theme}"].trigger()
        qtbot.wait(50)
        ratio, text, background = rendered_text_contrast(window.panel.result)
        assert ratio >= 4.5, (theme, text, background)


@pytest.mark.parametrize(("first", "then"), [("light", "dark"), ("dark", "light")])
def test_no_answer_yet_is_readable_after_a_theme_switch(
    qtbot: Any, window: MainWindow, first: str, then: str
) -> None:
    window.actions_by_name[f"theme:{first}"].trigger()
    window.inspector.show_tab(2)
    env = window.session.environment
    assert env is not None
    # a switch clears the Response tab: "No answer yet." drawn in this theme's grey
    window.session.use(dataclasses.replace(env, name="other"), window.session.private_key)
    qtbot.wait(50)
    headline = window.inspector.response.headline
    assert "No answer yet." in headline.text()
    window.actions_by_name[f"theme:{then}"].trigger()
    qtbot.wait(50)
    ratio, text, background = rendered_text_contrast(headline)
    assert ratio >= 4.5, (then, text, background)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_charges_to_show_is_readable(qtbot: Any, window: MainWindow, theme: str) -> None:
    window.actions_by_name[f"theme:{theme}"].trigger()
    window.show_command("create-recurring-payment")
    qtbot.wait(50)
    strip = window.form.findChild(TimelineStrip)
    assert strip is not None
    assert not strip.charges  # "No charges to show"
    ratio, text, background = rendered_text_contrast(strip)
    assert ratio >= 4.5, (theme, text, background)
