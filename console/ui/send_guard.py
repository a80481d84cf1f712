"""The window's memory of which client_orderids must not go again.

The rules are the core's (``console.core.pipeline.guard``); this keeps the verdicts of the
form shown so a keystroke never asks the journal on the GUI thread (the look-up runs on the
journal's lane and Send's state follows when it answers), remembers answers seen in this
window (they count even when the journal could not store them), and marks the id on its way.
Just before a send, the journal is asked again, fresh.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, SignalInstance, Slot

from console.core import pipeline

if TYPE_CHECKING:
    from console.core.journals import Journal
    from console.core.pipeline import Verdict
    from console.ui.tasks import TaskManager

Key = tuple[str, str, str, str]  # gateway, command, client_orderid, environment


class SendGuard(QObject):
    """Remembered verdicts per (gateway, command, client_orderid, environment).

    Args:
        on_change: called (in the GUI thread) when a verdict arrived or may be stale.
        tasks: where the journal is asked (its journal lane).
        parent: the owner.
    """

    def __init__(
        self, on_change: Callable[[], None], tasks: TaskManager, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._on_change = on_change
        self._tasks = tasks
        self._journal: Journal | None = None
        self._cache: dict[Key, Verdict] = {}
        self._asking: set[Key] = set()
        self._generation = 0
        self._seen_here: dict[Key, Verdict] = {}
        self.sending: Key | None = None  # the key of the request on its way, if any
        self.notes: dict[str, str] = {}  # per command: said in the result line after the send

    def bind(self, journal: Journal, changed: Sequence[SignalInstance]) -> None:
        """Read ``journal``; ``changed``: signals (with a row id) telling of its changes."""
        if self._journal is journal:
            return
        self._journal = journal
        self.forget()
        for signal in changed:
            signal.connect(self._journal_changed)

    def known(self, key: Key) -> Verdict | None:
        """The verdict for ``key`` as far as it is known now, without waiting: None while the
        journal is being asked (``on_change`` is called when it answers)."""
        if key == self.sending:
            return pipeline.Verdict(pipeline.Seen.SENDING, key[2])
        if key in self._seen_here:
            return self._seen_here[key]
        if key in self._cache:
            return self._cache[key]
        if self._journal is not None and key not in self._asking:
            self._ask(key)
        return None

    def _ask(self, key: Key) -> None:
        journal, generation = self._journal, self._generation
        assert journal is not None
        self._asking.add(key)

        def arrived(found: Verdict) -> None:
            self._asking.discard(key)
            if generation == self._generation:
                self._cache[key] = found
                self._on_change()

        def failed(exc: BaseException, _tb: str) -> None:
            self._asking.discard(key)  # asked again, fresh, before any send

        self._tasks.run(
            lambda: pipeline.verdict_for(journal, *key), arrived, failed, lane="journal", owner=self
        )

    def lookup_fresh(self, key: Key) -> Verdict:
        """Ask the journal now, whatever is remembered (just before sending)."""
        if key == self.sending:
            return pipeline.Verdict(pipeline.Seen.SENDING, key[2])
        if key in self._seen_here:
            return self._seen_here[key]
        if self._journal is None:
            return pipeline.Verdict(pipeline.Seen.NEW, key[2])
        self._cache[key] = pipeline.verdict_for(self._journal, *key)
        return self._cache[key]

    def remember(self, key: Key, verdict: Verdict) -> None:
        """An answer seen in this window (accepted): it blocks whatever the journal says."""
        self._seen_here[key] = verdict
        self._cache.pop(key, None)

    def forget(self) -> None:
        """Drop remembered look-ups (the journal changed); answers on their way are stale."""
        self._cache.clear()
        self._asking.clear()
        self._generation += 1

    @Slot(int)
    def _journal_changed(self, _row_id: int) -> None:
        self.forget()
        self._on_change()
