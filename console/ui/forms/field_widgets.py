"""One form row per contract field: the right editor for the type, its state and message.

Every editor is reduced to "text as typed" (``text()`` / ``set_text()``) because that is
what ``core.spec.validate`` reads; empty means "not given".
"""

from __future__ import annotations

import html

from PySide6.QtCore import QDate, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QCalendarWidget,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from console.core.money import card_number_digits
from console.core.spec.labels import label_for
from console.core.spec.model import Field, FieldType, Necessity
from console.ui.theme import state_colour

LABEL_WIDTH = 225
DATE_QT_FORMAT = "dd.MM.yyyy"
# QLineEdit refuses more than this; longer contract limits get a multi-line editor.
_LINE_EDIT_LIMIT = 32767
_GLYPHS = {"required": "•", "fine": "✓", "warning": "!", "error": "✕", "": ""}
# what the state mark says to a screen reader
_STATE_WORDS = {"required": "required", "fine": "valid", "warning": "warning", "error": "invalid"}


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


_WINDOW_KEYS = (Qt.Key.Key_E, Qt.Key.Key_H)
# The focus goes to another window (a dialog opening over the form), a menu or the menu bar:
# the person has not moved on from the field, whose problems stay calm until they do.
_STAYED = frozenset(
    {
        Qt.FocusReason.ActiveWindowFocusReason,
        Qt.FocusReason.PopupFocusReason,
        Qt.FocusReason.MenuBarFocusReason,
    }
)


def _card_digits_only(line: QLineEdit, text: str) -> None:
    """A card number typed or pasted in groups (``4444 4444 4444 4448``, dashes too) becomes
    its digits as the person types, in sight (the core's one spelling rule)."""
    digits = card_number_digits(text)
    if digits != text:
        cursor = line.cursorPosition()
        line.setText(digits)
        line.setCursorPosition(max(0, cursor - (len(text) - len(digits))))


class _MessageLine(QLabel):
    """The row's message on one line of its own, reserved even when empty, so a message
    that comes or goes never moves the fields below; a long one is elided (the full text is
    in the tooltip and in the problem list)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setFixedHeight(self.fontMetrics().height())
        self.setTextFormat(Qt.TextFormat.PlainText)

    def set_message(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(self.width() - 4, 20)
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, width)
        if shown != self.text():
            self.setText(shown)


class FieldRow(QWidget):
    """Label, editor, state mark and message for one field.

    ``left`` becomes True when the person has been in the field and moved on, or the value
    was put there whole (loaded, generated, chosen): only then may its problems show in red.
    """

    edited = Signal(str)  # the field name

    def __init__(self, field: Field, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field = field
        self.state = ""
        self._message = ""
        self.left = False
        self._setting = False
        self._editor, self._get, self._set, changed = self._make_editor(field)
        changed.connect(self._changed)
        tip = tooltip_for(field)  # built once: label and editor share it
        self._editor.setToolTip(tip)
        self._editor.setObjectName(f"field:{field.name}")
        if isinstance(self._editor, _DateEditor):  # the line inside is what takes the focus
            self._editor.line.setObjectName(f"field:{field.name}")
            self._editor.button.setAccessibleName(f"Pick a date for {label_for(field.name)}")

        # plain words first, the contract's wire name under them (beside the message line,
        # so it costs no height)
        self.required = field.necessity is Necessity.REQUIRED
        mark = " *" if self.required else ""
        self.label = QLabel(f"{html.escape(label_for(field.name), quote=False)}{mark}", self)
        self.label.setToolTip(tip)
        self.label.setBuddy(self._spoken)  # the label relation a screen reader follows
        self.label.setFixedWidth(LABEL_WIDTH)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.wire_name = QLabel(field.name, self)
        self.wire_name.setObjectName("wire-name")
        self.wire_name.setToolTip(tip)
        self.wire_name.setFixedWidth(LABEL_WIDTH)
        small = self.wire_name.font()
        small.setPointSizeF(max(small.pointSizeF() * 0.85, 6.0))
        self.wire_name.setFont(small)
        self.wire_name.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.mark = QLabel(self)
        self.mark.setObjectName("field-state")
        self.mark.setFixedWidth(16)
        self.mark.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message = _MessageLine(self)

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
        under = QHBoxLayout()  # the message stands under the editor, the wire name beside it
        under.setContentsMargins(0, 0, 0, 0)
        under.addWidget(self.wire_name)
        under.addWidget(self.message, 1)
        lay.addLayout(under)
        self._speak()
        self.setFocusProxy(self._editor)
        focus_target = getattr(self._editor, "line", self._editor)  # a date's line edit
        focus_target.installEventFilter(self)

    def _changed(self, *_args: object) -> None:
        if isinstance(self._editor, QComboBox) and not self._setting:
            self.left = True  # a choice is made whole
        self.edited.emit(self.field.name)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            # A line edit keeps Ctrl+E (end of line) and Ctrl+H (backspace) for itself on
            # Linux; in a form they belong to the window (Fill with example, History).
            ctrl = event.modifiers() == Qt.KeyboardModifier.ControlModifier
            if ctrl and event.key() in _WINDOW_KEYS:
                return True  # not taken by the editor: the window's shortcut runs
        if (
            event.type() == QEvent.Type.FocusOut
            and not self.left
            and isinstance(event, QFocusEvent)
            and event.reason() not in _STAYED
        ):
            self.left = True
            self.edited.emit(self.field.name)  # its problems may show in colour now
        return False

    def reset_left(self) -> None:
        """A fresh start: the person has not been here yet."""
        self.left = False

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
        # Nothing here cuts or refuses what a person types or pastes: the contract's lengths
        # and types are checked by the core, and a value that breaks them is shown as a
        # problem with the text kept as it is.
        limit = field.length.max
        if limit is not None and limit > _LINE_EDIT_LIMIT:
            text = QPlainTextEdit(self)
            text.setTabChangesFocus(True)
            text.setFixedHeight(54)
            return text, text.toPlainText, text.setPlainText, text.textChanged
        line = QLineEdit(self)
        if field.necessity is Necessity.REQUIRED:
            line.setPlaceholderText("required")
        if field.sensitive == "cvv":
            line.setEchoMode(QLineEdit.EchoMode.Password)
        if field.sensitive == "pan":
            line.textEdited.connect(lambda text: _card_digits_only(line, text))
        if field.type in (FieldType.NUMERIC, FieldType.LONG, FieldType.INT):
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
        """Put a whole value in (loaded, generated, restored): it counts as finished."""
        self.left = bool(text)
        if text != self.text():
            self._setting = True
            try:
                self._set(text)
            finally:
                self._setting = False

    def set_required(self, required: bool) -> None:
        """Mark the label with * when a value is needed (the contract's, or a choice's)."""
        if required != self.required:
            self.required = required
            mark = " *" if required else ""
            self.label.setText(f"{html.escape(label_for(self.field.name), quote=False)}{mark}")
            self._speak()

    def set_state(self, state: str, message: str = "") -> None:
        """Show "required", "fine", "warning", "error" or "" (nothing to say)."""
        if state == self.state and message == self._message:
            return  # repainting unchanged rows is what makes typing slow
        self.state, self._message = state, message
        self._paint_state()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_state()  # a new theme: the state colours of the new background

    def _paint_state(self) -> None:
        state, message = self.state, self._message
        colour = state_colour(state or "required", self.palette()).name()
        self.mark.setText(_GLYPHS.get(state, ""))
        self.mark.setStyleSheet(f"color: {colour}; font-weight: bold;")
        self.mark.setToolTip(message or state)
        self.message.set_message(message)
        self.message.setStyleSheet(f"color: {colour};")
        self.mark.setAccessibleName(_STATE_WORDS.get(state, ""))  # not "•" or "✓"
        self._speak()

    @property
    def _spoken(self) -> QWidget:
        """The widget a screen reader meets: a date's line edit, else the editor."""
        widget: QWidget = getattr(self._editor, "line", self._editor)
        return widget

    def _speak(self) -> None:
        """Name the editor by its visible label; its wire name, whether it is required or
        invalid (Qt has no state for either) and the message go in its description."""
        words = [self.field.name]
        if self.required:
            words.append("required")
        if self.state == "error":
            words.append(f"invalid: {self._message}" if self._message else "invalid")
        elif self._message:
            words.append(self._message)
        words.append(self.field.meaning)
        spoken = self._spoken
        spoken.setAccessibleName(label_for(self.field.name))
        spoken.setAccessibleDescription(". ".join(w.rstrip(".") for w in words if w) + ".")
