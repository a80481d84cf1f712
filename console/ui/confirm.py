"""One confirmation question for every risky step: production sends, addresses, keys."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


def ask(parent: QWidget | None, text: str, *, title: str, action: str, name: str = "") -> bool:
    """A modal warning whose default and Escape answer is Cancel; True only for ``action``.

    Args:
        parent: the window the question belongs to.
        text: the question (rich text allowed); it should say what happens on ``action``.
        title: the window title.
        action: the words on the button that goes ahead ("Send to production").
        name: an object name, so tests and accessibility tools can find the box.
    """
    box = QMessageBox(parent)
    if name:
        box.setObjectName(name)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setText(text)
    go = box.addButton(action, QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    box.exec()
    return box.clickedButton() is go
