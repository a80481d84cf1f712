"""The window's memory of which client_orderids must not go again.

The rules are the core's (``console.core.pipeline.guard``); this keeps the verdicts of the
form shown so a keystroke does not ask the journal each time, remembers answers seen in this
window (they count even when the journal could not store them), and marks the id on its way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, SignalInstance, Slot

from console.core.pipeline import Seen, Verdict, verdict_for

if TYPE_CHECKING:
    from console.core.history import History

Key = tuple[str, str, str]  # environment, command, client_orderid


class SendGuard(QObject):
    """Remembered verdicts per (environment, command, client_orderid).

    Args:
        on_change: called (in the GUI thread) when a remembered verdict may be stale.
        parent: the window.
    """

    def __init__(self, on_change: Callable[[], None], parent: QObject) -> None:
        super().__init__(parent)
        self._on_change = on_change
        self._history: History | None = None
        self._cache: dict[Key, Verdict] = {}
        self._seen_here: dict[Key, Verdict] = {}
        self.sending: Key | None = None  # the key of the request on its way, if any
        self.notes: dict[str, str] = {}  # per command: said in the result line after the send

    def bind(self, history: History, changed: Sequence[SignalInstance]) -> None:
        """Read ``history``; ``changed``: signals (with a row id) telling of its changes."""
        if self._history is history:
            return
        self._history = history
        self._cache.clear()
        for signal in changed:
            signal.connect(self._journal_changed)

    @property
    def bound(self) -> bool:
        return self._history is not None

    def lookup(self, key: Key, *, fresh: bool = False) -> Verdict:
        """The verdict for ``key``; ``fresh`` asks the journal again (just before sending)."""
        if key == self.sending:
            return Verdict(Seen.SENDING, key[2])
        if key in self._seen_here:
            return self._seen_here[key]
        if fresh or key not in self._cache:
            if self._history is None:
                return Verdict(Seen.NEW, key[2])
            self._cache[key] = verdict_for(self._history, *key)
        return self._cache[key]

    def remember(self, key: Key, verdict: Verdict) -> None:
        """An answer seen in this window (accepted): it blocks whatever the journal says."""
        self._seen_here[key] = verdict
        self._cache.pop(key, None)

    def forget(self) -> None:
        """Drop remembered look-ups (the journal changed)."""
        self._cache.clear()

    @Slot(int)
    def _journal_changed(self, _row_id: int) -> None:
        self._cache.clear()
        self._on_change()
