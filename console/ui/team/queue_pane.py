"""The approval queue: submissions waiting for a checker, live from the team database.

It lists what ``team pending`` lists, refreshed when the database announces a change
(LISTEN/NOTIFY, within a second), and lets a checker approve, or reject with a reason. The
database decides: a refusal (self-approval, expired, already decided) is shown as it came
and is in the audit trail. Work runs on the window's task runner, never on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from console.core.errors import ConsoleError
from console.core.journals import team_dsn
from console.core.team.approvals.approval import Approvals
from console.core.team.approvals.submissions import Submission
from console.core.team.errors import TeamSetupError
from console.core.team.storage.journal import TeamJournal
from console.core.team.storage.live import TeamListener

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget

    from console.ui.tasks import TaskManager

    AddPane = Callable[[QWidget, str, Qt.DockWidgetArea, str], QDockWidget]  # dock and list it

HEADINGS = ("#", "Environment", "Command", "Client order id", "Amount", "Receiver", "Maker",
            "Expires", "Rejected before")  # fmt: skip


class _Heard(QObject):
    """Carries the listener thread's news to the GUI thread."""

    changed = Signal()


class ApprovalQueuePane(QWidget):
    """Pending submissions with Approve and Reject; ``refreshed`` after each reload."""

    refreshed = Signal()

    def __init__(self, approvals: Approvals, tasks: TaskManager, parent: QWidget | None = None):
        super().__init__(parent)
        self.approvals = approvals
        self.tasks = tasks
        self.submissions: list[Submission] = []
        self.table = QTableWidget(0, len(HEADINGS), self)
        self.table.setHorizontalHeaderLabels(HEADINGS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.approve_button = QPushButton("&Approve", self)
        self.reject_button = QPushButton("&Reject…", self)
        self.empty = QLabel("Nothing waits for approval.", self)
        self.message = QLabel(self)  # the last decision, or the database's refusal
        self.message.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.approve_button)
        buttons.addWidget(self.reject_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        self.approve_button.clicked.connect(self.approve_selected)
        self.reject_button.clicked.connect(self._ask_reason)
        self.table.itemSelectionChanged.connect(self._enable)
        self._heard = _Heard(self)
        self._heard.changed.connect(self.reload, Qt.ConnectionType.QueuedConnection)
        self._listener: TeamListener | None = None
        self._enable()

    def listen(self) -> None:
        """Reload whenever the team database announces a change."""
        self._listener = TeamListener(
            self.approvals.journal.dsn, lambda *_: self._heard.changed.emit()
        )
        self._listener.start()

    def stop(self) -> None:
        """Stop listening and close the team connection (the window is closing)."""
        if self._listener is not None:
            self._listener.stop()
            self._listener = None
        self.tasks.wait(10_000)
        self.approvals.journal.close()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Close and watched is self.window():
            self.stop()
        return False

    def reload(self) -> None:
        self.tasks.run(self.approvals.pending_with_rejections, self._show, self._failed)

    def _show(self, pending: list[tuple[Submission, str]]) -> None:
        submissions = [s for s, _again in pending]
        self.submissions = submissions
        self.table.setRowCount(len(submissions))
        for row, (s, again) in enumerate(pending):
            amount = " ".join(x for x in (s.amount, s.currency) if x)
            if s.is_batch:  # rows, totals per currency, largest payout: one line
                amount = "; ".join(s.batch_lines[1:])
            expires = f"{s.expires.astimezone():%d.%m %H:%M}"
            command = "batch" if s.is_batch else s.command
            where = f"{s.environment} ({s.gateway_name})" if s.gateway_name else s.environment
            cells = (str(s.id), where, command, s.client_orderid or "", amount,
                     s.receiver or "", s.maker, expires, again)  # fmt: skip
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if s.is_batch:
                    item.setToolTip("\n".join(s.batch_lines))
                if again:  # a rejection asked again: the checker sees it on every cell
                    item.setToolTip(again)
                self.table.setItem(row, column, item)
        self.empty.setVisible(not submissions)
        self._enable()
        self.refreshed.emit()

    def _failed(self, exc: BaseException, _tb: str) -> None:
        self.message.setText(exc.message if isinstance(exc, ConsoleError) else str(exc))
        self.refreshed.emit()

    def _enable(self) -> None:
        chosen = bool(self.table.selectedItems())
        self.approve_button.setEnabled(chosen)
        self.reject_button.setEnabled(chosen)

    def selected(self) -> Submission | None:
        rows = {i.row() for i in self.table.selectedItems()}
        return self.submissions[rows.pop()] if len(rows) == 1 else None

    def approve_selected(self) -> None:
        s = self.selected()
        if s is not None:
            self.tasks.run(lambda: self.approvals.approve(s.id), self._decided, self._failed)

    def reject_selected(self, reason: str) -> None:
        s = self.selected()
        if s is not None:
            self.tasks.run(lambda: self.approvals.reject(s.id, reason), self._decided, self._failed)

    def _ask_reason(self) -> None:
        reason, ok = QInputDialog.getText(
            self, "Reject", "Why is it rejected? (the maker reads it)"
        )
        if ok:
            self.reject_selected(reason)

    def _decided(self, s: Submission) -> None:
        how = f"#{s.id} {s.state} by {s.decided_by}."
        if s.state == "approved" and s.is_batch:
            how += " It is a batch: running its file again sends every row once."
        elif s.state == "approved":
            how += (" Its maker's console sends it (it carries card data)." if s.card_data
                    else f" Send it with `gateway-console team send {s.id}`.")  # fmt: skip
        self.message.setText(how)
        self.reload()


def open_queue(
    tasks: TaskManager, add_pane: AddPane, say: Callable[[str], None], window: QWidget
) -> None:
    """Dock the approval queue (once) and show it; the team journal opens on a worker."""
    existing = window.findChild(ApprovalQueuePane)
    if existing is not None:
        dock = existing.parentWidget()
        if dock is not None:
            dock.show()
        return

    def opened(approvals: Approvals) -> None:
        pane = ApprovalQueuePane(approvals, tasks)
        add_pane(pane, "Approval queue", Qt.DockWidgetArea.BottomDockWidgetArea, "").show()
        window.installEventFilter(pane)  # closing the window stops it
        pane.listen()
        pane.reload()

    def failed(exc: BaseException, _tb: str) -> None:
        say(exc.message if isinstance(exc, ConsoleError) else str(exc))

    tasks.run(_open_approvals, opened, failed)


def _open_approvals() -> Approvals:
    dsn = team_dsn()
    if not dsn:
        raise TeamSetupError("No team database: run `gateway-console team init --dsn URL`.")
    return Approvals(TeamJournal(dsn))
