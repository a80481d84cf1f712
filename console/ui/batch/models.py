"""The batch dialog's tables: the validation problems and the results, as Qt models (a
10,000-row file stays quick: nothing is built per cell until it is shown)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from console.core.batch import COLUMNS, ResultLine, RowProblem, RowResult
from console.core.batch.results import apply_result
from console.core.masking import mask_text

_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole


class ProblemsModel(QAbstractTableModel):
    """Row, severity, field, message: one validation problem per line."""

    HEADERS = ("Row", "Severity", "Field", "Problem")

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[RowProblem] = []

    def set_problems(self, problems: Sequence[RowProblem]) -> None:
        self.beginResetModel()
        self.problems = list(problems)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.problems)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if role not in (_DISPLAY, _TOOLTIP) or not index.isValid():
            return None
        p = self.problems[index.row()]
        cells = (str(p.row) if p.row else "header", str(p.severity), p.field, mask_text(p.message))
        return cells[index.column()]


class ResultsModel(QAbstractTableModel):
    """One line per row of the file: its outcome, gateway order id, final status, error."""

    HEADERS = tuple(c.replace("_", " ") for c in COLUMNS)

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[int, ResultLine] = {}
        self._order: list[int] = []
        self._position: dict[int, int] = {}

    def set_lines(self, lines: dict[int, ResultLine]) -> None:
        self.beginResetModel()
        self.lines = dict(lines)
        self._order = sorted(self.lines)
        self._position = {n: i for i, n in enumerate(self._order)}
        self.endResetModel()

    def apply(self, results: Sequence[RowResult]) -> None:
        """Show what rows just came to."""
        rows = []
        for result in results:
            apply_result(self.lines, result)
            if result.number in self._position:
                rows.append(self._position[result.number])
        if rows:
            last = self.columnCount() - 1
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), last))

    def count(self, outcome: str) -> int:
        return sum(1 for line in self.lines.values() if line.outcome == outcome)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if role not in (_DISPLAY, _TOOLTIP) or not index.isValid():
            return None
        return self.lines[self._order[index.row()]].cells()[index.column()]
