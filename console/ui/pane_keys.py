"""F6 and Shift+F6: the keyboard's way between the window's panes (the form, the request
inspector, History, Callbacks), which Tab does not cross: each pane keeps its own round."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QWidget

_CHAIN_LIMIT = 10_000  # more widgets than any window has: the chain is a loop


def panes(window: QMainWindow) -> list[QWidget]:
    """The form area, then each dock shown, in the order they were added."""
    central = window.centralWidget()
    docks = [d for d in window.findChildren(QDockWidget) if d.isVisible()]
    return ([central] if central is not None else []) + list(docks)


def first_stop(area: QWidget) -> QWidget | None:
    """The first widget of ``area`` that Tab stops at and a person can see."""
    widget = area.nextInFocusChain()
    for _ in range(_CHAIN_LIMIT):
        if widget is area or widget is None:
            return None
        if (
            area.isAncestorOf(widget)
            and widget.isVisible()
            and widget.isEnabled()
            and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and widget.focusProxy() is None
        ):
            return widget
        widget = widget.nextInFocusChain()
    return None


def go_to_pane(window: QMainWindow, forward: bool = True) -> QWidget | None:
    """Put the cursor in the next (or previous) pane; returns where it went."""
    areas = panes(window)
    focus = QApplication.focusWidget()
    here = next((i for i, a in enumerate(areas) if focus is not None and a.isAncestorOf(focus)), -1)
    step = 1 if forward else -1
    for k in range(1, len(areas) + 1):
        stop = first_stop(areas[(here + step * k) % len(areas)])
        if stop is not None:
            stop.setFocus(Qt.FocusReason.OtherFocusReason)
            return stop
    return None
