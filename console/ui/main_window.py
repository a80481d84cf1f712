"""The main window: assembles the parts of ``console.ui.window`` (the forms, the send panel
under them, the journal, the active environment), the banner, the request inspector, the
menus and the Environment menu, and runs all background work through one task manager. The
parts own their widgets and state and talk through signals; this class connects them. What
needs the journal (its panes, the callback listeners, status checks) is built once it is
open, after the first paint."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QVBoxLayout, QWidget

from console import APP_NAME
from console.core.paths import resolve
from console.core.spec import example_values
from console.ui import collect_as_usual
from console.ui.banner import EnvironmentBanner
from console.ui.drafts import DraftStore
from console.ui.enter_key import EnterPressesButtons
from console.ui.environment_menu import EnvironmentMenu
from console.ui.icons import app_icon
from console.ui.inspector.dock import InspectorDock
from console.ui.menus import MenuCommands, add_team_actions, build_menus
from console.ui.secrets_access import SecretsAccess
from console.ui.sending import SendController
from console.ui.session import LOCAL_SANDBOX_STATE, Session
from console.ui.startup import AfterFirstPaint
from console.ui.tasks import TaskManager
from console.ui.theme import apply_theme
from console.ui.window import layout
from console.ui.window.dialogs import Dialogs
from console.ui.window.environment_part import EnvironmentPart
from console.ui.window.forms_part import FormsPart, LazyForms
from console.ui.window.journal_part import JournalPart, Journals
from console.ui.window.send_panel import SendPanel

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.team.storage.journal import TeamJournal
    from console.ui.callback_listeners import CallbackListeners
    from console.ui.forms.generator import CommandForm
    from console.ui.history.bridge import JournalBridge
    from console.ui.window.journal_panes import JournalPanes
    from console.ui.window.status_part import StatusPart

log = logging.getLogger(__name__)

CLOSE_WAIT_MS = 10_000  # closing waits at most this long for background work, in all


class MainWindow(QMainWindow):
    """One window for every command. Other panes dock in through :meth:`add_pane`."""

    def __init__(self, session: Session, drafts: DraftStore, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(APP_NAME)
        self.setObjectName("main-window")
        self.installEventFilter(EnterPressesButtons(self))  # Enter presses a focused button
        self.session = session
        self.drafts = drafts
        self.persist_drafts = True  # off for --screenshot: an example must not become a draft
        self.tasks = TaskManager(self)
        self.tasks.failed.connect(self._background_failed)
        self.sender_ = SendController(session, self.tasks, self)
        self.secrets = SecretsAccess(resolve())
        # built once the journal is open (see _journal_attached)
        self._panes: JournalPanes | None = None
        self._listeners: CallbackListeners | None = None
        self._status: StatusPart | None = None

        self.banner = EnvironmentBanner()
        self.inspector = InspectorDock(self)
        self.forms_part = FormsPart(session, drafts)
        self.forms_part.drafts_due.connect(self.save_drafts)
        # The journal is opened on a worker right after the first paint and attached when
        # open; sending waits for it.
        self.journal_part = JournalPart(
            self.tasks, self._journal_attached, self._insert_notice, self
        )
        self.panel = SendPanel(
            session, self.forms_part, self.sender_, self.inspector, self.journal_part, self.tasks
        )
        self.panel.use_in_payout.connect(self.forms_part.use_in_payout)
        self.panel.guard.new_id_requested.connect(self.forms_part.new_order_id)
        self.environment = EnvironmentPart(
            session, self.banner, self.forms_part, self.panel, self.journal_part, self.tasks,
            self.secrets.local_control, self.secrets.paths.state_dir / LOCAL_SANDBOX_STATE, self,
        )  # fmt: skip
        self.environment.title_changed.connect(self.setWindowTitle)
        self.environment.problem.connect(lambda text: self.show_result("warning", text))

        central = QWidget()
        # a dock dragged wide stops there: the form's fields, and every command's tab uncut
        central.setMinimumWidth(layout.form_min_width(self.forms_part.tabs))
        self._top = QVBoxLayout(central)
        self._top.setContentsMargins(6, 6, 6, 6)
        self._top.addWidget(self.banner)
        self._top.addWidget(self.forms_part, 1)
        self._top.addWidget(self.panel)
        self.setCentralWidget(central)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.inspector)
        do = MenuCommands(
            save_drafts=self.save_drafts, send=self.send, fill_example=self.fill_example,
            clear_form=self.clear_form, new_order_id=self.forms_part.new_order_id,
            first_problem=self.panel.go_to_first_problem,
            open_command=self.forms_part.open_command, apply_theme=self.apply_theme,
        )  # fmt: skip
        dialogs = Dialogs(session, self.sender_, self.tasks, self.forms_part, self.add_pane, self)
        self._dialogs = dialogs
        names = self.forms_part.forms.names
        self.menus = build_menus(self, do, dialogs, self.inspector, names, drafts.theme)
        self.actions_by_name = self.menus.actions
        self.environment_menu = EnvironmentMenu(
            self.menus, self.secrets, session, self.environment, self.tasks, self
        )
        self.panel.can_send_changed.connect(self.actions_by_name["send"].setEnabled)

        self.environment.session_changed()
        # the first form builds the rows its first picture shows; the rest after the paint
        self.forms_part.first_rows = layout.rows_in_view(layout.start_size(self)[1])
        self.show_command(drafts.last_command if drafts.last_command in names else names[0])
        AfterFirstPaint(self, self._after_first_paint)
        layout.fit_to_screen(self, self.inspector)
        self.restore_layout()

    def _after_first_paint(self) -> None:
        """What the first picture does without: the journal (opened on a worker), the
        form's rows below the picture, team mode's menu, the Request tab's tables and the
        icon's eight sizes; and the cycle collector's usual pace."""
        collect_as_usual()
        add_team_actions(self.menus, self._dialogs)  # before the journal's panes join View
        self.journal_part.open_in_background()
        self.forms_part.build_later()
        self.inspector.request  # noqa: B018 (builds the tab)
        self.setWindowIcon(app_icon())

    # -- the parts, for dialogs and tests ----------------------------------------------------
    @property
    def forms(self) -> LazyForms:
        return self.forms_part.forms

    @property
    def form(self) -> CommandForm:
        return self.forms_part.form

    @property
    def command(self) -> str:
        return self.forms_part.command

    @property
    def last_outcome(self) -> Outcome | None:
        return self.panel.last_outcome

    # -- the journal and the parts that need it ----------------------------------------------
    def attach_journal(self) -> Journals | None:
        """The journals once attached (waits for an opening under way); None when they are
        unavailable."""
        return self.journal_part.attach()

    def _attached(self) -> None:
        """Attach the journal now; raises JournalUnavailableError when it cannot be opened."""
        if self.journal_part.attach() is None:
            assert self.journal_part.problem is not None
            raise self.journal_part.problem

    @property
    def journal(self) -> JournalPanes:
        """The History and Callbacks panes, attached on first use."""
        self._attached()
        assert self._panes is not None
        return self._panes

    @property
    def listeners(self) -> CallbackListeners:
        """The callback listeners, attached on first use."""
        self._attached()
        assert self._listeners is not None
        return self._listeners

    @property
    def status_part(self) -> StatusPart:
        """Status checks and the last payout's order, attached on first use."""
        self._attached()
        assert self._status is not None
        return self._status

    def _team_keys(self, journal: object) -> None:
        """Team mode: environments the team sender serves need no key here; the active one,
        found without a key before the journal was open, is made active again."""
        if not getattr(journal, "shared", False):
            return
        self.secrets.team_journal = cast("TeamJournal", journal)  # the shared one is the team's
        env = self.session.environment
        if env is not None and not env.builtin and not self.session.ready:
            self.environment_menu.activate(env.name)

    def _journal_attached(self, journals: Journals, bridge: JournalBridge) -> None:
        # boundary: the journal's panes, the callback listeners and status checks load once
        # the journal is open, after the first paint
        from console.ui.callback_listeners import CallbackListeners
        from console.ui.window.journal_panes import JournalPanes  # boundary: as above
        from console.ui.window.status_part import StatusPart  # boundary: as above

        self.sender_.journal = journals.sends
        self._team_keys(journals.sends)
        args = (self.session, self.secrets, self.tasks, self)
        listeners = CallbackListeners(journals.history, journals.sends, bridge, *args)
        listeners.address_changed.connect(self.forms_part.use_listener)
        status = StatusPart(
            journals.sends, self.secrets.connection, self.session, self.forms_part,
            self.panel, self.tasks, self,
        )  # fmt: skip
        self.sender_.finished.connect(status.sent)
        self.sender_.started.connect(lambda _command: status.show_order_buttons())
        self.sender_.failed.connect(lambda _text: status.result_replaced())
        self.sender_.cancelled.connect(status.result_replaced)
        bridge.row_changed.connect(status.final_status_arrived)
        self.sender_.check_status.connect(status.check_id)
        panes = JournalPanes(
            journals, bridge, listeners, self.forms_part, self.tasks, self.add_pane, self
        )
        if not self.restore_layout(panes.docks):
            layout.tuck_away(self, panes.docks)
        panes.warning.connect(lambda text: self.show_result("warning", text))
        panes.pane.check_status.connect(status.check_row)
        panes.pane.follow.connect(status.follow_row)
        status.controller.checked.connect(panes.status_checked)
        self._panes, self._listeners, self._status = panes, listeners, status
        listeners.follow_session()

    def _insert_notice(self, notice: QWidget) -> None:
        """A notice that stays, under the environment banner."""
        self._top.insertWidget(self._top.indexOf(self.banner) + 1, notice)

    # -- commands and forms ------------------------------------------------------------------
    def show_command(self, name: str) -> None:
        self.forms_part.show_command(name)

    def fill_example(self) -> None:
        """Fill the current form with the contract's example (the status form: with the
        last payout of this environment, an order the gateway knows)."""
        if self.command != "status":
            self.forms_part.fill_example()
            return
        # boundary: reading the journal's rows comes with the journal, after the first paint
        from console.ui.history.examples import SEND_A_PAYOUT_FIRST, last_payout, status_example

        env = self.session.environment
        journals = self.attach_journal()
        row = None if env is None or journals is None else last_payout(journals.sends, env.name)
        if row is None:
            self.form.load(example_values("status"), clear=True)
            self.show_result("warning", SEND_A_PAYOUT_FIRST, "status")
            return
        values, words = status_example(row)
        self.form.load(values, clear=True)
        self.show_result("", words, "status")

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab goes from the Commands tabs into the form shown and from its last stop to
        Send; Shift+Tab the way back. Elsewhere Qt's chain (the form keeps it visual)."""
        hop = layout.tab_hop(QApplication.focusWidget(), next, self.forms_part, self.panel)
        if hop is None:
            return super().focusNextPrevChild(next)
        hop.setFocus(Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason)
        return True

    def clear_form(self) -> None:
        self.forms_part.clear()

    # -- sending and the result line ---------------------------------------------------------
    def send(self) -> None:
        """Send the current form (Ctrl+Enter); while errors block it, show them in colour."""
        self.panel.send()

    def show_result(self, state: str, text: str, command: str | None = None) -> None:
        self.panel.show_result(state, text, command)

    def _background_failed(self, text: str, _tb: str) -> None:
        self.statusBar().showMessage(f"Something in the background failed: {text}", 15_000)

    # -- environment -------------------------------------------------------------------------
    def start_local_sandbox(self, **options: Any) -> None:
        """Start the built-in sandbox on a worker; the window is usable meanwhile."""
        self.environment.start_local_sandbox(**options)

    def wait_ready(self, msecs: int) -> bool:
        """Process events until an environment with a key is active (screenshots, tests)."""
        return self.environment.wait_ready(msecs)

    # -- theme, drafts, panes, layout, closing -----------------------------------------------
    def apply_theme(self, name: str) -> None:
        """Switch the theme, repaint what carries state colours, and remember it."""
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, name)
        self.panel.refresh_result()  # rich text made with the old theme's colours
        self.panel.update_send()
        self.drafts.theme = name
        if self.persist_drafts:
            self.drafts.save()

    def save_drafts(self) -> None:
        """Write every open form's draft (card number and CVV2 are dropped by the store) and
        where the docks are and how big."""
        if not self.persist_drafts:
            return
        self.forms_part.put_drafts()
        self.drafts.layout["window"] = layout.state_text(self)
        self.drafts.layout["shares"] = layout.shares_text(self)
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
        self.menus.view.addAction(action)
        return dock

    def restore_layout(self, panes: Sequence[QDockWidget] = ()) -> bool:
        """Put the docks where the person left them; see ``layout.restore``."""
        saved = self.drafts.layout
        return layout.restore(self, saved.get("window", ""), panes, saved.get("shares", ""))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        layout.follow_resize(self, self.inspector, self.panel.summary, event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.environment.closed = True
        self.save_drafts()
        if self._status is not None:
            self._status.stop()
        # The servers wind down together (each takes a few tenths of a second): the callback
        # listeners from here, the sandbox once the work that may still send to it is done;
        # the listeners have ended before the journal they write to is closed.
        if self._listeners is not None:
            self._listeners.ask_all_to_stop()
        if not self.tasks.shutdown(CLOSE_WAIT_MS):
            log.warning("closing: background work still running after %d ms", CLOSE_WAIT_MS)
        QCoreApplication.sendPostedEvents()  # deliver finished work (a started sandbox)
        self.session.ask_sandbox_to_stop()
        if self._listeners is not None:
            self._listeners.stop_all()
        self.journal_part.close()
        self.session.stop_sandbox()
        super().closeEvent(event)
