"""The status of the last payout's order, beside its result: "Check status" and "Follow this
order" under the payout form (another form's result line is not about that order), its final
status on the result line whichever way it arrives (a callback or a status answer), as the
history shows it, and a strip in the status bar for each order followed. Every status check
of the window (the guard row's question, the history pane) goes through :attr:`controller`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMainWindow, QPushButton

from console.core.order_facts import OrderRef, answer_order_id, client_orderid
from console.ui.status_follow import Follow, StatusController, order_of

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.environments import Connection
    from console.core.history import HistoryRow
    from console.core.journals import JournalStore
    from console.ui.session import Session
    from console.ui.tasks import TaskManager
    from console.ui.window.forms_part import FormsPart
    from console.ui.window.send_panel import SendPanel

PAYOUT = "payout-check"
FINAL_STATES = {"approved": "fine", "processing": "busy"}  # any other final status: error
SOURCES = {"callback": " (callback)", "status": " (status check)"}


class StatusPart(QObject):
    """Checks and follows orders; the last payout's order beside its result line."""

    def __init__(
        self,
        journal: JournalStore,
        connection_for: Callable[[str], Connection],
        session: Session,
        forms: FormsPart,
        panel: SendPanel,
        tasks: TaskManager,
        window: QMainWindow,
    ) -> None:
        super().__init__(window)
        self.journal = journal
        self.session = session
        self.forms = forms
        self.panel = panel
        self.window = window
        self.controller = StatusController(journal, connection_for, self, tasks=tasks)
        self.controller.checked.connect(self._checked)
        self.controller.follow_started.connect(self._follow_started)
        self.last_order: OrderRef | None = None
        self.asked_here: OrderRef | None = None  # the resend question's Check status
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
            panel.add_button(button)
        forms.shown.connect(lambda _name: self.show_order_buttons())
        session.changed.connect(self.environment_changed)

    def _active(self) -> str | None:
        env = self.session.environment
        return env.name if env is not None else None

    def environment_changed(self) -> None:
        """An order of the environment left behind is not offered under another one (the
        core's rule, ``OrderRef.belongs_to``): its buttons go with it."""
        if self.last_order is not None and not self.last_order.belongs_to(self._active()):
            self.last_order = None
        if self.asked_here is not None and not self.asked_here.belongs_to(self._active()):
            self.asked_here = None
        self.show_order_buttons()

    def check_row(self, row: HistoryRow) -> None:
        """Ask once about a history row's order, in the background."""
        self.controller.check(order_of(row))

    def follow_row(self, row: HistoryRow) -> None:
        self.controller.follow(order_of(row))

    def check_id(self, client_orderid: str, gateway_order_id: str | None) -> None:
        """The "Check status" offered before resending after an unknown outcome."""
        env = self.session.environment
        if env is None:
            return
        self.panel.show_result("busy", f"Checking the status of {client_orderid}…")
        self.asked_here = OrderRef(env.name, client_orderid, gateway_order_id)
        self.controller.check(self.asked_here)

    def _own_order(self) -> OrderRef | None:
        """The last payout's order, while it is one of the active environment's."""
        order = self.last_order
        return order if order is not None and order.belongs_to(self._active()) else None

    def check_last(self) -> None:
        order = self._own_order()
        if order is not None:
            self.controller.check(order)

    def follow_last(self) -> Follow | None:
        order = self._own_order()
        return self.controller.follow(order) if order is not None else None

    # -- the sender's news ---------------------------------------------------------------------
    def sent(self, outcome: Outcome) -> None:
        """A payout's answer names its order; an unknown outcome is exactly when the status
        must be checked before resending."""
        prepared = outcome.prepared
        if prepared.command != PAYOUT:
            self.show_order_buttons()
            return
        env = self.session.environment
        order_id = client_orderid(prepared.params)
        order = None
        if env is not None and order_id and outcome.response is not None:
            order = OrderRef(env.name, order_id, answer_order_id(outcome.response.fields))
        elif env is not None and order_id and str(outcome.result) == "unknown":
            order = OrderRef(env.name, order_id)
        self.last_order = order
        self.show_order_buttons()

    def result_replaced(self) -> None:
        """A failed or cancelled payout's line no longer speaks of the last order."""
        if self.forms.command == PAYOUT:
            self.last_order = None
        self.show_order_buttons()

    def show_order_buttons(self) -> None:
        """The buttons stand beside the payout's own result: payout form, no payout going."""
        shown = (
            self._own_order() is not None
            and self.forms.command == PAYOUT
            and self.panel.sending_command != PAYOUT
        )
        for button in (self.check_button, self.follow_button):
            button.setVisible(shown)

    def final_status_arrived(self, row_id: int) -> None:
        """The payout form's result line follows its order to the final status, whichever
        way it comes (a callback or a status answer), as the history does."""
        order = self._own_order()
        if order is None:
            return
        try:
            row = self.journal.get(row_id)
        except (LookupError, OSError, ValueError):
            return
        if (
            row.command != PAYOUT
            or row.environment != order.environment
            or row.client_orderid != order.client_orderid
            or not row.final_status
        ):
            return
        how = SOURCES.get(row.final_status_source or "", "")
        self.panel.show_result(
            FINAL_STATES.get(row.final_status, "error"),
            f"final status <b>{row.final_status}</b>{how}.",
            PAYOUT,
            lead=f"{PAYOUT} {row.client_orderid}:",
            order=row.client_orderid,
        )

    # -- the controller's news -----------------------------------------------------------------
    def _checked(self, order: OrderRef, state: str, words: str) -> None:
        # under the payout form, whose order it is, never under another form that happens
        # to be shown (the History pane says it too)
        # Only news of the payout form's own order goes on its line, beside the "Already
        # sent" line about that same order: another order's answer (from the History pane,
        # or another environment's, asked before a switch) goes to the status bar.
        own = self._own_order()
        mine = order == self.asked_here or (
            own is not None and own.client_orderid == order.client_orderid
        )
        if not mine or not order.belongs_to(self._active()):
            where = "" if order.belongs_to(self._active()) else f" ({order.environment})"
            self.window.statusBar().showMessage(
                f"Order {order.client_orderid}{where}: {words}", 15_000
            )
            return
        self.panel.show_result(
            state, words, PAYOUT, lead=f"Order {order.client_orderid}:", order=order.client_orderid
        )

    def _follow_started(self, follow: Follow) -> None:
        bar = self.window.statusBar()
        bar.addPermanentWidget(follow.strip)
        bar.show()
        follow.strip.show()

    def stop(self) -> None:
        """The window is closing: stop following orders."""
        self.controller.cancel_all()
