"""The main window: banner, command tabs, form, problems, result line and Send, inspector.

Its jobs live beside it, as functions of the window: ``window_forms`` (forms built on first
use, switching, validation, examples), ``window_sending`` (Send and the result line),
``window_environment`` (the active environment, the local sandbox), ``window_layout`` (size
and docks) and ``menus`` (actions and shortcuts). This class holds the widgets and the
methods other parts and tests call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QTabBar,
    QVBoxLayout,
    QWidget,
)

from console import APP_NAME
from console.core.errors import JournalUnavailableError
from console.core.paths import resolve
from console.core.spec import COMMANDS
from console.ui import (
    window_environment,
    window_forms,
    window_journal,
    window_layout,
    window_sending,
)
from console.ui.banner import EnvironmentBanner
from console.ui.drafts import DraftStore
from console.ui.forms.generator import CommandForm
from console.ui.forms.validation_view import ProblemSummary
from console.ui.icons import app_icon
from console.ui.inspector.dock import InspectorDock
from console.ui.menus import build_menus
from console.ui.sending import SendController
from console.ui.session import Session
from console.ui.startup import AfterFirstPaint
from console.ui.tasks import TaskRunner
from console.ui.window_journal import JournalOpener

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.ui.history.wiring import JournalWiring
    from console.ui.send_guard import SendGuard


class MainWindow(QMainWindow):
    """One window for every command. Other panes dock in through :meth:`add_pane`."""

    view_menu: QMenu  # set by build_menus; add_pane lists panes here
    environment_menu: QMenu  # environment manager and key dialogs go here
    result: QLabel  # the result bar's widgets, set by window_sending.build_result_bar
    use_in_payout_button: QPushButton
    busy: QProgressBar
    send_button: QPushButton
    send_blocked_row: QWidget  # above Send: why it is off (send_note), new_id_button
    send_note: QLabel
    new_id_button: QPushButton
    send_guard: SendGuard

    def __init__(self, session: Session, drafts: DraftStore, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(APP_NAME)
        self.setWindowIcon(app_icon())
        self.setObjectName("main-window")
        self.session = session
        self.drafts = drafts
        self.tasks = TaskRunner(self)
        self.sender_ = SendController(session, self.tasks, self)
        self._closed = False
        self.persist_drafts = True  # off for --screenshot: an example must not become a draft
        self.actions_by_name: dict[str, QAction] = {}
        self.sandbox_defaults: dict[str, Any] = {}  # start_local_sandbox options (journal)
        self.example_overrides: dict[str, str] = {}  # example values the environment sets
        self.callback_listener_url = ""  # this console's listener for the active environment
        self._last_outcome: Outcome | None = None
        # Each command's last result line: an answer belongs under the form that sent it.
        self.shown_environment: str | None = None  # whose values the forms hold
        self._results: dict[str, tuple[str, str]] = {}
        self._outcomes: dict[str, Outcome] = {}  # each command's last answer
        self._sending_command = ""
        # The journal, history and callbacks panes, status checks, environment dialogs: none
        # of it is in the first picture. The journal is opened on a worker right after the
        # first paint and attached when open (``window_journal``); sending waits for it.
        self.journal_opener = JournalOpener(resolve().history_db)
        self.journal_wiring: JournalWiring | None = None
        self.journal_problem: JournalUnavailableError | None = None
        self.journal_notice: QWidget | None = None
        self.journal_opening = self.journal_settled = False
        self.journal_waiters: list[Callable[[], object]] = []

        self.banner = EnvironmentBanner()
        self.commands = QTabBar()
        self.commands.setAccessibleName("Commands")
        self.commands.setExpanding(False)
        self.commands.setDocumentMode(True)
        self.stack = QStackedWidget()
        names = window_forms.command_names()
        self.forms = window_forms.LazyForms(names, lambda name: window_forms.build_form(self, name))
        for name in names:
            self.stack.addWidget(QWidget())  # replaced by the form when first shown
            self.commands.addTab(COMMANDS[name].title)
            self.commands.setTabToolTip(self.commands.count() - 1, COMMANDS[name].purpose)
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(800)  # drafts reach the disk shortly after typing stops
        self._draft_timer.timeout.connect(self.save_drafts)
        self.summary = ProblemSummary()
        self.summary.jump.connect(self.focus_field)
        self.result_bar = window_sending.build_result_bar(self)  # others add buttons here

        right = QWidget()
        rlay = QVBoxLayout(right)
        rlay.setContentsMargins(0, 0, 0, 0)
        rlay.addWidget(self.stack, 1)
        rlay.addWidget(self.summary)
        rlay.addWidget(self.send_blocked_row)
        rlay.addLayout(self.result_bar)
        central = QWidget()
        clay = QVBoxLayout(central)
        clay.setContentsMargins(6, 6, 6, 6)
        self._top = clay
        clay.addWidget(self.banner)
        clay.addWidget(self.commands)
        clay.addWidget(right, 1)
        self.setCentralWidget(central)

        self.inspector = InspectorDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.inspector)
        build_menus(self)

        window_sending.connect_sender(self)
        self.session.changed.connect(self._session_changed)
        self.commands.currentChanged.connect(lambda row: window_forms.switch(self, row))
        self._session_changed()
        start = drafts.last_command if drafts.last_command in names else names[0]
        self.show_command(start)
        AfterFirstPaint(self, lambda: window_journal.open_in_background(self))
        window_layout.fit_to_screen(self)
        self.restore_layout()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        window_layout.follow_resize(self, event)

    @property
    def journal(self) -> JournalWiring:
        """The journal wiring (see ``console.ui.history.wiring``), attached on first use.
        Raises JournalUnavailableError when the journal cannot be opened."""
        wiring = self.attach_journal()
        if wiring is None:
            assert self.journal_problem is not None
            raise self.journal_problem
        return wiring

    def attach_journal(self) -> JournalWiring | None:
        """Attach the journal, panes and dialogs once (see ``window_journal.attach``)."""
        return window_journal.attach(self)

    def insert_notice(self, notice: QWidget) -> None:
        """Show a notice that stays, under the environment banner."""
        self._top.insertWidget(self._top.indexOf(self.banner) + 1, notice)

    # -- commands and forms (window_forms) ---------------------------------------------------
    @property
    def command(self) -> str:
        return self.forms.names[self.stack.currentIndex()]

    @property
    def form(self) -> CommandForm:
        return self.forms[self.command]

    def show_command(self, name: str) -> None:
        """Switch to a command's form (drafts of the others are kept)."""
        index = self.forms.names.index(name)
        if self.commands.currentIndex() == index:
            window_forms.switch(self, index)  # the tab bar does not signal the current tab
        else:
            self.commands.setCurrentIndex(index)

    def fill_example(self) -> None:
        """Fill the current form with the contract's example (see ``window_forms``)."""
        window_forms.fill_example(self)

    def clear_form(self) -> None:
        self.form.load({}, clear=True)

    def focus_field(self, name: str) -> None:
        self.form.focus_field(name)

    def _validate(self) -> None:
        """Validate the form that changed (or the one shown)."""
        sender = self.sender()
        window_forms.validate_form(self, sender if isinstance(sender, CommandForm) else None)

    # -- sending and the result line (window_sending) ------------------------------------------
    def send(self) -> None:
        """Send the current form (Ctrl+Enter); while errors block it, show them in colour."""
        window_sending.send(self)

    def _show_result(self, state: str, text: str, command: str | None = None) -> None:
        window_sending.show_result(self, state, text, command)

    def use_in_payout(self, recurring_payment_id: str) -> None:
        """Open the payout form with a stored card reference as the receiver."""
        form = self.forms["payout-check"]
        form.load({"@receiver": "card-ref", "card_recurring_payment_id": recurring_payment_id})
        self.show_command("payout-check")
        form.focus_field("amount")

    # -- environment (window_environment) -------------------------------------------------
    def _session_changed(self) -> None:
        window_environment.session_changed(self)

    def _environment_kind(self) -> str | None:
        return window_environment.environment_kind(self)

    def start_local_sandbox(self, **options: Any) -> None:
        """Start the built-in sandbox on a worker; the window is usable meanwhile."""
        window_environment.start_local_sandbox(self, **options)

    def wait_ready(self, msecs: int) -> bool:
        """Process events until an environment with a key is active (screenshots, tests)."""
        return window_environment.wait_ready(self, msecs)

    # -- drafts, panes, layout, closing -----------------------------------------------------
    def save_drafts(self) -> None:
        """Write every open form's draft (card number and CVV2 are dropped by the store) and
        where the docks are and how big."""
        if not self.persist_drafts:
            return
        for form in self.forms.built():
            self.drafts.put(form.command.name, form.draft())
        self.drafts.layout["window"] = window_layout.state_text(self)
        self.drafts.save()

    def add_pane(
        self, widget: QWidget, title: str, area: Qt.DockWidgetArea, shortcut: str = ""
    ) -> QDockWidget:
        """Dock another pane (history, callbacks) and list it in the View menu."""
        dock = QDockWidget(title, self)
        dock.setObjectName(f"pane:{title}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        action = dock.toggleViewAction()
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        self.view_menu.addAction(action)
        return dock

    def restore_layout(self, panes: Sequence[QDockWidget] = ()) -> bool:
        """Put the docks where the person left them; see ``window_layout.restore``."""
        return window_layout.restore(self, self.drafts.layout.get("window", ""), panes)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closed = True
        self.save_drafts()
        self.tasks.wait(10_000)
        QCoreApplication.sendPostedEvents()  # deliver finished work (a started sandbox)
        self.session.stop_sandbox()
        super().closeEvent(event)
