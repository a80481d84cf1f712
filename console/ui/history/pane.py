"""The history pane: search, filters, the journal table, details and actions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QSizePolicy,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from console.core.history import COLUMNS, HistoryDetail, HistoryRow, export
from console.ui.history.details import HistoryDetailsView
from console.ui.history.filters import HistoryFilters
from console.ui.history.model import HistoryModel
from console.ui.icons import icon
from console.ui.tasks import TaskManager
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.journals import JournalStore

# (attribute of HistoryRow, label) for "Copy ids"
ID_ATTRIBUTES = (
    ("client_orderid", "client order id"),
    ("gateway_order_id", "gateway order id"),
    ("serial_number", "serial number"),
    ("card_ref_id", "card reference id"),
    ("recurring_payment_id", "recurring payment id"),
)


# Columns a person reads first, in this order; the others follow, sideways if need be.
FIRST_COLUMNS = (
    "created",
    "command",
    "client_orderid",
    "amount_text",
    "outcome_text",
    "final_status",
)
# A typical longest value per column: widths follow the font, not fixed pixels.
COLUMN_SAMPLES = {
    "created": "2026-11-22 14:45:54",
    "environment": "local-sandbox",
    "command": "create-recurring-payment",
    "client_orderid": "gc-20261122T144554-80e815",
    "amount_text": "10000.00 EUR",
    "receiver": "444444******4448",
    "outcome_text": "outcome unknown",
    "final_status": "processing",
    "gateway_order_id": "10000001",
    "serial_number": "a1b2c3d4-e5f6-4789-a012-b3c4d5e6f789",
}


def arrange_columns(table: QTableView) -> None:
    """Put :data:`FIRST_COLUMNS` first and size every column to its sample text."""
    header = table.horizontalHeader()
    metrics = table.fontMetrics()
    bold = header.fontMetrics()
    names = [name for name, _title in COLUMNS]
    for position, name in enumerate(FIRST_COLUMNS):
        header.moveSection(header.visualIndex(names.index(name)), position)
    for column, (name, title) in enumerate(COLUMNS):
        text = metrics.horizontalAdvance(COLUMN_SAMPLES.get(name, title))
        heading = bold.horizontalAdvance(title) + 12  # room for the sort mark
        table.setColumnWidth(column, max(text, heading) + 14)


class HistoryPane(QWidget):
    """Every journalled request, newest first, paged lazily from the journal.

    Signals (the window acts on them):
        use_in_payout(HistoryRow): put the row's recurring payment id into a payout.
        repeat_as_new(HistoryDetail): load the row's request into its form, fresh order id.
        check_status(HistoryRow) / follow(HistoryRow): ask the gateway about the order.
    """

    use_in_payout = Signal(object)
    repeat_as_new = Signal(object)
    check_status = Signal(object)
    follow = Signal(object)

    def __init__(
        self, history: JournalStore, tasks: TaskManager | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("history-pane")
        self.history = history
        # the window's task manager; the history's reads keep their order on its journal lane
        self.tasks = tasks if tasks is not None else TaskManager(self)
        self.model = HistoryModel(history, self.tasks, self)
        self.filters = HistoryFilters()
        self.count_label = QLabel("Reading the history…")
        self.count_label.setAccessibleDescription("Number of requests shown")  # read by its text
        # beside the count, not a line of its own: a message never pushes the table down
        self.message = QLabel()
        self.message.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.table = QTableView()
        self.table.setObjectName("history-table")
        self.table.setAccessibleName("History of requests")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        # Fixed row heights: the view never measures rows, so 100,000 rows scroll smoothly.
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        arrange_columns(self.table)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.details = HistoryDetailsView()

        self.actions_by_name: dict[str, QAction] = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.count_label)
        bar.addWidget(self.message, 1)
        for name, text, slot, tip in (
            ("use", "Use in payout", self._use, "Pay out to this card reference / RPI"),
            ("repeat", "Repeat as new", self._repeat, "Same values, fresh client_orderid"),
            ("status", "Check status", self._check, "Ask the gateway for the order's status"),
            ("follow", "Follow", self._follow, "Check the status on the field notes' plan"),
            ("copy", "Copy ids", self.copy_ids, "Copy the ids of the selected requests"),
            ("export", "Export…", self._export_dialog, "Export the selection to CSV or JSON"),
        ):
            action = QAction(text, self)
            action.setObjectName(f"history:{name}")
            action.setToolTip(tip)
            action.triggered.connect(slot)
            self.actions_by_name[name] = action
            button = QToolButton()
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            bar.addWidget(button)
        self.actions_by_name["copy"].setIcon(icon("copy"))
        self.actions_by_name["copy"].setShortcut(QKeySequence.StandardKey.Copy)
        self.actions_by_name["copy"].setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.table.addAction(self.actions_by_name["copy"])

        # Side by side: the pane docks at the bottom, where width is plenty and height is not.
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.details)
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 2)
        split.setSizes([1000, 400])  # the table first: its main columns fit at 1366 px
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.filters)
        lay.addLayout(bar)
        lay.addWidget(split, 1)

        self.filters.changed.connect(self.apply_filters)
        self.model.counted.connect(self._counted)
        self.model.failed.connect(lambda text: self.show_message("error", text))
        # a reload (a status check's answer under a search filter counts again) keeps the
        # rows the person chose, by id, where they still match
        self._kept: list[int] = []
        self.model.modelAboutToBeReset.connect(self._remember_selection)
        self.model.modelReset.connect(self._restore_selection)
        self.model.modelReset.connect(self._selection_changed)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._selection_changed())
        self._detail_for: int | None = None
        self._selection_changed()
        self.model.refresh()
        self.load_choices()

    # -- filters -------------------------------------------------------------------------
    def apply_filters(self) -> None:
        self.model.set_filter(self.filters.value())

    def load_choices(self) -> None:
        """Fill the command and environment filters from the journal (in the background)."""
        self.read(
            lambda: (self.history.distinct("command"), self.history.distinct("environment")),
            self._choices_loaded,
        )

    def _choices_loaded(self, result: object) -> None:
        assert isinstance(result, tuple)
        self.filters.set_choices(*result)

    def _counted(self, count: int) -> None:
        self.count_label.setText(f"{count:,} request{'s' if count != 1 else ''}")

    def show_message(self, state: str, text: str) -> None:
        colour = state_colour(state or "required", self.palette()).name()
        self.message.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")
        self.message.setToolTip(text)  # the whole text, where the bar cuts it

    # -- selection and details -------------------------------------------------------------
    def selected_rows(self) -> list[HistoryRow]:
        """The selected rows that have arrived, in view order."""
        positions = sorted(i.row() for i in self.table.selectionModel().selectedRows())
        return [r for p in positions if (r := self.model.row_at(p)) is not None]

    def current_row(self) -> HistoryRow | None:
        rows = self.selected_rows()
        return rows[0] if len(rows) == 1 else None

    def select_position(self, position: int) -> None:
        index = self.model.index(position, 0)
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)

    def _remember_selection(self) -> None:
        self._kept = [row.id for row in self.selected_rows()]

    def _restore_selection(self) -> None:
        kept, self._kept = self._kept, []
        positions = [p for i in kept if (p := self.model.position_of(i)) is not None]
        if not positions:
            return
        chosen = QItemSelection()
        last = len(COLUMNS) - 1
        for position in positions:
            chosen.select(self.model.index(position, 0), self.model.index(position, last))
        model = self.table.selectionModel()
        flags = QItemSelectionModel.SelectionFlag
        model.setCurrentIndex(self.model.index(positions[0], 0), flags.NoUpdate)
        model.select(chosen, flags.ClearAndSelect | flags.Rows)

    def _selection_changed(self) -> None:
        row = self.current_row()
        rows = self.selected_rows()
        self.actions_by_name["use"].setEnabled(row is not None and bool(row.recurring_payment_id))
        self.actions_by_name["repeat"].setEnabled(row is not None and row.command != "status")
        can_check = row is not None and bool(row.client_orderid) and row.command == "payout-check"
        self.actions_by_name["status"].setEnabled(can_check)
        self.actions_by_name["follow"].setEnabled(can_check)
        self.actions_by_name["copy"].setEnabled(bool(rows))
        self.actions_by_name["export"].setEnabled(bool(rows))
        if row is None:
            self._detail_for = None
            self.details.clear(
                f"{len(rows)} requests selected." if rows else "Choose a request to see it."
            )
            return
        self._detail_for = row.id
        self.read(lambda: self.history.details(row.id), self._detail_arrived)

    def _detail_arrived(self, detail: object) -> None:
        if isinstance(detail, HistoryDetail) and detail.row.id == self._detail_for:
            self.details.show_detail(detail)

    def row_changed(self, row_id: int) -> None:
        """Journal event: refresh the model and the details when they show this row."""
        self.model.row_changed(row_id)
        if row_id == self._detail_for:
            self.read(lambda: self.history.details(row_id), self._detail_arrived)

    def read(
        self,
        work: Callable[[], object],
        done: Callable[[Any], None],
        failed: Callable[[BaseException, str], None] | None = None,
    ) -> None:
        """Read the journal on the journal's lane; a failure is said in the pane."""

        def said(exc: BaseException, _tb: str) -> None:
            self.show_message("error", f"The history could not be read: {exc}")

        self.tasks.run(work, done, failed or said, lane="journal", owner=self)

    def row_added(self, row_id: int) -> None:
        self.model.row_added(row_id)

    # -- actions -------------------------------------------------------------------------------
    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for action in self.actions_by_name.values():
            menu.addAction(action)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def _use(self) -> None:
        row = self.current_row()
        if row is not None and row.recurring_payment_id:
            self.use_in_payout.emit(row)

    def _repeat(self) -> None:
        row = self.current_row()
        if row is not None:
            self.read(lambda: self.history.details(row.id), self.repeat_as_new.emit)

    def _check(self) -> None:
        row = self.current_row()
        if row is not None:
            self.check_status.emit(row)

    def _follow(self) -> None:
        row = self.current_row()
        if row is not None:
            self.follow.emit(row)

    def copy_ids(self) -> str:
        """Copy the ids of the selected rows, one row per line, labelled; returns the text."""
        lines = []
        for row in self.selected_rows():
            parts = [
                f"{label}: {value}"
                for attribute, label in ID_ATTRIBUTES
                if (value := getattr(row, attribute))
            ]
            lines.append("; ".join(parts))
        text = "\n".join(lines)
        if text:
            QGuiApplication.clipboard().setText(text)
            self.show_message("fine", f"Copied the ids of {len(lines)} request(s).")
        return text

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the selected requests", "history.csv", "CSV (*.csv);;JSON (*.json)"
        )
        if path:
            self.export_selection(Path(path))

    def export_selection(self, path: Path) -> None:
        """Write the selected rows to ``path`` (.csv or .json) in the background."""
        ids = [r.id for r in self.selected_rows()]
        if not ids:
            self.show_message("warning", "Select the requests to export first.")
            return
        self.show_message("busy", f"Exporting {len(ids)} request(s) to {path}…")
        self.read(
            lambda: export(self.history, path, ids=ids),
            lambda n: self.show_message("fine", f"Exported {n} request(s) to {path}."),
            lambda exc, _tb: self.show_message("error", f"Nothing exported: {exc}"),
        )
