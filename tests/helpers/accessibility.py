"""What a screen reader meets in a window, read through Qt's accessibility interfaces in
this process: a widget's spoken name, where the keyboard's cursor is, and the controls
whose name leaves out what the screen shows."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from console.ui.speech import plain_text


def read(widget: QWidget) -> str:
    """What a screen reader reads for a widget: its accessible name."""
    interface = QAccessible.queryAccessibleInterface(widget)
    assert interface is not None
    return str(interface.text(QAccessible.Text.Name))


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keyboard focus"
    return widget


def in_sight(widget: QWidget) -> bool:
    """Shown and not scrolled away: some of it is on the screen."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def describe(widget: QWidget) -> str:
    return widget.objectName() or read(widget) or type(widget).__name__


INTERACTIVE = (
    QAbstractButton,
    QLineEdit,
    QComboBox,
    QAbstractSpinBox,
    QPlainTextEdit,
    QTextEdit,
    QAbstractItemView,
    QTabBar,
)
_INSIDE = (QComboBox, QAbstractSpinBox, QAbstractItemView, QTabBar)  # their parts are theirs


def words(text: str) -> str:
    """A visible label as words: no mnemonic &, no required *, no trailing colon or …."""
    text = re.sub(r"<[^>]+>", "", text).replace("&&", "\0").replace("&", "").replace("\0", "&")
    return text.replace("*", "").strip().rstrip(":…").strip()


def unclear_controls(root: QWidget) -> list[str]:
    """Every control a person can use under ``root`` whose spoken name is missing, leaves
    out its visible label, or is its current value or a glyph."""
    labels = {id(b): lab for lab in root.findChildren(QLabel) if (b := lab.buddy()) is not None}
    found: list[str] = []
    for w in root.findChildren(QWidget):
        if not isinstance(w, INTERACTIVE) or not w.isVisibleTo(root):
            continue
        if isinstance(w.parentWidget(), _INSIDE) or w.focusPolicy() == Qt.FocusPolicy.NoFocus:
            continue
        name = read(w)
        interface = QAccessible.queryAccessibleInterface(w)
        # a screen reader says a control's labels (Qt: on Linux a combo box's name is its
        # value, and its label relation says what it is)
        labelled = [str(i.text(QAccessible.Text.Name)) for i, _ in interface.relations()]
        said = " ".join([name, *labelled])
        what = f"{type(w).__name__} {w.objectName() or '?'} named {name!r}"
        visible = ""
        if isinstance(w, QAbstractButton) and w.text():
            visible = words(w.text())
        elif id(w) in labels:
            visible = words(labels[id(w)].text())
        if not said.strip() or (name.strip() in "•✓!✕#" and not labelled):
            found.append(f"{what}: no name")
        elif visible and visible.lower() not in said.lower():
            found.append(f"{what}: its visible label {visible!r} is not in it")
        elif isinstance(w, QComboBox) and not labelled:
            found.append(f"{what}: read by its current value, nothing says what it is")
    for label in root.findChildren(QLabel):
        shown = plain_text(label.text()) if label.text() else ""
        fixed = label.accessibleName()
        glyph = len(shown) == 1  # a state mark: its name is its words
        if shown and fixed and not glyph and label.isVisibleTo(root) and plain_text(fixed) != shown:
            found.append(f"QLabel {fixed!r}: a fixed name replaces its text {shown[:60]!r}")
    return found
