"""The one confirmation question: Cancel by default and on Escape, go ahead only on its button."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from console.ui.confirm import ask


def _answer(qtbot: Any, how: str, seen: list[QMessageBox]) -> None:
    def run() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, run)
            return
        seen.append(box)
        if how == "go":
            next(b for b in box.buttons() if b.text() == "Remove").click()
        elif how == "escape":
            qtbot.keyClick(box, Qt.Key.Key_Escape)
        else:
            qtbot.keyClick(box, Qt.Key.Key_Return)  # the default button

    QTimer.singleShot(0, run)


def test_only_the_action_button_says_yes(qtbot: Any) -> None:
    seen: list[QMessageBox] = []
    for how, expected in (("go", True), ("escape", False), ("enter", False)):
        _answer(qtbot, how, seen)
        assert ask(None, "Remove it?", title="Remove", action="Remove", name="q") is expected
    assert [b.objectName() for b in seen] == ["q", "q", "q"]
    assert seen[0].windowTitle() == "Remove"
