"""Connect the journal, the history and callbacks panes, status checks and the environment
dialogs to the main window.

What it does to the window (all through its public hooks):

* every send is journalled: ``window.sender_.journal`` is the journal the pipeline writes (this
  computer's, or the team's in team mode), so a "pending" row is committed before anything
  leaves;
* the history pane docks at the bottom (View menu, Ctrl+H), the callbacks list beside it
  (Ctrl+Shift+H);
* the Environment menu gets the environment manager and the key dialog;
* after a payout, "Check status" and "Follow this order" appear next to its result, under
  the payout form only (another form's result line is not about that order);
* the local sandbox calls back into a listener of this window, with a control secret of its
  own, and its example payouts point their callback address there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QPushButton

from console.core.order_facts import ORDER_ID_FIELDS, answer_order_id, client_orderid
from console.core.paths import AppPaths, resolve
from console.ui.callback_listeners import CallbackListeners
from console.ui.callbacks_view import CallbacksView, recent_callbacks
from console.ui.history.bridge import JournalBridge
from console.ui.history.pane import HistoryPane
from console.ui.secrets_access import SecretsAccess
from console.ui.status_follow import Follow, OrderRef, StatusController

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.environments import Environment
    from console.core.history import History, HistoryDetail, HistoryRow
    from console.core.journals import JournalStore
    from console.ui.window.host import ConsoleWindow

REPEAT_NOTE = (
    "Loaded as a new request with a fresh client_orderid. Card number and CVV2 are never "
    "stored: type them again before sending."
)


class JournalWiring(QObject):
    """Everything the journal issue adds to one main window (see the module docstring)."""

    def __init__(
        self,
        window: ConsoleWindow,
        history: History,
        journal: JournalStore | None = None,
        paths: AppPaths | None = None,
    ) -> None:
        super().__init__(window.widget)
        self.window = window
        self.paths = paths or resolve()
        self.history = history  # this computer's: its callbacks
        # where sends are written and looked up: the history, or the team's shared journal
        self.journal: JournalStore = journal if journal is not None else history
        self.bridge = JournalBridge(self.journal, self)
        self.secrets = SecretsAccess(self.paths)
        self.listeners = CallbackListeners(self.history, self.bridge, self, journal=self.journal)
        self.secrets.local_control = self.listeners.local_control
        window.environment.sandbox_defaults.setdefault(
            "merchant_control", self.listeners.local_control
        )

        self.pane = HistoryPane(self.journal, window.tasks)
        self.history_dock = window.add_pane(
            self.pane, "History", Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+H"
        )
        self.callbacks = CallbacksView(self.listeners, self._active_name, self._toggle_listener)
        self.callbacks_dock = window.add_pane(
            self.callbacks, "Callbacks", Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+Shift+H"
        )
        docks = (self.history_dock, self.callbacks_dock)
        if not window.restore_layout(docks):
            window.widget.tabifyDockWidget(self.history_dock, self.callbacks_dock)
            self.history_dock.raise_()
            for dock in docks:
                dock.hide()  # the form keeps the room until the person asks for the history
            self._sized = False
            for dock in docks:
                dock.visibilityChanged.connect(lambda on, d=dock: self._first_shown(d, on))
        self.status = StatusController(
            self.journal, self.secrets.connection, self, tasks=window.tasks
        )

        self.bridge.row_added.connect(self.pane.row_added)
        self.bridge.row_changed.connect(self.pane.row_changed)
        self.bridge.row_changed.connect(self._final_status_arrived)
        self.bridge.journal_failed.connect(self._journal_failed)
        self.bridge.callback.connect(self.callbacks.add)
        self.pane.use_in_payout.connect(self.use_in_payout)
        self.pane.repeat_as_new.connect(self.repeat_as_new)
        self.pane.check_status.connect(lambda row: self.status.check(_order_of(row)))
        self.pane.follow.connect(lambda row: self.status.follow(_order_of(row)))
        self.status.checked.connect(self._status_checked)
        self.status.follow_started.connect(self._follow_started)
        self.pane.read(lambda: recent_callbacks(self.history), self._callbacks_loaded)

        self._add_actions()
        self._last_order: OrderRef | None = None
        self._listener_choice: dict[str, bool] = {}  # on/off by the person, this session
        self._reading: set[str] = set()  # environments whose control secret is being read
        window.sender_.finished.connect(self._sent)
        window.sender_.started.connect(self._show_order_buttons)
        window.sender_.failed.connect(lambda _text: self._payout_result_replaced())
        window.sender_.cancelled.connect(self._payout_result_replaced)
        window.forms_part.shown.connect(lambda _name: self._show_order_buttons())
        window.session.changed.connect(self._session_changed)
        self._session_changed()

    # -- window pieces -------------------------------------------------------------------------
    def _add_actions(self) -> None:
        w = self.window
        from console.ui.environment_actions import open_environments, open_keys

        for name, text, keys, slot in (
            ("environments", "&Manage environments…", "Ctrl+Shift+E", open_environments),
            ("keys", "&Keys…", "Ctrl+Shift+K", open_keys),
        ):
            action = QAction(text, w.widget)
            action.setObjectName(f"action:{name}")
            action.setShortcut(QKeySequence(keys))
            action.triggered.connect(lambda _c=False, s=slot: s(self))
            w.widget.addAction(action)
            w.actions_by_name[name] = action
            w.environment_menu.addAction(action)
        self.check_button = QPushButton("Check status")
        self.check_button.setToolTip("Ask the gateway for this order's status (field notes)")
        self.check_button.clicked.connect(self.check_last)
        self.follow_button = QPushButton("Follow this order")
        self.follow_button.setToolTip(
            "Check the status every few seconds, then every few minutes, for up to an hour "
            "(field notes' polling plan); stops by itself at a final status"
        )
        self.follow_button.clicked.connect(self.follow_last)
        for button in (self.check_button, self.follow_button):
            button.setVisible(False)
            w.panel.add_button(button)

    def _first_shown(self, dock: QDockWidget, visible: bool) -> None:
        """The first time ever: about a third of the window's height (then it is the
        person's to drag, and remembered with the window's layout)."""
        if visible and not self._sized:
            self._sized = True
            # once the dock has its place (shown, not yet laid out, when this is called)
            QTimer.singleShot(0, lambda: self._size_dock(dock))

    def _size_dock(self, dock: QDockWidget) -> None:
        w = self.window
        w.widget.resizeDocks([dock], [w.widget.height() * 35 // 100], Qt.Orientation.Vertical)

    def _active_name(self) -> str | None:
        env = self.window.session.environment
        return env.name if env is not None else None

    def _journal_failed(self, row_id: int) -> None:
        self.window.show_result(
            "warning",
            f"The answer could not be written to the history (row {row_id} stays "
            "'outcome unknown'). The answer shown here is what the gateway said.",
        )

    def _callbacks_loaded(self, events: object) -> None:
        assert isinstance(events, list)
        self.callbacks.load(events)

    # -- environment -----------------------------------------------------------------------
    def _session_changed(self) -> None:
        session = self.window.session
        env = session.environment
        self.window.sender_.journal = self.journal
        if env is None:
            return
        for name in list(self.listeners.listeners):
            if name != env.name:
                self.listeners.stop(name)
        wanted = self._listener_choice.get(env.name, env.builtin or env.callback.enabled)
        running = env.name in self.listeners.listeners
        if env.builtin:
            self.secrets.remember_local(env, session.private_key)
            if env.base_url and wanted and not running:
                self.listeners.start_local(env)
        elif wanted and not running:
            self._start_listener(env.name)
        url = self.listeners.url(env.name)
        forms = self.window.forms_part
        forms.listener_url = url or ""
        # Only the local sandbox gets its examples pointed here: a real gateway cannot
        # reach this computer unless the person says so in the callback settings.
        forms.example_overrides = (
            {"@callback": "listener", "server_callback_url": "", "notify_url": ""}
            if env.builtin and url
            else {}
        )
        self.callbacks.refresh_listener()
        forms.validate()  # a callback address on this computer may have lost its listener

    def _start_listener(self, name: str) -> None:
        """Start the listener once its control secret is read from the keyring (a worker)."""
        if name in self._reading:
            return
        self._reading.add(name)

        def read() -> tuple[Environment, str | None]:
            return self.secrets.store().get(name), self.secrets.vault().merchant_control(name)

        def got(found: tuple[Environment, str | None]) -> None:
            self._reading.discard(name)
            active = self.window.session.environment
            if active is not None and active.name == name and name not in self.listeners.listeners:
                self.listeners.start(*found)
                self._session_changed()  # the forms learn the listener's address

        def failed(exc: BaseException, _tb: str) -> None:  # no keyring or unknown environment
            self._reading.discard(name)
            self.listeners.problem.emit(f"The callback listener did not start: {exc}")

        self.window.tasks.run(read, got, failed, owner=self)

    def _toggle_listener(self, on: bool) -> None:
        env = self.window.session.environment
        if env is None:
            return
        self._listener_choice[env.name] = on
        if not on:
            self.listeners.stop(env.name)
        self._session_changed()  # starts it when on

    # -- after a send ----------------------------------------------------------------------
    def _sent(self, outcome: Outcome) -> None:
        env = self.window.session.environment
        order = None
        if (
            env is not None
            and outcome.prepared.command == "payout-check"
            and outcome.response is not None
        ):
            order_id = client_orderid(outcome.prepared.params)
            if order_id:
                order = OrderRef(env.name, order_id, answer_order_id(outcome.response.fields))
        # an unknown outcome is exactly when the status must be checked before resending
        if order is None and env is not None and outcome.prepared.command == "payout-check":
            order_id = client_orderid(outcome.prepared.params)
            if order_id and str(outcome.result) == "unknown":
                order = OrderRef(env.name, order_id)
        if outcome.prepared.command == "payout-check":
            self._last_order = order
        self._show_order_buttons()

    def _final_status_arrived(self, row_id: int) -> None:
        """The payout form's result line follows its order to the final status, whichever
        way it comes (a callback or a status answer), as the history does."""
        order = self._last_order
        if order is None:
            return
        try:
            row = self.journal.get(row_id)
        except (LookupError, OSError, ValueError):
            return
        if (
            row.command != "payout-check"
            or row.environment != order.environment
            or row.client_orderid != order.client_orderid
            or not row.final_status
        ):
            return
        state = {"approved": "fine", "processing": "busy"}.get(row.final_status, "error")
        how = {"callback": " (callback)", "status": " (status check)"}.get(
            row.final_status_source or "", ""
        )
        self.window.show_result(
            state,
            f"payout-check {row.client_orderid}: final status <b>{row.final_status}</b>{how}.",
            "payout-check",
        )

    def _payout_result_replaced(self) -> None:
        """A failed or cancelled payout's line no longer speaks of the last order."""
        if self.window.command == "payout-check":
            self._last_order = None
        self._show_order_buttons()

    def _show_order_buttons(self) -> None:
        """The buttons stand beside the payout's own result: payout form, no payout going."""
        w = self.window
        shown = (
            self._last_order is not None
            and w.command == "payout-check"
            and w.panel.sending_command != "payout-check"
        )
        for button in (self.check_button, self.follow_button):
            button.setVisible(shown)

    def check_last(self) -> None:
        if self._last_order is not None:
            self.status.check(self._last_order)

    def follow_last(self) -> Follow | None:
        return self.status.follow(self._last_order) if self._last_order else None

    def _status_checked(self, order: OrderRef, state: str, words: str) -> None:
        self.window.show_result(state, f"Order {order.client_orderid}: {words}")
        self.pane.show_message(state, f"Order {order.client_orderid}: {words}")

    def _follow_started(self, follow: Follow) -> None:
        bar = self.window.statusBar()
        bar.addPermanentWidget(follow.strip)
        bar.show()
        follow.strip.show()

    # -- from the history --------------------------------------------------------------------
    def use_in_payout(self, row: HistoryRow) -> None:
        """A card reference's RPI as a stored card; a recurring profile's id as an RPI."""
        rpi = row.recurring_payment_id or ""
        if row.command == "create-recurring-payment":
            form = self.window.forms["payout-check"]
            form.load({"@receiver": "rpi", "recurring-payment-id": rpi})
            self.window.show_command("payout-check")
            form.focus_field("amount")
        else:
            self.window.use_in_payout(rpi)
        self.window.widget.raise_()

    def repeat_as_new(self, detail: HistoryDetail) -> None:
        """The stored request in its form again, with a fresh client_orderid."""
        from console.core.masking import is_sensitive
        from console.ui.forms.choices import new_client_orderid

        command = detail.row.command
        if command not in self.window.forms:
            return
        values = {
            str(n): str(v) for n, v in detail.request.get("params", []) if not is_sensitive(n)
        }
        for name in ORDER_ID_FIELDS:
            if name in values:
                values[name] = new_client_orderid()
        self.window.forms[command].load(values, clear=True)
        self.window.show_command(command)
        self.window.show_result("warning", REPEAT_NOTE)

    # -- shutdown ----------------------------------------------------------------------------
    def stop(self) -> None:
        """The window is closing: stop following orders and listening for callbacks."""
        self.status.cancel_all()
        self.listeners.stop_all()

    def close(self) -> None:
        """After the background work has finished: let go of the journals."""
        self.bridge.detach()
        if self.journal is not self.history:
            self.journal.close()  # the team database connection


def _order_of(row: HistoryRow) -> OrderRef:
    return OrderRef(row.environment, row.client_orderid or "", row.gateway_order_id)
