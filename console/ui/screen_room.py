"""How much of the screen a window or a dialog may take: a dialog opens at the size it
asks for or smaller, so its buttons are never off a small screen (1024x700)."""

from __future__ import annotations

import os

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

TITLE_BAR = 32  # the window manager's title bar and frame above a window's contents
FRAME = 8  # its frame on the left and the right together


def screen_room(widget: QWidget) -> QSize | None:
    """The free room on ``widget``'s screen (or the primary one), or None when the screen
    says nothing about a real one: the offscreen platform makes up an 800x800 screen unless
    one is described to it (``offscreen:configfile=…``, the tests' small screens)."""
    if QGuiApplication.platformName() == "offscreen" and "configfile" not in os.environ.get(
        "QT_QPA_PLATFORM", ""
    ):
        return None
    return widget.screen().availableGeometry().size()


def fit_on_screen(dialog: QWidget, width: int, height: int) -> None:
    """Give ``dialog`` the size it asks for, or what its screen has room for, frame and title
    bar included."""
    room = screen_room(dialog.parentWidget() or dialog)
    if room is not None:
        width = min(width, room.width() - FRAME)
        height = min(height, room.height() - TITLE_BAR)
    dialog.resize(width, height)
