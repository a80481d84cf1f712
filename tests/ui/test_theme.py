"""Themes: every state colour readable (WCAG AA) on the background it is shown on, also after
switching; the chosen theme comes back after a restart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QHBoxLayout, QPushButton, QWidget

from console.ui.main_window import MainWindow
from console.ui.theme import apply_theme, state_colour

STATES = ("error", "warning", "fine", "required", "busy")


def _contrast(a: QColor, b: QColor) -> float:
    def lum(c: QColor) -> float:
        def f(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * f(c.redF()) + 0.7152 * f(c.greenF()) + 0.0722 * f(c.blueF())

    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _colour_in(html: str) -> QColor:
    start = html.index("color:") + len("color:")
    return QColor(html[start : start + 8].strip(" ;'\""))


@pytest.fixture(autouse=True)
def _light_afterwards() -> Any:
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "system", set_style=False)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_state_colours_are_readable_after_switching(
    qtbot: Any, window: MainWindow, theme: str
) -> None:
    window.show_command("payout-check")
    window.clear_form()
    window.form.rows["amount"].set_text("ten")  # an error in the form and the summary
    window.actions_by_name[f"theme:{theme}"].trigger()
    background = window.panel.summary.palette().color(QPalette.ColorRole.Window)
    for state in STATES:
        assert _contrast(state_colour(state, window.palette()), background) >= 4.5, state
    headline = _colour_in(window.panel.summary.headline.text())
    assert _contrast(headline, background) >= 4.5
    row = window.form.rows["amount"]
    assert _contrast(_colour_in(row.message.styleSheet()), background) >= 4.5
    placeholder = window.palette().color(QPalette.ColorRole.PlaceholderText)
    base = window.palette().color(QPalette.ColorRole.Base)
    assert _contrast(placeholder, base) >= 4.5


def test_the_chosen_theme_is_remembered(make_window: Callable[..., MainWindow]) -> None:
    first = make_window()
    first.actions_by_name["theme:dark"].trigger()
    first.close()
    second = make_window()
    assert second.actions_by_name["theme:dark"].isChecked()
    assert second.palette().color(QPalette.ColorRole.Window).lightness() < 128


def test_field_edges_and_the_current_tab_are_visible_in_the_dark(
    qtbot: Any, window: MainWindow
) -> None:
    window.show_command("payout-check")
    window.actions_by_name["theme:dark"].trigger()
    qtbot.wait(50)
    background = window.palette().color(QPalette.ColorRole.Window)
    editor = window.form.rows["amount"].editor
    picture = editor.grab().toImage()
    edge = picture.pixelColor(0, picture.height() // 2)  # the left edge of the field
    assert _contrast(edge, background) >= 3, edge.name()
    tabs = window.forms_part.tabs
    shot = tabs.grab().toImage()
    current = tabs.tabRect(tabs.currentIndex())
    marks = {
        shot.pixelColor(x, current.bottom() - 1).name()
        for x in range(current.left() + 4, current.right() - 4)
    }
    highlight = window.palette().color(QPalette.ColorRole.Highlight).name()
    assert highlight in marks  # the current tab is underlined in the highlight colour


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_focused_button_shows_a_clear_ring(qtbot: Any, theme: str) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, theme, set_style=False)
    window = QWidget()
    qtbot.addWidget(window)
    first, second = QPushButton("First"), QPushButton("Second button")
    lay = QHBoxLayout(window)
    lay.addWidget(first)
    lay.addWidget(second)
    window.show()
    window.activateWindow()
    qtbot.waitExposed(window)
    first.setFocus()
    qtbot.wait(20)
    before = second.grab().toImage()
    QTest.keyClick(first, Qt.Key.Key_Tab)  # Tab: the keyboard's focus, which shows a ring
    qtbot.wait(20)
    assert second.hasFocus()
    after = second.grab().toImage()
    behind = window.palette().color(window.backgroundRole())
    ring = [
        after.pixelColor(x, y)
        for y in range(after.height())
        for x in range(after.width())
        if before.pixel(x, y) != after.pixel(x, y)
    ]
    assert ring, "no focus ring drawn"
    assert max(_contrast(c, behind) for c in ring) >= 4.5
