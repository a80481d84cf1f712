"""Start-up work that waits until the window has been drawn once."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class AfterFirstPaint(QObject):
    """Calls ``fn`` once, as soon as ``widget`` has finished its first paint.

    Start-up work that the first picture does not need (the local sandbox: key generation, a
    server thread, imports of cryptography; the journal and its hidden panes) waits for it:
    the window appears sooner, and a worker thread does not share the interpreter with the
    GUI thread while the window is still being drawn.
    """

    def __init__(self, widget: QWidget, fn: Callable[[], object]) -> None:
        super().__init__(widget)
        self._fn = fn
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            # queued: runs once this paint and its children's are done
            QTimer.singleShot(0, self._fn)
        return False
