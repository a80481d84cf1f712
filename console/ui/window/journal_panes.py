"""The journal's panes, docked at the bottom of the window once the journal is open: the
History (every request sent; View menu, Ctrl+H) and the Callbacks list beside it
(Ctrl+Shift+H), with the active environment's listener. The journal bridge keeps them current.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMainWindow

from console.ui.callbacks_view import CallbacksView, recent_callbacks
from console.ui.history.pane import HistoryPane

if TYPE_CHECKING:
    from console.core.history import HistoryDetail, HistoryRow
    from console.core.order_facts import OrderRef
    from console.ui.callback_listeners import CallbackListeners
    from console.ui.history.bridge import JournalBridge
    from console.ui.tasks import TaskManager
    from console.ui.window.forms_part import FormsPart
    from console.ui.window.journal_part import Journals
    from console.ui.window.layout import AddPane

BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
REPEAT_NOTE = (
    "Loaded as a new request with a fresh client_orderid. Card number and CVV2 are never "
    "stored: type them again before sending."
)


class JournalPanes(QObject):
    """The History pane (:attr:`pane`) and the Callbacks list (:attr:`callbacks`); a row's
    "Use in payout" and "Repeat as new" fill the forms.

    Signals:
        warning(str): for the result line (an answer the journal could not store, a
            repeated request's card data to type again).
    """

    warning = Signal(str)

    def __init__(
        self,
        journals: Journals,
        bridge: JournalBridge,
        listeners: CallbackListeners,
        forms: FormsPart,
        tasks: TaskManager,
        add_pane: AddPane,
        window: QMainWindow,
    ) -> None:
        super().__init__(window)
        self.forms = forms
        self.window = window
        self.history = journals.history  # this computer's: its callbacks
        self.journal = journals.sends  # where sends are written: in team mode the team's
        self.pane = HistoryPane(self.journal, tasks)
        self.callbacks = CallbacksView(listeners)
        self.history_dock = add_pane(self.pane, "History", BOTTOM, "Ctrl+H")
        self.callbacks_dock = add_pane(self.callbacks, "Callbacks", BOTTOM, "Ctrl+Shift+H")
        self.docks = (self.history_dock, self.callbacks_dock)
        bridge.row_added.connect(self.pane.row_added)
        bridge.row_changed.connect(self.pane.row_changed)
        bridge.journal_failed.connect(self._journal_failed)
        bridge.callback.connect(self.callbacks.add)
        self.pane.use_in_payout.connect(self._use_in_payout)
        self.pane.repeat_as_new.connect(self._repeat_as_new)
        self.pane.read(lambda: recent_callbacks(self.history), self._callbacks_loaded)

    def _use_in_payout(self, row: HistoryRow) -> None:
        """A card reference's RPI as a stored card; a recurring profile's id as an RPI."""
        profile = row.command == "create-recurring-payment"
        self.forms.use_in_payout(row.recurring_payment_id or "", profile=profile)
        self.window.raise_()

    def _repeat_as_new(self, detail: HistoryDetail) -> None:
        """The stored request in its form again, with a fresh client_orderid."""
        if self.forms.repeat(detail):
            self.warning.emit(REPEAT_NOTE)

    def status_checked(self, order: OrderRef, state: str, words: str) -> None:
        """A status answer, said in the History pane too."""
        self.pane.show_message(state, f"Order {order.client_orderid}: {words}")

    def _journal_failed(self, row_id: int) -> None:
        self.warning.emit(
            f"The answer could not be written to the history (row {row_id} stays "
            "'outcome unknown'). The answer shown here is what the gateway said."
        )

    def _callbacks_loaded(self, events: object) -> None:
        assert isinstance(events, list)
        self.callbacks.load(events)
