"""One form row per contract field: the right editor for the type, its state and message.

Every editor is reduced to "text as typed" (``text()`` / ``set_text()``) because that is
what ``core.spec.validate`` reads; empty means "not given".
"""

from __future__ import annotations

import html

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtWidgets import (
    QCalendarWidget,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from console.core.spec.model import Field, FieldType, Necessity
from console.ui.theme import state_colour

LABEL_WIDTH = 225
DATE_QT_FORMAT = "dd.MM.yyyy"
# QLineEdit refuses more than this; longer contract limits get a multi-line editor.
_LINE_EDIT_LIMIT = 32767
_GLYPHS = {"required": "•", "fine": "✓", "warning": "!", "error": "✕", "": ""}


def tooltip_for(field: Field) -> str:
    """Rich tooltip: the contract's meaning, necessity, type and length (and alias, notes)."""
    parts = [
        f"<b>{html.escape(field.name)}</b>",
        f"{field.necessity.value.capitalize()} · {field.type.value} · "
        f"length {html.escape(field.length.text)}",
        html.escape(field.meaning, quote=False),
    ]
    if field.alias:
        parts.append(f"Also accepted as <code>{html.escape(field.alias)}</code>.")
    if field.note:
        parts.append(f"<i>{html.escape(field.note, quote=False)}</i>")
    return "<br>".join(parts)


class _DateEditor(QWidget):
    """A line edit for DD.MM.YYYY with a calendar button that writes that format."""

    textChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = QLineEdit(self)
        self.line.setPlaceholderText("DD.MM.YYYY")
        self.line.setMaxLength(10)  # 8 digits and two dots
        self.button = QToolButton(self)
        self.button.setArrowType(Qt.ArrowType.DownArrow)
        self.button.setToolTip("Pick a date (writes DD.MM.YYYY)")
        self.button.setAccessibleName("Pick a date")
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.calendar = QCalendarWidget()
        self.calendar.setGridVisible(True)
        menu = QMenu(self.button)
        action = QWidgetAction(menu)
        action.setDefaultWidget(self.calendar)
        menu.addAction(action)
        self.button.setMenu(menu)
        self.calendar.clicked.connect(self._picked)
        self.calendar.activated.connect(self._picked)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.line, 1)
        lay.addWidget(self.button)
        self.line.textChanged.connect(self.textChanged)
        self.setFocusProxy(self.line)

    def _picked(self, day: QDate) -> None:
        self.line.setText(day.toString(DATE_QT_FORMAT))
        menu = self.button.menu()
        if menu is not None:
            menu.hide()

    def text(self) -> str:
        return self.line.text()

    def setText(self, text: str) -> None:
        self.line.setText(text)
        day = QDate.fromString(text, DATE_QT_FORMAT)
        if day.isValid():
            self.calendar.setSelectedDate(day)


class FieldRow(QWidget):
    """Label, editor, state mark and message for one field."""

    edited = Signal(str)  # the field name

    def __init__(self, field: Field, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field = field
        self.state = ""
        self._message = ""
        self._editor, self._get, self._set, changed = self._make_editor(field)
        changed.connect(lambda *_: self.edited.emit(self.field.name))
        self._editor.setAccessibleName(field.name)
        self._editor.setAccessibleDescription(field.meaning)
        tip = tooltip_for(field)  # built once: label and editor share it
        self._editor.setToolTip(tip)
        self._editor.setObjectName(f"field:{field.name}")

        mark = " *" if field.necessity is Necessity.REQUIRED else ""
        self.label = QLabel(f"{field.name}{mark}", self)
        self.label.setToolTip(tip)
        self.label.setBuddy(self._editor)
        self.label.setFixedWidth(LABEL_WIDTH)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.mark = QLabel(self)
        self.mark.setFixedWidth(16)
        self.mark.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        self.message.setContentsMargins(LABEL_WIDTH + 6, 0, 0, 2)

        top = QHBoxLayout()
        self._top = top
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.label)
        top.addWidget(self._editor, 1)
        top.addWidget(self.mark)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 1, 0, 1)
        lay.setSpacing(1)
        lay.addLayout(top)
        lay.addWidget(self.message)
        self.setFocusProxy(self._editor)

    # -- editors -----------------------------------------------------------------------
    def _make_editor(self, field: Field):  # type: ignore[no-untyped-def]
        """(widget, getter, setter, changed-signal) for the field's type."""
        if field.choices:
            combo = QComboBox(self)
            if field.necessity is not Necessity.REQUIRED:
                combo.addItem("")
            combo.addItems(list(field.choices))
            if field.necessity is Necessity.REQUIRED:
                combo.setCurrentIndex(-1)
            return combo, combo.currentText, self._set_combo(combo), combo.currentTextChanged
        if field.type is FieldType.DATE:
            date = _DateEditor(self)
            return date, date.text, date.setText, date.textChanged
        if field.type is FieldType.INT:
            spin = QSpinBox(self)
            spin.setRange(-1, 2_147_483_647)
            spin.setSpecialValueText(" ")  # the minimum stands for "not given"
            spin.setValue(-1)
            spin.setAccelerated(True)

            def get() -> str:
                return "" if spin.value() < 0 else str(spin.value())

            def put(text: str) -> None:
                spin.setValue(int(text) if text.strip().isdigit() else -1)

            return spin, get, put, spin.valueChanged
        limit = field.length.max
        if limit is not None and limit > _LINE_EDIT_LIMIT:
            text = QPlainTextEdit(self)
            text.setTabChangesFocus(True)
            text.setFixedHeight(54)

            def enforce() -> None:
                content = text.toPlainText()
                if len(content) > limit:
                    text.setPlainText(content[:limit])  # the widget enforces the limit

            text.textChanged.connect(enforce)
            return text, text.toPlainText, text.setPlainText, text.textChanged
        line = QLineEdit(self)
        if limit is not None:
            line.setMaxLength(limit)
        if field.necessity is Necessity.REQUIRED:
            line.setPlaceholderText("required")
        if field.sensitive == "cvv":
            line.setEchoMode(QLineEdit.EchoMode.Password)
        if field.type in (FieldType.NUMERIC, FieldType.LONG):
            line.setInputMethodHints(Qt.InputMethodHint.ImhDigitsOnly)
        return line, line.text, line.setText, line.textChanged

    @staticmethod
    def _set_combo(combo: QComboBox):  # type: ignore[no-untyped-def]
        def put(text: str) -> None:
            index = combo.findText(text)
            combo.setCurrentIndex(index)

        return put

    # -- API ---------------------------------------------------------------------------
    @property
    def editor(self) -> QWidget:
        widget: QWidget = self._editor
        return widget

    def text(self) -> str:
        return str(self._get())

    def add_button(self, button: QWidget) -> None:
        """Put a helper button (generate, reveal) between the editor and the state mark."""
        self._top.insertWidget(self._top.count() - 1, button)

    def set_text(self, text: str) -> None:
        if text != self.text():
            self._set(text)

    def set_state(self, state: str, message: str = "") -> None:
        """Show "required", "fine", "warning", "error" or "" (nothing to say)."""
        if state == self.state and message == self._message:
            return  # repainting unchanged rows is what makes typing slow
        self.state, self._message = state, message
        colour = state_colour(state or "required", self.palette()).name()
        self.mark.setText(_GLYPHS.get(state, ""))
        self.mark.setStyleSheet(f"color: {colour}; font-weight: bold;")
        self.mark.setToolTip(message or state)
        self.message.setText(message)
        self.message.setStyleSheet(f"color: {colour};")
        self.message.setVisible(bool(message))
        self._editor.setAccessibleDescription(
            f"{self.field.meaning} {message}".strip() if message else self.field.meaning
        )
