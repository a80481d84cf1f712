"""The main window: assembles the parts of ``console.ui.window`` (the forms, the send panel
under them, the journal, the active environment), the banner, the request inspector and the
menus, and runs all background work through one task manager. The parts own their widgets
and state; this class connects them and offers what panes, dialogs and tests call (the
:class:`~console.ui.window.host.ConsoleWindow` protocol)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QMenu,
    QVBoxLayout,
    QWidget,
)

from console import APP_NAME
from console.ui.banner import EnvironmentBanner
from console.ui.drafts import DraftStore
from console.ui.icons import app_icon
from console.ui.inspector.dock import InspectorDock
from console.ui.menus import build_menus
from console.ui.sending import SendController
from console.ui.session import Session
from console.ui.startup import AfterFirstPaint
from console.ui.tasks import TaskManager
from console.ui.theme import apply_theme
from console.ui.window import layout
from console.ui.window.environment_part import EnvironmentPart
from console.ui.window.forms_part import FormsPart, LazyForms
from console.ui.window.journal_part import JournalPart, Journals
from console.ui.window.send_panel import SendPanel

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.ui.forms.generator import CommandForm
    from console.ui.history.wiring import JournalWiring

log = logging.getLogger(__name__)

CLOSE_WAIT_MS = 10_000  # closing waits at most this long for background work, in all


class MainWindow(QMainWindow):
    """One window for every command. Other panes dock in through :meth:`add_pane`."""

    view_menu: QMenu  # set by build_menus; add_pane lists panes here
    environment_menu: QMenu  # environment manager and key dialogs go here

    def __init__(self, session: Session, drafts: DraftStore, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(APP_NAME)
        self.setWindowIcon(app_icon())
        self.setObjectName("main-window")
        self.session = session
        self.drafts = drafts
        self.persist_drafts = True  # off for --screenshot: an example must not become a draft
        self.actions_by_name: dict[str, QAction] = {}
        self.tasks = TaskManager(self)
        self._wiring: JournalWiring | None = None  # the journal's panes, once attached
        self.tasks.failed.connect(self._background_failed)
        self.sender_ = SendController(session, self.tasks, self)

        self.banner = EnvironmentBanner()
        self.inspector = InspectorDock(self)
        self.forms_part = FormsPart(session, drafts)
        self.forms_part.drafts_due.connect(self.save_drafts)
        # The journal, history and callbacks panes, status checks, environment dialogs: none
        # of it is in the first picture. The journal is opened on a worker right after the
        # first paint and attached when open; sending waits for it.
        self.journal_part = JournalPart(self.tasks, self._attach_journal, self._insert_notice, self)
        self.panel = SendPanel(
            session, self.forms_part, self.sender_, self.inspector, self.journal_part, self.tasks
        )
        self.panel.use_in_payout.connect(self.use_in_payout)
        self.panel.guard.new_id_requested.connect(self.forms_part.new_order_id)
        self.sender_.check_status.connect(self._check_status)
        self.environment = EnvironmentPart(
            session, self.banner, self.forms_part, self.panel, self.journal_part, self.tasks, self
        )
        self.environment.title_changed.connect(self.setWindowTitle)
        self.environment.problem.connect(lambda text: self.show_result("warning", text))

        central = QWidget()
        self._top = QVBoxLayout(central)
        self._top.setContentsMargins(6, 6, 6, 6)
        self._top.addWidget(self.banner)
        self._top.addWidget(self.forms_part, 1)
        self._top.addWidget(self.panel)
        self.setCentralWidget(central)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.inspector)
        build_menus(self)
        self.panel.can_send_changed.connect(self.actions_by_name["send"].setEnabled)

        self.environment.session_changed()
        names = self.forms_part.forms.names
        self.show_command(drafts.last_command if drafts.last_command in names else names[0])
        AfterFirstPaint(self, self.journal_part.open_in_background)
        layout.fit_to_screen(self, self.inspector)
        self.restore_layout()

    # -- the parts, for panes, dialogs and tests ---------------------------------------------
    @property
    def widget(self) -> QMainWindow:
        return self

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

    @property
    def journal(self) -> JournalWiring:
        """The journal wiring (see ``console.ui.history.wiring``), attached on first use.
        Raises JournalUnavailableError when the journal cannot be opened."""
        wiring = self.attach_journal()
        if wiring is None:
            assert self.journal_part.problem is not None
            raise self.journal_part.problem
        return wiring

    def attach_journal(self) -> JournalWiring | None:
        """The journal wiring once attached (waits for an opening under way); None when the
        journal is unavailable."""
        self.journal_part.attach()
        return self._wiring

    def _attach_journal(self, journals: Journals) -> JournalWiring:
        from console.ui.history.wiring import JournalWiring

        self._wiring = JournalWiring(self, journals.history, journals.sends)
        return self._wiring

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
        from console.core.spec import example_values
        from console.ui.history.examples import SEND_A_PAYOUT_FIRST, last_payout, status_example

        env = self.session.environment
        wiring = self.attach_journal()
        row = None if env is None or wiring is None else last_payout(wiring.journal, env.name)
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
        hop = self._tab_hop(QApplication.focusWidget(), next)
        if hop is None:
            return super().focusNextPrevChild(next)
        hop.setFocus(Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason)
        return True

    def _tab_hop(self, current: QWidget | None, forward: bool) -> QWidget | None:
        if current is None:
            return None
        tabs, send = self.forms_part.tabs, self.panel.send_button
        if current is not tabs and current is not send and not self.form.isAncestorOf(current):
            return None
        stops = [w for w in self.form.focus_ring() if w.isVisible() and w.isEnabled()]
        if not stops:
            return None
        if forward and current is tabs:
            return stops[0]
        if not forward and current is stops[0]:
            return tabs
        if forward and current is stops[-1]:
            problems = self.panel.summary.list
            if send.isEnabled():
                return send
            return problems if problems.isVisible() and problems.count() else tabs
        if not forward and current is send:
            return stops[-1]
        return None

    def clear_form(self) -> None:
        self.forms_part.clear()

    def focus_field(self, name: str) -> None:
        self.forms_part.focus_field(name)

    def use_in_payout(self, recurring_payment_id: str) -> None:
        """Open the payout form with a stored card reference as the receiver."""
        form = self.forms["payout-check"]
        form.load({"@receiver": "card-ref", "card_recurring_payment_id": recurring_payment_id})
        self.show_command("payout-check")
        form.focus_field("amount")

    # -- sending and the result line ---------------------------------------------------------
    def send(self) -> None:
        """Send the current form (Ctrl+Enter); while errors block it, show them in colour."""
        self.panel.send()

    def show_result(self, state: str, text: str, command: str | None = None) -> None:
        self.panel.show_result(state, text, command)

    def _check_status(self, client_orderid: str, gateway_order_id: str | None) -> None:
        from console.ui.status_follow import OrderRef

        env = self.session.environment
        if env is None:
            return
        self.show_result("busy", f"Checking the status of {client_orderid}…")
        self.journal.status.check(OrderRef(env.name, client_orderid, gateway_order_id))

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
        """Put the docks where the person left them; see ``layout.restore``."""
        return layout.restore(self, self.drafts.layout.get("window", ""), panes)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        layout.follow_resize(self, self.inspector, self.panel.summary, event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.environment.closed = True
        self.save_drafts()
        wiring = self._wiring
        if wiring is not None:
            wiring.stop()
        if not self.tasks.shutdown(CLOSE_WAIT_MS):
            log.warning("closing: background work still running after %d ms", CLOSE_WAIT_MS)
        QCoreApplication.sendPostedEvents()  # deliver finished work (a started sandbox)
        if wiring is not None:
            wiring.close()
        self.session.stop_sandbox()
        super().closeEvent(event)
