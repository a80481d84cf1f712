"""The problem summary under the form: every finding, click (or Enter) to jump to the field."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from console.core.spec.model import Problem, Severity
from console.ui.theme import state_colour

_GLYPH = {Severity.ERROR: "✕", Severity.WARNING: "!"}


class ProblemSummary(QWidget):
    """A headline ("2 errors, 1 warning") and the list of problems."""

    jump = Signal(str)  # a field name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.headline = QLabel()
        self.headline.setAccessibleName("Validation summary")
        self.list = QListWidget()
        self.list.setAccessibleName("Problems")
        self.list.setMaximumHeight(110)
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.headline)
        lay.addWidget(self.list)
        self.problems: tuple[Problem, ...] = ()
        self._key: tuple[tuple[str, ...], ...] = ()

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity is Severity.ERROR)

    def set_problems(self, problems: Sequence[Problem]) -> None:
        """Show ``problems`` (errors first); unchanged lists are not rebuilt."""
        ordered = sorted(problems, key=lambda p: p.severity is not Severity.ERROR)
        key = tuple((str(p.severity), p.message, *p.fields) for p in ordered)
        self.problems = tuple(ordered)
        if key == self._key:
            return
        self._key = key
        errors = self.errors
        warnings = len(ordered) - errors
        if not ordered:
            text, state = "No problems: ready to send.", "fine"
        else:
            words = []
            if errors:
                words.append(f"{errors} error{'s' if errors != 1 else ''} (Send is disabled)")
            if warnings:
                words.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
            text, state = (
                ", ".join(words) + ". Click one to go to the field.",
                ("error" if errors else "warning"),
            )
        colour = state_colour(state, self.palette()).name()
        self.headline.setText(f"<span style='color:{colour}'><b>{text}</b></span>")
        self.list.clear()
        for p in ordered:
            named = not p.fields or p.fields[0] in p.message
            text = p.message if named else f"{', '.join(p.fields)}: {p.message}"
            item = QListWidgetItem(f"{_GLYPH.get(p.severity, '')}  {text}")
            item.setData(Qt.ItemDataRole.UserRole, p.fields[0] if p.fields else "")
            item.setForeground(state_colour(str(p.severity), self.palette()))
            self.list.addItem(item)
        self.list.setVisible(bool(ordered))

    def _activated(self, item: QListWidgetItem) -> None:
        name = item.data(Qt.ItemDataRole.UserRole)
        if name:
            self.jump.emit(str(name))
