"""The main window's size and dock layout: fit the screen, keep the form usable when the
window shrinks, and save and restore where the docks are (kept with the drafts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow

if TYPE_CHECKING:
    from console.ui.forms.validation_view import ProblemSummary

DEFAULT_SIZE = (1400, 900)
INSPECTOR_SHARE = 30  # percent of the window's width
INSPECTOR_WIDTHS = (260, 440)  # narrowest, widest at start-up


def inspector_width(window_width: int) -> int:
    """About 30% of the window, within :data:`INSPECTOR_WIDTHS`."""
    low, high = INSPECTOR_WIDTHS
    return max(low, min(high, window_width * INSPECTOR_SHARE // 100))


def fit_to_screen(window: QMainWindow, inspector: QDockWidget) -> None:
    """Start at :data:`DEFAULT_SIZE`, or smaller to fit the screen."""
    width, height = DEFAULT_SIZE
    screen = window.screen()
    # the offscreen platform's made-up 800x800 screen says nothing about a real one
    if screen is not None and QGuiApplication.platformName() != "offscreen":
        free = screen.availableGeometry()
        width = min(width, free.width())
        height = min(height, free.height() - 32)  # room for the title bar
    window.resize(width, height)
    horizontal = Qt.Orientation.Horizontal
    window.resizeDocks([inspector], [inspector_width(width)], horizontal)


def follow_resize(
    window: QMainWindow, inspector: QDockWidget, summary: ProblemSummary, event: QResizeEvent
) -> None:
    """Keep the form the main thing when the window gets smaller."""
    # a low window keeps its height for the form: three problem lines, then scrolling
    summary.set_max_lines(3 if event.size().height() < 800 else 6)
    # A window made narrower takes the room from the form first (Qt's way); keep the
    # inspector to about a third so the form stays usable on a small screen.
    width = event.size().width()
    if width < event.oldSize().width() and inspector.isVisible():
        cap = max(INSPECTOR_WIDTHS[0], width * INSPECTOR_SHARE // 100)
        if inspector.width() > cap:
            window.resizeDocks([inspector], [cap], Qt.Orientation.Horizontal)


def state_text(window: QMainWindow) -> str:
    """Where the docks are and how big, as text for the drafts file."""
    return bytes(window.saveState().toBase64().data()).decode("ascii")


def restore(window: QMainWindow, saved: str, panes: Sequence[QDockWidget] = ()) -> bool:
    """Put the docks back as :func:`state_text` saved them.

    Docks made after start-up (``panes``) are placed only when the saved layout knows them
    all; False means they were not, and their defaults apply.
    """
    if not saved or not all([window.restoreDockWidget(d) for d in panes]):
        return False
    # once more, whole: a dock added late gets its place above but not its visibility
    return window.restoreState(QByteArray.fromBase64(saved.encode("ascii")))
