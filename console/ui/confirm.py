"""One confirmation question for every risky step: production sends, addresses, keys."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QCheckBox, QMessageBox, QWidget

from console.ui.speech import announce


def choose(
    parent: QWidget | None,
    text: str,
    *,
    title: str,
    action: str,
    others: Sequence[str] = (),
    name: str = "",
    alert: bool = False,
    confirm: str = "",
) -> str:
    """A modal warning whose default and Escape answer is Cancel.

    Args:
        parent: the window the question belongs to.
        text: the question (rich text allowed); it should say what happens on ``action``.
        title: the window title.
        action: the words on the button that goes ahead ("Send to production").
        others: more ways out that do not go ahead ("Check status"), as buttons.
        name: an object name, so tests and accessibility tools can find the box.
        alert: a screen reader says the whole question at once when the box shows (real
            money: the environment and the amount are heard before any answer).
        confirm: a box to tick before ``action`` can be pressed (what the person confirms
            by ticking it); "" for none.

    Returns:
        The words of the button pressed; "" for Cancel, Escape or a closed box.
    """
    box = QMessageBox(parent)
    if name:
        box.setObjectName(name)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setText(text)
    buttons = [(box.addButton(action, QMessageBox.ButtonRole.AcceptRole), action)]
    buttons += [(box.addButton(w, QMessageBox.ButtonRole.ActionRole), w) for w in others]
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    if alert:
        QTimer.singleShot(0, box, lambda: announce(box, text, alert=True))  # once it shows
    if confirm:
        tick = QCheckBox(confirm)
        tick.setObjectName(f"{name}-confirm" if name else "confirm")
        go = buttons[0][0]
        go.setEnabled(False)
        tick.toggled.connect(go.setEnabled)
        box.setCheckBox(tick)
    box.exec()
    clicked = box.clickedButton()
    return next((words for button, words in buttons if button is clicked), "")


def ask(
    parent: QWidget | None,
    text: str,
    *,
    title: str,
    action: str,
    name: str = "",
    alert: bool = False,
    confirm: str = "",
) -> bool:
    """A modal warning whose default and Escape answer is Cancel; True only for ``action``
    (see :func:`choose` for the arguments)."""
    answer = choose(
        parent, text, title=title, action=action, name=name, alert=alert, confirm=confirm
    )
    return answer == action
