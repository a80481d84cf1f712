"""The window's journals, opened on a worker after the first paint and attached on the GUI
thread: this computer's SQLite journal (its callbacks, and for one person its sends) and, in
team mode, the team's shared journal, where every send is written first. When they cannot be
opened, a notice that stays visible and Send kept off: nothing may be sent unjournalled.

Who needs the journal waits for it without blocking the window: :meth:`JournalPart.when_settled`
runs a function once the journal is attached or known to be unavailable (Send's state, the
built-in sandbox, whose callbacks need the window's listener). Whoever needs it at once (a
send, tests) calls :meth:`JournalPart.attach`, which waits for the opening under way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from console.core.errors import ConsoleError, JournalUnavailableError
from console.core.paths import resolve
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.history import History
    from console.core.journals import JournalStore
    from console.ui.history.bridge import JournalBridge
    from console.ui.tasks import TaskManager

NOTICE = (
    "The history journal is unavailable, so sending is off: every request is written there first."
)


@dataclass(frozen=True, slots=True)
class Journals:
    """``history``: this computer's journal, where its callbacks are kept; ``sends``: where
    every send is written first and looked up (the history itself for one person, the
    team's shared journal in team mode)."""

    history: History
    sends: JournalStore

    @property
    def team(self) -> bool:
        return self.sends.shared


class JournalOpener:
    """Opens the journals once, in whichever thread asks first; later askers get the same
    journals, or the same :class:`JournalUnavailableError`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._journal: Journals | None = None
        self._problem: JournalUnavailableError | None = None

    def open(self) -> Journals:
        with self._lock:
            if self._journal is None and self._problem is None:
                try:
                    self._journal = self._open()
                except JournalUnavailableError as exc:
                    self._problem = exc
            if self._problem is not None:
                raise self._problem
            assert self._journal is not None
            return self._journal

    def _open(self) -> Journals:
        # boundary: SQLite and PostgreSQL load on the worker that opens them, after the
        # first paint
        from console.core.history import History

        # boundary: the journals' module loads after the first paint
        from console.core.journals import team_dsn

        history = History(self.path)
        try:
            dsn = team_dsn()
        except ConsoleError as exc:  # a team setting this console cannot read
            history.close()
            raise JournalUnavailableError(f"The team journal: {exc.message}") from exc
        if not dsn:
            return Journals(history, history)
        from console.core.team.storage.journal import TeamJournal  # boundary: as History above

        try:
            return Journals(history, TeamJournal(dsn))
        except JournalUnavailableError:
            history.close()
            raise


class JournalPart(QObject):
    """Opens the journal and attaches what needs it, on the GUI thread (``attach_to``: gets
    the journals and the bridge that tells of their changes, and builds the parts that need
    them; ``show_notice``: puts the unavailable-journal notice in the window)."""

    def __init__(
        self,
        tasks: TaskManager,
        attach_to: Callable[[Journals, JournalBridge], None],
        show_notice: Callable[[QWidget], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.opener = JournalOpener(resolve().history_db)
        self._attach_to = attach_to
        self._show_notice = show_notice
        self.journals: Journals | None = None
        self.bridge: JournalBridge | None = None
        self.problem: JournalUnavailableError | None = None
        self.notice: QWidget | None = None
        self._opening = self.settled = False
        self._waiters: list[Callable[[], object]] = []

    def open_in_background(self) -> None:
        """Start opening the journal on a worker (once); it is attached when it is open."""
        if self.settled or self._opening:
            return
        self._opening = True

        def settle(*_: object) -> None:
            self.attach()

        self.tasks.run(self.opener.open, settle, settle)

    def attach(self) -> Journals | None:
        """The journals, attached once (waits for an opening under way); None when they are
        unavailable (see :attr:`problem`)."""
        if not self.settled:
            try:
                journals = self.opener.open()
            except JournalUnavailableError as exc:
                self.problem = exc
                self.notice = _notice(exc)
                self._show_notice(self.notice)
            else:
                from console.ui.history.bridge import JournalBridge  # with the journal

                self.bridge = JournalBridge(journals.sends, self)
                self.journals = journals
                self._attach_to(journals, self.bridge)
            self.settled = True
            waiting, self._waiters = self._waiters, []
            for fn in waiting:
                fn()
        return self.journals

    def when_settled(self, fn: Callable[[], object]) -> None:
        """Call ``fn`` now if the journal is attached or unavailable, else once it is."""
        if self.settled:
            fn()
        else:
            self._waiters.append(fn)

    def close(self) -> None:
        """After the background work has finished: let go of the journals."""
        if self.bridge is not None:
            self.bridge.detach()
        if self.journals is not None and self.journals.team:
            self.journals.sends.close()  # the team database connection

    def refusal(self) -> str:
        """Why Send is off for the journal's sake ("" when it is not)."""
        return f"{NOTICE} {self.problem.message}" if self.problem is not None else ""


def _notice(problem: JournalUnavailableError) -> QWidget:
    """A short notice under the banner that stays; the reason, the file and what to do
    under "Details"."""
    frame = QFrame()
    frame.setObjectName("journal-notice")
    frame.setFrameShape(QFrame.Shape.StyledPanel)
    frame.setAccessibleName("History journal unavailable")
    colour = state_colour("error", frame.palette()).name()
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
    return frame
