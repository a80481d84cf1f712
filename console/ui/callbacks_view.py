"""The callbacks pane: every callback received, its ``control`` check, and the listener.

Callbacks and their check come from the field notes (the contract leaves them "not
shown"): ``control`` is the SHA-1 of status, orderid, client_orderid and the merchant
control secret. Only a callback whose ``control`` checked out changes a final status; the
others (mismatch, missing, unverified, malformed, ids of different requests) are flagged; a
repeat of an earlier callback is marked as such.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from console.core.history import CallbackEvent, CheckResult
from console.ui.history.model import local_time
from console.ui.icons import icon
from console.ui.inspector.widgets import pairs_table
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.history import History
    from console.ui.callback_listeners import CallbackListeners

HEADINGS = ("Received", "Environment", "Status", "Client order id", "Order id", "Row", "Check")
CHECK_WORDS = {
    CheckResult.OK: ("fine", "control ok"),
    CheckResult.UNVERIFIED: (
        "required",
        "unverified (no merchant control secret set): not applied",
    ),
    CheckResult.MISMATCH: ("error", "control MISMATCH: not trusted"),
    CheckResult.MISSING: ("error", "control missing: not trusted"),
    CheckResult.MALFORMED: ("error", "malformed (repeated parameter or orderid not digits)"),
    CheckResult.INCOMPLETE: (
        "error",
        "incomplete: status, orderid or client_orderid missing; not applied",
    ),
    CheckResult.BAD_STATUS: ("error", "status is not a transaction status value: not applied"),
    CheckResult.UNMATCHED: ("error", "orderid and client_orderid name different requests"),
}
SHOWN = 1000  # newest callbacks kept in the list


def recent_callbacks(history: History, limit: int = SHOWN) -> list[CallbackEvent]:
    """The newest recorded callbacks, oldest first (as the list grows downwards)."""
    return history.recent_callbacks(limit)


def check_words(event: CallbackEvent) -> tuple[str, str]:
    """(state colour, words) for a callback's check, with "repeat" for duplicates."""
    state, words = CHECK_WORDS[event.check]
    if event.duplicate_of is not None:
        words += f"; repeat of #{event.duplicate_of}"
    return state, words


class CallbacksView(QWidget):
    """The listener of the active environment, and the list of callbacks received.

    Args:
        listeners: the window's listeners (the active environment's is shown and switched).
    """

    def __init__(self, listeners: CallbackListeners, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("callbacks-view")
        self.listeners = listeners
        self.listener_label = QLabel()
        self.listener_label.setWordWrap(True)
        self.listener_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_url = QPushButton(icon("copy"), "Copy address")
        self.copy_url.setToolTip("Copy the callback address, for server_callback_url or notify_url")
        self.copy_url.clicked.connect(self._copy_url)
        self.switch = QPushButton()
        self.switch.clicked.connect(lambda: listeners.switch(self.url() is None))
        self.table: QTableWidget = pairs_table(HEADINGS)
        self.table.setAccessibleName("Callbacks received")
        self.note = QLabel(
            "Callbacks and their control check follow the field notes, not the contract. "
            "A mismatch is flagged and never changes a status."
        )
        self.note.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.listener_label, 1)
        top.addWidget(self.copy_url)
        top.addWidget(self.switch)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.note)
        self.events: list[CallbackEvent] = []
        listeners.changed.connect(self.refresh_listener)
        listeners.address_changed.connect(lambda _url, _examples: self.refresh_listener())
        listeners.problem.connect(self._problem)
        self.refresh_listener()

    def url(self) -> str | None:
        name = self.listeners.active
        return self.listeners.url(name) if name else None

    def refresh_listener(self) -> None:
        """Show whether the active environment's listener runs, and where."""
        name = self.listeners.active
        url = self.url()
        if name is None:
            self.listener_label.setText("No environment is active.")
        elif url:
            self.listener_label.setText(f"Listening for callbacks of <b>{name}</b> at {url}")
        else:
            self.listener_label.setText(
                f"Not listening for callbacks of <b>{name}</b>. Turn the listener on here or "
                "in the environment's settings."
            )
        self.copy_url.setEnabled(bool(url))
        self.switch.setText("Stop listening" if url else "Start listening")
        self.switch.setEnabled(name is not None)

    def _problem(self, text: str) -> None:
        colour = state_colour("error", self.palette()).name()
        self.listener_label.setText(f"<span style='color:{colour}'>{text}</span>")

    def _copy_url(self) -> None:
        url = self.url()
        if url:
            QGuiApplication.clipboard().setText(url)

    def load(self, events: list[CallbackEvent]) -> None:
        """Show recorded callbacks (oldest first)."""
        self.events = []
        self.table.setRowCount(0)
        for event in events:
            self.add(event)

    def add(self, event: CallbackEvent) -> None:
        """Append one callback (newest at the bottom, scrolled into view)."""
        self.events.append(event)
        if len(self.events) > SHOWN:
            self.events.pop(0)
            self.table.removeRow(0)
        state, words = check_words(event)
        cells = (
            local_time(event.received),
            event.environment,
            event.status or "",
            event.client_orderid or "",
            event.orderid or "",
            f"#{event.request_id}" if event.request_id else "no matching request",
            words,
        )
        row = self.table.rowCount()
        self.table.insertRow(row)
        params = ", ".join(f"{n}={v}" for n, v in event.params)
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            item.setToolTip(f"{event.method} from {event.remote or '?'}: {params}")
            if column == len(HEADINGS) - 1:
                item.setForeground(state_colour(state, self.palette()))
            self.table.setItem(row, column, item)
        self.table.scrollToBottom()
