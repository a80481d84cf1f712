"""Enter presses the focused button of a window that is not a dialog.

Qt gives Enter to a focused push button only in a dialog (or as its default button); in
the main window Enter on "Generate" did nothing, so a keyboard-only person needed Space and
could not go by Tab, Shift+Tab and Enter alone.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QPushButton, QToolButton, QWidget

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_PLAIN = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)


class EnterPressesButtons(QObject):
    """Installed on a window: an Enter its focused button left unused clicks that button."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in _ENTER
            and event.modifiers() in _PLAIN
            and isinstance(watched, QWidget)
        ):
            focus = QApplication.focusWidget()
            if (
                isinstance(focus, (QPushButton, QToolButton))
                and focus.isEnabled()
                and focus.window() is watched.window()
            ):
                focus.click()  # as Enter on a dialog's button: at once
                return True
        return False
