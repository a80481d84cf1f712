"""Journal and callback events, from whatever thread wrote them, as Qt signals.

The journal (:class:`console.core.history.History`) and the callback recorder call their
listeners in the writing thread (a send worker, the callback server). Emitting a signal of an
object that lives in the GUI thread queues the call there, so views only ever react in the
GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from console.core.history import CallbackEvent
    from console.core.journals import JournalStore


class JournalBridge(QObject):
    """Signals: ``row_added(id)``, ``row_changed(id)``, ``journal_failed(id)``,
    ``callback(CallbackEvent)``; connect with ``Qt.QueuedConnection`` or from GUI objects."""

    row_added = Signal(int)
    row_changed = Signal(int)
    journal_failed = Signal(int)
    callback = Signal(object)

    def __init__(self, history: JournalStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._unsubscribe: Callable[[], None] | None = history.subscribe(self._event)

    def _event(self, event: str, row_id: int) -> None:
        if event == "added":
            self.row_added.emit(row_id)
        elif event == "changed":
            self.row_changed.emit(row_id)
        elif event == "journal-failed":
            self.journal_failed.emit(row_id)

    def on_callback(self, event: CallbackEvent) -> None:
        """Listener for :meth:`console.core.callbacks.CallbackRecorder.subscribe`."""
        self.callback.emit(event)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
