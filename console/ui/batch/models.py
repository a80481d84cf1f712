"""The batch dialog's tables: the validation problems and the results, as Qt models (a
10,000-row file stays quick: nothing is built per cell until it is shown)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from console.core.batch import COLUMNS, ResultLine, RowProblem, RowResult
from console.core.batch.results import apply_result
from console.core.masking import mask_text
from console.ui.theme import state_colour

_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole


class _Table(QAbstractTableModel):
    """A read-only table with fixed column headings."""

    HEADERS: tuple[str, ...] = ()

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None


class ProblemsModel(_Table):
    """Rows, severity, field, message: one validation problem per line. A problem that is
    the same on many rows is one line naming its rows (a file without callbacks, or one
    writing decimal commas, would otherwise repeat it on every row)."""

    HEADERS = ("Row", "Severity", "Field", "Problem")

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[str, str, str, str]] = []

    def set_problems(self, problems: Sequence[RowProblem]) -> None:
        errors: dict[tuple[str, str], list[int]] = {}
        warnings: dict[tuple[str, str], list[int]] = {}
        for p in sorted(problems, key=lambda p: p.row):
            shared = errors if p.severity == "error" else warnings
            shared.setdefault((p.field, p.message), []).append(p.row)
        self.beginResetModel()
        self.lines = [
            (_rows(rows), severity, field, mask_text(message))
            for severity, shared in (("error", errors), ("warning", warnings))
            for (field, message), rows in shared.items()
        ]
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.lines)

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if role not in (_DISPLAY, _TOOLTIP, _FOREGROUND) or not index.isValid():
            return None
        line = self.lines[index.row()]
        if role == _FOREGROUND:
            return state_colour("error") if line[1] == "error" else None
        return line[index.column()]


def _row(number: int) -> str:
    return str(number) if number else "header"


def _rows(numbers: list[int]) -> str:
    """The rows a problem is on: one, a range when they follow each other ("2–4 (3 rows)"),
    else a list ("2, 4"; a long one "2, 4, 7, … (12 rows)"): never a range with gaps."""
    if len(numbers) == 1:
        return _row(numbers[0])
    if numbers[-1] - numbers[0] + 1 == len(numbers) and numbers[0]:
        return f"{numbers[0]}–{numbers[-1]} ({len(numbers)} rows)"
    if len(numbers) <= 4:
        return ", ".join(_row(n) for n in numbers)
    return ", ".join(_row(n) for n in numbers[:3]) + f", … ({len(numbers)} rows)"


class ResultsModel(_Table):
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

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        if role not in (_DISPLAY, _TOOLTIP) or not index.isValid():
            return None
        return self.lines[self._order[index.row()]].cells()[index.column()]
