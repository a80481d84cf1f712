"""Everything the window shows is readable and every control can be seen, measured from the
rendered pixels in both themes: text at 4.5:1 on what it is drawn on, the edges of fields,
lists, buttons, choices and switches at 3:1 against the window (WCAG 1.4.3 and 1.4.11);
the field a shortcut puts the cursor in shows that it has it. The same for every dialog the
window opens (Keys, Environments, batch, lab, questions, the Details… box)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QRect, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QTabBar,
    QTextEdit,
    QWidget,
)

from console.core.environments import EnvKind
from console.core.spec import COMMANDS
from console.ui.main_window import MainWindow
from console.ui.sending import ask_card_number, ask_production, ask_resend
from console.ui.theme import apply_theme
from tests.helpers.contrast import (
    edge_contrast,
    rendered_text_contrast,
    text_contrast_inside,
)

THEMES = ("light", "dark")


@pytest.fixture(autouse=True)
def _system_theme_afterwards() -> Iterator[None]:
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "system", set_style=False)


def _shown(window: QWidget, kind: type[QWidget]) -> list[Any]:
    """The widgets of a kind a person can see and use now (in a window or a dialog); one
    whose layout has not given it room yet (a row just built) shows nothing to measure."""
    return [
        w
        for w in window.findChildren(kind)
        if w.isVisible() and w.isEnabled() and w.width() > 4 and w.height() > 4
    ]


def _text_area(widget: QWidget) -> QRect | None:
    """Where a widget draws its words (None: its contents without the frame)."""
    if isinstance(widget, QRadioButton | QCheckBox):
        option = QStyleOptionButton()
        option.initFrom(widget)
        element = (
            QStyle.SubElement.SE_RadioButtonContents
            if isinstance(widget, QRadioButton)
            else QStyle.SubElement.SE_CheckBoxContents
        )
        return widget.style().subElementRect(element, option, widget)
    if isinstance(widget, QComboBox):
        return widget.rect().adjusted(3, 3, -24, -3)  # not the arrow
    return None


def _texts(window: QWidget) -> Iterator[tuple[str, float, str, str]]:
    """(what, contrast, text colour, background) of every text shown in the window."""
    for label in _shown(window, QLabel):
        if label.text().strip():
            yield (f"label {label.text()[:40]!r}", *rendered_text_contrast(label))
    for button in _shown(window, QAbstractButton):
        if button.text().strip() and not isinstance(button.parent(), QTabBar):
            yield (f"button {button.text()!r}", *text_contrast_inside(button, _text_area(button)))
    for edit in _shown(window, QLineEdit):
        if edit.text() or edit.placeholderText():
            yield (f"field {edit.objectName()}", *text_contrast_inside(edit))
    for combo in _shown(window, QComboBox):
        if combo.currentText():
            yield (
                f"choice {combo.currentText()!r}",
                *text_contrast_inside(combo, _text_area(combo)),
            )
    for tabs in _shown(window, QTabBar):
        for i in range(tabs.count()):
            if tabs.isTabVisible(i):
                area = tabs.tabRect(i).adjusted(4, 4, -4, -4)
                yield (f"tab {tabs.tabText(i)!r}", *text_contrast_inside(tabs, area))
    for listing in _shown(window, QListWidget):
        for i in range(listing.count()):
            item = listing.item(i)
            area = listing.visualItemRect(item).intersected(listing.viewport().rect())
            if item.text() and not area.isEmpty():
                measured = text_contrast_inside(listing.viewport(), area)
                yield (f"list line {item.text()[:40]!r}", *measured)
    for text in _shown(window, QPlainTextEdit) + _shown(window, QTextEdit):
        if text.toPlainText().strip():
            yield (f"text {text.objectName()}", *text_contrast_inside(text.viewport()))


def _controls(window: QWidget) -> Iterator[QWidget]:
    """The controls whose edge is all that shows where they are."""
    kinds = (QLineEdit, QComboBox, QRadioButton, QCheckBox, QAbstractSpinBox, QAbstractItemView)
    for widget in _shown(window, QWidget):
        if isinstance(widget, QLineEdit) and (
            not widget.hasFrame() or isinstance(widget.parent(), QComboBox | QAbstractSpinBox)
        ):
            continue
        if isinstance(widget, QAbstractItemView) and widget.frameShape() == 0:
            continue
        framed_text = isinstance(widget, QPlainTextEdit | QTextEdit) and widget.frameShape() != 0
        button = isinstance(widget, QPushButton) and not widget.isFlat()
        if isinstance(widget, kinds) or framed_text or button:
            yield widget


def _every_form(window: MainWindow) -> Iterator[str]:
    """Show each form with its example filled in and one mistake, so that field states,
    messages and the summary's lines are all on screen."""
    for name in COMMANDS:
        window.show_command(name)
        window.fill_example()
        first = next(iter(window.form.rows.values()))
        first.set_text(first.text() + " ?")  # a mistake: a message and a summary line
        yield name


@pytest.mark.parametrize("theme", THEMES)
def test_every_text_is_readable(qtbot: Any, window: MainWindow, theme: str) -> None:
    window.resize(1400, 900)
    window.actions_by_name[f"theme:{theme}"].trigger()
    unreadable = []
    for name in _every_form(window):
        qtbot.wait(20)
        for what, ratio, text, background in _texts(window):
            if ratio < 4.5:
                unreadable.append(f"{name}: {what} {text} on {background} {ratio:.2f}:1")
    assert not unreadable, "\n".join(sorted(set(unreadable)))


@pytest.mark.parametrize("theme", THEMES)
def test_every_control_edge_can_be_seen(qtbot: Any, window: MainWindow, theme: str) -> None:
    window.resize(1400, 900)
    window.actions_by_name[f"theme:{theme}"].trigger()
    qtbot.wait(20)  # the new palette reaches the widgets by event
    background = window.palette().color(QPalette.ColorRole.Window)
    faint = []
    for name in _every_form(window):
        qtbot.wait(20)
        for control in _controls(window):
            ratio, edge = edge_contrast(control, background)
            if ratio < 3:
                what = control.objectName() or control.accessibleName() or type(control).__name__
                faint.append(f"{name}: {what} edge {edge} {ratio:.2f}:1")
    assert not faint, "\n".join(sorted(set(faint)))


@pytest.mark.parametrize("theme", THEMES)
def test_the_choice_a_shortcut_goes_to_shows_its_focus(
    qtbot: Any, window: MainWindow, theme: str
) -> None:
    window.actions_by_name[f"theme:{theme}"].trigger()
    window.actions_by_name["command:payout-check"].trigger()  # Ctrl+1
    qtbot.wait(20)
    receiver = window.form.findChild(QComboBox, "choice:receiver")
    assert receiver is not None
    assert receiver.hasFocus()
    background = window.palette().color(QPalette.ColorRole.Window)
    focused, edge = edge_contrast(receiver, background)
    receiver.clearFocus()
    qtbot.wait(20)
    _, resting = edge_contrast(receiver, background)
    # the edge turns the highlight colour: a person sees where an arrow key will act
    assert QColor(edge) != QColor(resting)
    assert focused >= 3
    highlight = window.palette().color(QPalette.ColorRole.Highlight)
    assert abs(QColor(edge).hue() - highlight.hue()) < 20, (edge, highlight.name())


def _unreadable(root: QWidget) -> list[str]:
    """Every text under 4.5:1 and every control edge under 3:1 in ``root``, as measured."""
    found = [
        f"{what} {text} on {background} {ratio:.2f}:1"
        for what, ratio, text, background in _texts(root)
        if ratio < 4.5
    ]
    background = root.palette().color(QPalette.ColorRole.Window)
    for control in _controls(root):
        ratio, edge = edge_contrast(control, background)
        if ratio < 3:
            what = control.objectName() or control.accessibleName() or type(control).__name__
            found.append(f"{what} edge {edge} {ratio:.2f}:1")
    return found


def _production_details(window: MainWindow) -> None:
    """The production banner's Details… box (white words on red above it)."""
    env = window.session.environment
    assert env is not None
    production = dataclasses.replace(env, kind=EnvKind.PRODUCTION)
    problem = "No key is stored for this environment in the system keyring. " * 3
    window.banner.show_environment(production, problem)
    window.banner.details_button.click()


# Every dialog the window opens, the way a person opens it.
DIALOGS: dict[str, Callable[[MainWindow], object]] = {
    "keys": lambda w: w.actions_by_name["keys"].trigger(),
    "environments": lambda w: w.actions_by_name["environments"].trigger(),
    "batch payouts": lambda w: w.actions_by_name["batch"].trigger(),
    "signature lab": lambda w: w.actions_by_name["signature-lab"].trigger(),
    "about": lambda w: w.actions_by_name["about"].trigger(),
    "keyboard shortcuts": lambda w: w.actions_by_name["shortcuts"].trigger(),
    "production confirmation": lambda w: ask_production(
        w, "<b>Send payout-check to production?</b><br>amount 10.00 USD to 444444******4448"
    ),
    "unknown outcome question": lambda w: ask_resend(
        w, "The last payout-check with this client_orderid has no known outcome."
    ),
    "card number question": lambda w: ask_card_number(
        w, "The card number 444444******4449 fails its check digit."
    ),
    "details box": _production_details,
}


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", DIALOGS)
def test_every_dialog_is_readable(qtbot: Any, window: MainWindow, theme: str, name: str) -> None:
    window.actions_by_name[f"theme:{theme}"].trigger()
    qtbot.wait(20)
    before = {id(w) for w in QApplication.topLevelWidgets() if w.isVisible()}
    found: list[str] = []
    done: list[bool] = []

    def opened() -> QDialog | None:
        return next(
            (
                w
                for w in QApplication.topLevelWidgets()
                if isinstance(w, QDialog) and w.isVisible() and id(w) not in before
            ),
            None,
        )

    def measure() -> None:
        dialog = opened()
        if dialog is None:  # not open yet (or opened by exec(): this runs inside it)
            QTimer.singleShot(20, measure)
            return
        qtbot.wait(50)  # painted with the theme's palette
        found.extend(_unreadable(dialog))
        done.append(True)
        dialog.reject()

    QTimer.singleShot(0, measure)
    DIALOGS[name](window)
    qtbot.waitUntil(lambda: bool(done), timeout=15_000)
    assert not found, f"{name} ({theme}):\n" + "\n".join(sorted(set(found)))
