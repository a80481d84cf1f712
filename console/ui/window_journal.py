"""The main window's journal: opened on a worker after the first paint, attached on the GUI
thread; when it cannot be opened, a notice that stays visible and Send kept off (nothing may
be sent unjournalled).

Who needs the journal waits for it without blocking the window: :func:`when_settled` runs a
function once the journal is attached or known to be unavailable (Send's state, the built-in
sandbox, whose callbacks need the window's listener). Whoever needs it at once (a send, the
history pane, tests) calls :func:`attach`, which waits for the opening under way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from console.core.errors import JournalUnavailableError
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.history import History
    from console.ui.history.wiring import JournalWiring
    from console.ui.main_window import MainWindow

NOTICE = (
    "The history journal is unavailable, so sending is off: every request is written there first."
)


class JournalOpener:
    """Opens the journal once, in whichever thread asks first; later askers get the same
    journal, or the same :class:`JournalUnavailableError`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._history: History | None = None
        self._problem: JournalUnavailableError | None = None

    def open(self) -> History:
        with self._lock:
            if self._history is None and self._problem is None:
                from console.core.history import History  # not needed for the first picture

                try:
                    self._history = History(self.path)
                except JournalUnavailableError as exc:
                    self._problem = exc
            if self._problem is not None:
                raise self._problem
            assert self._history is not None
            return self._history


def open_in_background(w: MainWindow) -> None:
    """Start opening the journal on a worker (once); it is attached when it is open."""
    if w.journal_settled or w.journal_opening:
        return
    w.journal_opening = True

    def settle(*_: object) -> None:
        attach(w)

    w.tasks.run(w.journal_opener.open, settle, settle)


def attach(w: MainWindow) -> JournalWiring | None:
    """The journal wiring, attached once (waits for an opening under way); None when the
    journal is unavailable (see ``w.journal_problem``)."""
    if not w.journal_settled:
        try:
            history = w.journal_opener.open()
        except JournalUnavailableError as exc:
            w.journal_problem = exc
            _show_notice(w, exc)
        else:
            from console.ui.history.wiring import attach_journal

            w.journal_wiring = attach_journal(w, history)
        w.journal_settled = True
        waiting, w.journal_waiters = w.journal_waiters, []
        for fn in waiting:
            fn()
    return w.journal_wiring


def when_settled(w: MainWindow, fn: Callable[[], object]) -> None:
    """Call ``fn`` now if the journal is attached or unavailable, else once it is."""
    if w.journal_settled:
        fn()
    else:
        w.journal_waiters.append(fn)


def send_refusal(w: MainWindow) -> str:
    """Why Send is off for the journal's sake ("" when it is not)."""
    problem = w.journal_problem
    return f"{NOTICE} {problem.message}" if problem is not None else ""


def _show_notice(w: MainWindow, problem: JournalUnavailableError) -> None:
    """A short notice under the banner that stays; the reason, the file and what to do
    under "Details"."""
    frame = QFrame()
    frame.setObjectName("journal-notice")
    frame.setFrameShape(QFrame.Shape.StyledPanel)
    frame.setAccessibleName("History journal unavailable")
    colour = state_colour("error", w.palette()).name()
    head = QLabel(f"<span style='color:{colour}'><b>{NOTICE}</b></span>")
    head.setWordWrap(True)
    details = QLabel(problem.message)
    details.setObjectName("journal-notice-details")
    details.setWordWrap(True)
    details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    details.setVisible(False)
    toggle = QPushButton("Details")
    toggle.setCheckable(True)
    toggle.setToolTip("Why, where the file is and what to do")
    toggle.toggled.connect(details.setVisible)
    top = QHBoxLayout()
    top.setContentsMargins(0, 0, 0, 0)
    top.addWidget(head, 1)
    top.addWidget(toggle)
    lay = QVBoxLayout(frame)
    lay.setContentsMargins(8, 4, 8, 4)
    lay.addLayout(top)
    lay.addWidget(details)
    w.journal_notice = frame
    w.insert_notice(frame)
