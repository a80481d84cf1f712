"""The main window: banner, command list, form, problems, Send, inspector dock."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
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
from console.core.spec import COMMANDS, example_values, validate
from console.ui import window_layout
from console.ui.banner import EnvironmentBanner
from console.ui.drafts import DraftStore
from console.ui.forms import make_form
from console.ui.forms.generator import CommandForm
from console.ui.forms.payout_form import PayoutForm
from console.ui.forms.sandbox_hints import hint_for
from console.ui.forms.validation_view import ProblemSummary
from console.ui.icons import app_icon, icon
from console.ui.inspector.dock import InspectorDock
from console.ui.inspector.response_tab import headline
from console.ui.menus import build_menus
from console.ui.sending import SendController
from console.ui.session import LaunchedSandbox, Session, launch_sandbox
from console.ui.startup import AfterFirstPaint
from console.ui.tasks import TaskRunner
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.client import Outcome, PreparedRequest
    from console.ui.history.wiring import JournalWiring

COMMAND_ORDER = ("payout-check", "create-card-ref", "create-recurring-payment", "status")
# Commands whose client order id names a new order (elsewhere it names an existing one).
NEW_ORDER_COMMANDS = frozenset({"payout-check", "create-recurring-payment"})


def request_label(prepared: PreparedRequest) -> str:
    """Which request a result belongs to: the command and its client order id."""
    params = dict(prepared.params)
    order = params.get("client_orderid") or params.get("client-orderid") or ""
    return f"{prepared.command} {order}".strip()


class LazyForms(Mapping[str, CommandForm]):
    """The command forms by name, each built on first access."""

    def __init__(self, names: list[str], build: Callable[[str], CommandForm]) -> None:
        self.names = names
        self._build = build
        self._built: dict[str, CommandForm] = {}

    def __getitem__(self, name: str) -> CommandForm:
        if name not in self.names:
            raise KeyError(name)
        if name not in self._built:
            self._built[name] = self._build(name)
        return self._built[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def built(self) -> list[CommandForm]:
        """Only the forms that exist already."""
        return list(self._built.values())


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
        self.tasks = TaskRunner(self)
        self.sender_ = SendController(session, self.tasks, self)
        self._closed = False
        self.persist_drafts = True  # off for --screenshot: an example must not become a draft
        self.actions_by_name: dict[str, QAction] = {}
        self.sandbox_defaults: dict[str, Any] = {}  # start_local_sandbox options (journal)
        self.example_overrides: dict[str, str] = {}  # example values the environment sets

        self.banner = EnvironmentBanner()
        self.commands = QTabBar()
        self.commands.setAccessibleName("Commands")
        self.commands.setExpanding(False)
        self.commands.setDocumentMode(True)
        self.stack = QStackedWidget()
        names = [n for n in COMMAND_ORDER if n in COMMANDS] + [
            n for n in COMMANDS if n not in COMMAND_ORDER
        ]
        self.forms = LazyForms(names, self._build_form)
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

        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setAccessibleName("Last outcome")
        self.use_in_payout_button = QPushButton("Use in payout")
        self.use_in_payout_button.setToolTip(
            "Open the payout form with this stored card reference filled in"
        )
        self.use_in_payout_button.setVisible(False)
        self.use_in_payout_button.clicked.connect(self._use_last_in_payout)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setVisible(False)
        self.busy.setAccessibleName("Sending")
        self.send_button = QPushButton(icon("send"), "Send")
        self.send_button.setObjectName("send")
        self.send_button.setToolTip("Send this request (Ctrl+Enter)")
        self.send_button.setDefault(True)
        self.send_button.setMinimumWidth(120)
        self.send_button.clicked.connect(self.send)

        bar = QHBoxLayout()
        bar.addWidget(self.result, 1)
        bar.addWidget(self.use_in_payout_button)
        bar.addWidget(self.busy)
        bar.addWidget(self.send_button)
        self.result_bar = bar  # other parts add their buttons here
        right = QWidget()
        rlay = QVBoxLayout(right)
        rlay.setContentsMargins(0, 0, 0, 0)
        rlay.addWidget(self.stack, 1)
        rlay.addWidget(self.summary)
        rlay.addLayout(bar)
        central = QWidget()
        clay = QVBoxLayout(central)
        clay.setContentsMargins(6, 6, 6, 6)
        clay.addWidget(self.banner)
        clay.addWidget(self.commands)
        clay.addWidget(right, 1)
        self.setCentralWidget(central)

        self.inspector = InspectorDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.inspector)
        build_menus(self)

        self.sender_.prepared.connect(self._prepared)
        self.sender_.started.connect(lambda: self._set_busy(True))
        self.sender_.finished.connect(self._finished)
        self.sender_.failed.connect(self._failed)
        self.sender_.cancelled.connect(lambda: self._show_result("", "Cancelled: nothing sent."))
        self.session.changed.connect(self._session_changed)
        self.commands.currentChanged.connect(self._switch)
        self._last_outcome: Outcome | None = None
        # Each command's last result line: an answer belongs under the form that sent it.
        self._results: dict[str, tuple[str, str]] = {}
        self._outcomes: dict[str, Outcome] = {}  # each command's last answer
        self._sending_command = ""
        self._session_changed()
        start = drafts.last_command if drafts.last_command in names else names[0]
        self.show_command(start)
        # The journal, history and callbacks panes, status checks, environment dialogs: none
        # of it is in the first picture, so it is attached right after the first paint (or
        # earlier, by the first use of ``journal``; sending and the sandbox use it first).
        self._journal: JournalWiring | None = None
        AfterFirstPaint(self, self.attach_journal)
        window_layout.fit_to_screen(self)
        self.restore_layout()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        window_layout.follow_resize(self, event)

    @property
    def journal(self) -> JournalWiring:
        """The journal wiring (see ``console.ui.history.wiring``), attached on first use."""
        return self.attach_journal()

    def attach_journal(self) -> JournalWiring:
        """Attach the journal, panes and dialogs once; later calls return the same wiring."""
        if self._journal is None:
            from console.ui.history.wiring import attach_journal

            self._journal = attach_journal(self)
        return self._journal

    # -- commands and forms ----------------------------------------------------------------
    def _build_form(self, name: str) -> CommandForm:
        """Create a form the first time it is needed (start-up builds only the first)."""
        form = make_form(COMMANDS[name])
        if isinstance(form, PayoutForm):
            form.set_placeholder(self.session.redirect_placeholder)
        form.set_hint(hint_for(name, self._environment_kind()))
        form.load(self.drafts.get(name))
        form.changed.connect(self._validate)
        index = self.forms.names.index(name)
        current = self.stack.currentIndex()
        old = self.stack.widget(index)
        self.stack.insertWidget(index, form)
        if old is not None:
            self.stack.removeWidget(old)
            old.deleteLater()
        self.stack.setCurrentIndex(current)  # replacing a page must not change the page shown
        return form

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
            self._switch(index)  # the tab bar does not signal a tab that is already current
        else:
            self.commands.setCurrentIndex(index)

    def _switch(self, row: int) -> None:
        if row < 0:
            return
        self.forms[self.forms.names[row]]
        self.stack.setCurrentIndex(row)
        self.drafts.last_command = self.command
        self._validate()
        self._render_result()

    def fill_example(self) -> None:
        """Fill the current form with the contract's realistic example (the status form:
        with the last payout of this environment, an order the gateway knows)."""
        if self.command == "status":
            self._fill_status_example()
            return
        values = example_values(self.command)
        values.update({k: v for k, v in self.example_overrides.items() if k in values})
        if self.command in NEW_ORDER_COMMANDS:
            # the example's fixed order id works once; a second send would be refused (202)
            from console.ui.forms.choices import new_client_orderid

            for name in ("client_orderid", "client-orderid"):
                if name in values:
                    values[name] = new_client_orderid()
        self.form.load(values, clear=True)

    def _fill_status_example(self) -> None:
        from console.ui.history.examples import SEND_A_PAYOUT_FIRST, last_payout, status_example

        env = self.session.environment
        row = None if env is None else last_payout(self.journal.history, env.name)
        if row is None:
            self.form.load(example_values("status"), clear=True)
            self._show_result("", SEND_A_PAYOUT_FIRST, "status")
            return
        values, words = status_example(row)
        self.form.load(values, clear=True)
        self._show_result("", words, "status")

    def clear_form(self) -> None:
        self.form.load({}, clear=True)

    def focus_field(self, name: str) -> None:
        self.form.focus_field(name)

    # -- validation --------------------------------------------------------------------
    def _validate(self) -> None:
        """Per keystroke: core rules -> field states, summary, Send enabled."""
        form = self.sender() if isinstance(self.sender(), CommandForm) else self.form
        assert isinstance(form, CommandForm)
        problems = validate(form.command.name, form.values())
        form.apply_problems(problems)
        self._draft_timer.start()
        if form is self.form:
            self.summary.set_problems(problems, form.is_pending)
            self._update_send()

    def _update_send(self) -> None:
        can = not self.sender_.sending and self.session.ready
        self.send_button.setEnabled(can and self.summary.errors == 0)
        action = self.actions_by_name.get("send")
        if action is not None:
            # The shortcut stays live on a blocked form: trying it shows what is missing.
            action.setEnabled(can)

    # -- sending -----------------------------------------------------------------------
    def send(self) -> None:
        """Send the current form (Ctrl+Enter); while errors block it, show them in colour."""
        if not self.send_button.isEnabled():
            if self.summary.errors and not self.sender_.sending:
                self.form.attempted = True  # what was calmly "required" is now a mistake
                self._validate()
                first = next((p for p in self.summary.problems if p.fields), None)
                if first is not None:
                    self.focus_field(first.fields[0])
            return
        self.attach_journal()  # every send is journalled: hooks in place before it leaves
        form = self.form
        receiver = form.receiver_summary() if isinstance(form, PayoutForm) else ""
        self.send_button.setEnabled(False)  # before anything else: no double send
        self._sending_command = self.command
        if not self.sender_.send(self.command, form.values(), receiver=receiver, window=self):
            self._update_send()

    def _prepared(self, prepared: PreparedRequest) -> None:
        self.inspector.show_prepared(prepared)
        self.inspector.setWindowTitle(f"Request inspector — {request_label(prepared)}")
        self.inspector.show()

    def _set_busy(self, busy: bool) -> None:
        self.busy.setVisible(busy)
        if busy:
            self._show_result(
                "busy",
                "Sending… the window stays usable; the answer appears here.",
                self._sending_command,
            )
        self._update_send()

    def _finished(self, outcome: Outcome) -> None:
        self._last_outcome = outcome
        self._outcomes[outcome.prepared.command] = outcome
        self._set_busy(False)
        self.inspector.show_outcome(outcome)
        state, words = headline(outcome)
        label = request_label(outcome.prepared)
        self._show_result(state, f"{label}: {words}. {outcome.summary}", outcome.prepared.command)

    def _failed(self, text: str) -> None:
        self._set_busy(False)
        self._show_result("error", text, self._sending_command or None)
        if self.inspector.prepared is None or self.inspector.prepared.signed is not None:
            self.inspector.show_failure(text)

    def _show_result(self, state: str, text: str, command: str | None = None) -> None:
        """Set the result line of ``command`` (default: the form shown) and show it."""
        self._results[command or self.command] = (state, text)
        self._render_result()

    def _render_result(self) -> None:
        """The shown form's own result line, and a note while another form's request is out."""
        state, text = self._results.get(self.command, ("", ""))
        if self.sender_.sending and self._sending_command != self.command:
            title = COMMANDS[self._sending_command].title
            state, text = "busy", f"Sending {title}… its answer appears under its own form."
        colour = state_colour(state or "required", self.palette()).name()
        self.result.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")
        self.use_in_payout_button.setVisible(
            self.command == "create-card-ref"
            and bool(self._card_reference())
            and not (self.sender_.sending and self._sending_command == self.command)
        )

    def _card_reference(self) -> str:
        """The recurring payment id of the last accepted create-card-ref, if any."""
        outcome = self._outcomes.get("create-card-ref")
        if outcome is None or outcome.response is None or outcome.result != "accepted":
            return ""
        return outcome.response.get("recurring-payment-id") or ""

    def _use_last_in_payout(self) -> None:
        rpi = self._card_reference()
        if rpi:
            self.use_in_payout(rpi)

    def use_in_payout(self, recurring_payment_id: str) -> None:
        """Open the payout form with a stored card reference as the receiver."""
        form = self.forms["payout-check"]
        form.load({"@receiver": "card-ref", "card_recurring_payment_id": recurring_payment_id})
        self.show_command("payout-check")
        form.focus_field("amount")

    # -- environment and panes ---------------------------------------------------------------
    def _session_changed(self) -> None:
        env = self.session.environment
        self.banner.show_environment(env, self.session.problem)
        title = APP_NAME if env is None else f"{APP_NAME} — {env.name}"
        self.setWindowTitle(title + (" — PRODUCTION" if self.session.is_production else ""))
        for form in self.forms.built():
            if isinstance(form, PayoutForm):
                form.set_placeholder(self.session.redirect_placeholder)
            form.set_hint(hint_for(form.command.name, self._environment_kind()))
        self._update_send()

    def _environment_kind(self) -> str | None:
        env = self.session.environment
        return None if env is None else str(env.kind)

    def save_drafts(self) -> None:
        """Write every open form's draft (card number and CVV2 are dropped by the store) and
        where the docks are and how big."""
        if not self.persist_drafts:
            return
        for form in self.forms.built():
            self.drafts.put(form.command.name, form.draft())
        self.drafts.layout["window"] = window_layout.state_text(self)
        self.drafts.save()

    def start_local_sandbox(self, **options: Any) -> None:
        """Start the built-in sandbox on a worker; the window is usable meanwhile."""
        self.banner.show_starting()
        self.attach_journal()  # it sets the sandbox's defaults (the listener's control)
        options = {**self.sandbox_defaults, **options}
        self.tasks.run(
            lambda: launch_sandbox(**options),
            self._sandbox_started,
            lambda exc, _tb: self._show_result(
                "warning", f"The local sandbox could not start: {exc}"
            ),
        )

    def _sandbox_started(self, launched: object) -> None:
        assert isinstance(launched, LaunchedSandbox)
        if self._closed:  # closed while it was starting: do not leave it running
            launched.handle.stop()
            return
        self.session.adopt_sandbox(launched)

    def wait_ready(self, msecs: int) -> bool:
        """Process events until an environment with a key is active (screenshots, tests)."""
        deadline = time.monotonic() + msecs / 1000
        app = QCoreApplication.instance()
        while not self.session.ready and time.monotonic() < deadline and app is not None:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.005)
        return self.session.ready

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
