"""Building blocks of the inspector: a titled read-only text with a copy button."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from console.ui.icons import icon


def monospace_edit(lines: int = 3) -> QPlainTextEdit:
    """A read-only, wrapping, monospace text box about ``lines`` lines high."""
    edit = QPlainTextEdit()
    edit.setReadOnly(True)
    edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    edit.setTabChangesFocus(True)
    height = edit.fontMetrics().lineSpacing() * lines + 12
    edit.setMinimumHeight(height)
    edit.setMaximumHeight(max(height, 60) if lines <= 2 else 16777215)
    return edit


class CopyBlock(QWidget):
    """Title, optional caption, the value and a Copy button."""

    def __init__(
        self, title: str, *, lines: int = 3, caption: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.title = QLabel(f"<b>{title}</b>")
        self.caption = QLabel(caption)
        self.caption.setWordWrap(True)
        self.caption.setVisible(bool(caption))
        self.text = monospace_edit(lines)
        self.text.setAccessibleName(title)
        self._copy_value: str | None = None
        self.copy_button = QPushButton(icon("copy"), "Copy")
        self.copy_button.setAccessibleName(f"Copy {title}")
        self.copy_button.setToolTip(f"Copy {title} to the clipboard")
        self.copy_button.clicked.connect(self.copy)
        self.copy_button.setEnabled(False)  # nothing to copy until a value is shown
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.title)
        head.addStretch(1)
        head.addWidget(self.copy_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 4)
        lay.setSpacing(2)
        lay.addLayout(head)
        lay.addWidget(self.caption)
        lay.addWidget(self.text)

    def set_text(self, text: str, *, copy_value: str | None = None) -> None:
        """Show ``text``; Copy puts ``copy_value`` (default: the text) on the clipboard."""
        self.text.setPlainText(text)
        self._copy_value = copy_value
        self.copy_button.setEnabled(bool(text))

    def value(self) -> str:
        """What Copy copies (the exact value, without display line breaks)."""
        if self._copy_value is not None:
            return self._copy_value
        return self.text.toPlainText()

    def copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(self.value())


def wrap_base_string(base: str) -> str:
    """The base string with a line break after each encoded ``&`` between parameters.

    ``%26`` is the encoded ``&`` that joins parameters inside the third part; ``&`` alone
    joins the three parts. Breaking there makes every parameter boundary visible while the
    text, joined back without the line breaks, is exactly the base string.
    """
    parts = base.split("&", 2)
    if len(parts) != 3:
        return base
    method, uri, params = parts
    params = params.replace("%26", "%26\n    ")
    return f"{method}&\n{uri}&\n    {params}"


def pairs_table(headers: tuple[str, ...], *, stretch_from: int = -1) -> QTableWidget:
    """A read-only table for name/value rows; columns from ``stretch_from`` share the width."""
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(True)
    table.setAlternatingRowColors(True)
    header = table.horizontalHeader()
    first_stretch = stretch_from if stretch_from >= 0 else len(headers) - 1
    for col in range(len(headers)):
        mode = (
            QHeaderView.ResizeMode.Stretch
            if col >= first_stretch
            else QHeaderView.ResizeMode.ResizeToContents
        )
        header.setSectionResizeMode(col, mode)
    return table


def fill_table(table: QTableWidget, rows: Sequence[Sequence[str]]) -> None:
    """Replace the table's rows."""
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem(value)
            item.setToolTip(value)  # long values and meanings are elided in narrow columns
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            table.setItem(r, c, item)
    table.resizeRowsToContents()
