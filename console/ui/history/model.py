"""A table model over the journal that pages lazily, off the GUI thread.

The row count comes from :meth:`History.count`; rows arrive a page at a time from
:meth:`History.fetch_after` (keyset paging, when the row before the page is known) or
:meth:`History.fetch` (offset, after a jump of the scroll bar). Until its page arrives a row
shows "…", so scrolling never waits for the database. Pages the view has scrolled past
before their turn came are skipped, and only a few thousand rows are kept in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QGuiApplication

from console.core.history import COLUMNS, HistoryFilter, HistoryRow
from console.ui.tasks import TaskManager
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.journals import JournalStore

PAGE = 200
KEEP_ROWS = 4000  # rows cached around the last one asked for
LOADING = "…"
ROW_ROLE = Qt.ItemDataRole.UserRole + 1
_STATE_OF_OUTCOME = {
    "pending": "busy",
    "accepted": "fine",
    "rejected": "error",
    "access-denied": "error",
    "gateway-failed": "error",
    "not-sent": "warning",
    "unknown": "warning",
}

Index = QModelIndex | QPersistentModelIndex


def local_time(value: datetime | None) -> str:
    """A stored UTC time in the computer's time zone, to the second."""
    return "" if value is None else value.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def cell_text(row: HistoryRow, attribute: str) -> str:
    """What a column shows for ``row``."""
    if attribute == "created":
        return local_time(row.created)
    value = getattr(row, attribute)
    return "" if value is None else str(value)


class HistoryModel(QAbstractTableModel):
    """The journal rows matching a :class:`HistoryFilter`, newest first.

    Signals:
        counted: the row count for the current filter is known (after :meth:`refresh`).
        failed: plain words when the journal could not be read.
    """

    counted = Signal(int)
    failed = Signal(str)

    def __init__(self, history: JournalStore, tasks: TaskManager, parent: QObject | None = None):
        super().__init__(parent)
        self.history = history
        self.tasks = tasks
        self.filter = HistoryFilter()
        self._count = 0
        self._rows: dict[int, HistoryRow] = {}
        self._wanted: set[int] = set()
        self._generation = 0
        self._last_page = 0
        self.loading = False
        self._grow_timer = QTimer(self)
        self._grow_timer.setSingleShot(True)
        self._grow_timer.setInterval(100)  # a burst of new rows becomes one insert
        self._grow_timer.timeout.connect(self._grow)

    # -- Qt model --------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section][1]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows.get(index.row())
        if row is None:
            if role == Qt.ItemDataRole.DisplayRole:
                self._want(index.row())
                return LOADING
            return None
        attribute = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return cell_text(row, attribute)
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.ToolTipRole:
            if attribute in ("outcome_text", "final_status"):
                return _status_tip(row)
            return cell_text(row, attribute) or None
        if role == Qt.ItemDataRole.ForegroundRole and attribute == "outcome_text":
            return state_colour(_STATE_OF_OUTCOME.get(row.outcome, ""), QGuiApplication.palette())
        return None

    # -- rows --------------------------------------------------------------------------------
    def row_at(self, position: int) -> HistoryRow | None:
        """The row shown at ``position``, when its page has arrived."""
        return self._rows.get(position)

    def position_of(self, row_id: int) -> int | None:
        """Where a loaded row is shown, or None."""
        return next((i for i, r in self._rows.items() if r.id == row_id), None)

    # -- loading -----------------------------------------------------------------------------
    def set_filter(self, new: HistoryFilter) -> None:
        self.filter = new
        self.refresh()

    def refresh(self) -> None:
        """Count again and reload from the top (in the background)."""
        self._generation += 1
        generation, wanted = self._generation, self.filter
        self.loading = True

        def work() -> tuple[int, list[HistoryRow]]:
            return self.history.count(wanted), self.history.fetch(wanted, 0, PAGE)

        self._read(work, lambda r: self._reloaded(generation, r), self._error)

    def _reloaded(self, generation: int, result: object) -> None:
        if generation != self._generation:
            return
        count, first = _counted_page(result)
        self.beginResetModel()
        self._count = count
        self._rows = dict(enumerate(first))
        self._wanted.clear()
        self.endResetModel()
        self.loading = False
        self.counted.emit(self._count)

    def _read(
        self,
        work: Callable[[], object],
        done: Callable[[Any], None],
        failed: Callable[[BaseException, str], None],
    ) -> None:
        """Read on the journal's lane: one at a time, in order, never behind a send."""
        self.tasks.run(work, done, failed, lane="journal", owner=self)

    def _error(self, exc: BaseException, _tb: str) -> None:
        self.loading = False
        self.failed.emit(f"The history could not be read: {exc}")

    def _want(self, position: int) -> None:
        page = position // PAGE
        self._last_page = page
        if page in self._wanted:
            return
        self._wanted.add(page)
        generation, wanted = self._generation, self.filter
        before = self._rows.get(page * PAGE - 1) if page else None

        def work() -> list[HistoryRow] | None:
            if abs(page - self._last_page) > 2:
                return None  # scrolled past before its turn: not needed any more
            if page == 0 or before is not None:
                return self.history.fetch_after(wanted, before, PAGE)
            return self.history.fetch(wanted, page * PAGE, PAGE)

        self._read(work, lambda rows: self._page(generation, page, rows), self._error)

    def _page(self, generation: int, page: int, rows: object) -> None:
        self._wanted.discard(page)
        if generation != self._generation or rows is None:
            return
        assert isinstance(rows, list)
        start = page * PAGE
        for i, row in enumerate(rows):
            if start + i < self._count:
                self._rows[start + i] = row
        self._trim(start)
        if rows:
            end = min(start + len(rows), self._count) - 1
            if end >= start:
                last = self.index(end, len(COLUMNS) - 1)
                self.dataChanged.emit(self.index(start, 0), last)

    def _trim(self, around: int) -> None:
        if len(self._rows) <= KEEP_ROWS:
            return
        keep = range(around - KEEP_ROWS // 2, around + KEEP_ROWS // 2)
        self._rows = {i: r for i, r in self._rows.items() if i in keep}

    # -- journal events ----------------------------------------------------------------------
    def row_added(self, _row_id: int) -> None:
        """A new request was journalled: it goes on top (rows are newest first)."""
        self._grow_timer.start()

    def _grow(self) -> None:
        generation, wanted = self._generation, self.filter

        def work() -> tuple[int, list[HistoryRow]]:
            return self.history.count(wanted), self.history.fetch(wanted, 0, PAGE)

        self._read(work, lambda r: self._grown(generation, r), self._error)

    def _grown(self, generation: int, result: object) -> None:
        if generation != self._generation:
            return
        count, first = _counted_page(result)
        added = count - self._count
        if added <= 0:
            self._update_rows(first)
            return
        self.beginInsertRows(QModelIndex(), 0, added - 1)
        shifted = {i + added: r for i, r in self._rows.items()}
        shifted.update(enumerate(first))
        self._rows = shifted
        self._count = count
        self.endInsertRows()
        self.counted.emit(self._count)

    def row_changed(self, row_id: int) -> None:
        """A journalled request got its answer or a final status: show the new values."""
        if self.filter.outcomes or self.filter.search:
            # the change may move the row into or out of the filter: count again
            self.refresh()
            return
        if self.position_of(row_id) is None:
            return
        generation = self._generation
        self._read(
            lambda: self.history.rows([row_id]),
            lambda rows: self._update_rows(rows) if generation == self._generation else None,
            self._error,
        )

    def _update_rows(self, rows: object) -> None:
        assert isinstance(rows, list)
        for row in rows:
            position = self.position_of(row.id)
            if position is not None:
                self._rows[position] = row
                self.dataChanged.emit(
                    self.index(position, 0), self.index(position, len(COLUMNS) - 1)
                )


def _counted_page(result: object) -> tuple[int, list[HistoryRow]]:
    """The (count, first page) a background read returned."""
    assert isinstance(result, tuple)
    count, first = result
    return int(count), list(first)


def _status_tip(row: HistoryRow) -> str:
    lines = [row.outcome_text]
    if row.summary:
        lines.append(row.summary)
    if row.final_status:
        source = f" ({row.final_status_source})" if row.final_status_source else ""
        when = f" at {local_time(row.final_status_at)}" if row.final_status_at else ""
        lines.append(f"Final status {row.final_status}{source}{when}")
    return "\n".join(lines)
