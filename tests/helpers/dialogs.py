"""Answering the window's modal questions from a test, as a person clicks them."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox


def answer_next_question(accept: bool, seen: list[str]) -> None:
    """When the next modal question opens, note its text in ``seen`` and click its go-ahead
    button (``accept``) or the other one."""

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        seen.append(box.text())
        for button in box.buttons():
            if (box.buttonRole(button) == QMessageBox.ButtonRole.AcceptRole) == accept:
                button.click()
                return

    QTimer.singleShot(20, answer)
