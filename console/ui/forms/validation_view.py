"""The problem summary under the form: every finding, click (or Enter) to jump to the field."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from console.core.spec.model import Problem, Severity
from console.ui.theme import state_colour

_GLYPH = {Severity.ERROR: "✕", Severity.WARNING: "!"}
PENDING_GLYPH = "•"


def _never(_problem: Problem) -> bool:
    return False


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


class ProblemSummary(QWidget):
    """A headline ("2 errors, 1 warning") and the list of problems."""

    jump = Signal(str)  # a field name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.headline = QLabel()
        # no accessible name: its text is what a screen reader reads (and hears change)
        self.headline.setObjectName("validation-summary")
        self.headline.setAccessibleDescription("Validation summary")
        self.headline.setWordWrap(True)  # a long headline must not widen the window
        self.list = QListWidget()
        self.list.setAccessibleName("Problems")
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
        self._shown: tuple[Sequence[Problem], Callable[[Problem], bool]] = ((), _never)
        self._send_off = ""  # why Send is off when the form itself is fine
        self._off_below = False  # Send is off for a reason the line below says
        self.max_lines = 6

    def set_max_lines(self, lines: int) -> None:
        """Show at most ``lines`` problems before scrolling (fewer on a low window)."""
        if lines != self.max_lines:
            self.max_lines = lines
            self._fit_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_height()  # wrapped lines take more or fewer rows at the new width

    def _fit_height(self) -> None:
        # as tall as its lines (up to max_lines), so a short list leaves room for the form
        count = min(self.list.count(), self.max_lines)
        rows = sum(self.list.sizeHintForRow(i) for i in range(count))
        self.list.setFixedHeight(min(rows + 2 * self.list.frameWidth() + 4, 110))

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity is Severity.ERROR)

    def set_problems(
        self, problems: Sequence[Problem], pending: Callable[[Problem], bool] = _never
    ) -> None:
        """Show ``problems`` (mistakes first); unchanged lists are not rebuilt.

        ``pending(problem)`` is True for a value still to be filled in on a form nobody tried
        to send yet: it keeps Send disabled but is listed calmly, not as a mistake.
        """
        self._shown = (problems, pending)
        calm = [pending(p) for p in problems]
        rank = sorted(
            range(len(problems)),
            key=lambda i: (calm[i], problems[i].severity is not Severity.ERROR),
        )
        pairs = [(problems[i], calm[i]) for i in rank]
        ordered = [p for p, _ in pairs]
        key = (
            (self._send_off, str(self._off_below)),
            *((str(p.severity), str(q), p.message, *p.fields) for p, q in pairs),
        )
        self.problems = tuple(ordered)
        if key == self._key:
            return
        self._key = key
        to_fill = sum(1 for p, q in pairs if q and p.severity is Severity.ERROR)
        mistakes = self.errors - to_fill
        warnings = sum(1 for p, q in pairs if not q and p.severity is not Severity.ERROR)
        if mistakes:
            text = f"{_plural(mistakes, 'problem')} to fix (Send is disabled)"
            if to_fill:
                text += f", {_plural(to_fill, 'required field')} to fill in"
            state = "error"
        elif to_fill:
            word = "the required field" if to_fill == 1 else f"the {to_fill} required fields"
            text, state = f"Fill in {word} to send", "required"
        elif self._send_off or self._off_below:
            # said below: the headline names only the problems (never "Ready to send")
            text, state = self._send_off.rstrip("."), "warning"
        else:
            text, state = "Ready to send", "fine"
        if warnings:
            counted = _plural(warnings, "warning")
            text = f"{text}; {counted}" if text else counted
            state = "warning" if state == "fine" else state
        # nothing to count, and why Send is off said below: the list speaks for itself
        self.headline.setVisible(bool(text))
        if ordered:
            text += ". Click a line to go to its field."
        elif state == "warning" and (self._send_off or self._off_below):
            text += "."
        else:
            text += ": no problems found."
        colour = state_colour(state, self.palette()).name()
        self.headline.setText(f"<span style='color:{colour}'><b>{text}</b></span>")
        self.list.clear()
        for p, q in pairs:
            named = not p.fields or p.fields[0] in p.message
            line = p.message if named else f"{', '.join(p.fields)}: {p.message}"
            glyph = PENDING_GLYPH if q else _GLYPH.get(p.severity, "")
            item = QListWidgetItem(f"{glyph}  {line}")
            item.setData(Qt.ItemDataRole.UserRole, p.fields[0] if p.fields else "")
            item.setForeground(state_colour("required" if q else str(p.severity), self.palette()))
            self.list.addItem(item)
        self.list.setVisible(bool(ordered))
        self._fit_height()

    def set_send_off(self, reason: str, *, said_below: bool = False) -> None:
        """Say why Send is off although the form is fine ("" when it is on); ``said_below``:
        it is off for a reason a line below says, not to be said twice here."""
        if (reason, said_below) != (self._send_off, self._off_below):
            self._send_off, self._off_below = reason, said_below
            self.set_problems(*self._shown)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._key = ()  # a new theme: paint the same problems in its colours
            self.set_problems(*self._shown)

    def _activated(self, item: QListWidgetItem) -> None:
        name = item.data(Qt.ItemDataRole.UserRole)
        if name:
            self.jump.emit(str(name))
