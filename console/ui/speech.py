"""What a screen reader hears when a status changes: Qt's accessibility announcements.

A status line (the last outcome, why Send is off) is a label with no fixed accessible name,
so its text is what a screen reader reads and Qt tells it when the text changes; an outcome
or a question that must be heard at once is announced as well.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QBoxLayout, QLabel, QWidget


def plain_text(rich: str) -> str:
    """A label's rich text as it is read: the words, on one line."""
    # boundary: PySide6 makes QTextDocument's enums when the class is first imported (about
    # 2 ms); nothing is read out before the window's first picture
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setHtml(rich)
    return " ".join(doc.toPlainText().split())


def announce(source: QObject, text: str, *, alert: bool = False) -> None:
    """Have a screen reader say ``text`` (rich text allowed): after what it is saying now,
    or at once for an ``alert`` (a question about real money)."""
    words = plain_text(text)
    if not words:
        return
    # boundary: PySide6 makes QAccessible's thirteen enums when the class is first imported
    # (about 3 ms); nothing is announced before the window's first picture
    from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

    event = QAccessibleAnnouncementEvent(source, words)
    politeness = QAccessible.AnnouncementPoliteness
    event.setPoliteness(politeness.Assertive if alert else politeness.Polite)
    QAccessible.updateAccessibility(event)


def label_unseen(control: QWidget, words: str, layout: QBoxLayout) -> QLabel:
    """A label a screen reader reads for a control whose purpose the screen shows another
    way (a value that says it, a row of buttons): Qt names a combo box on Linux by its
    current value, and only a label relation says what it is. Kept hidden, in ``layout``
    beside the control so the relation finds it."""
    label = QLabel(words)
    label.setBuddy(control)
    label.setVisible(False)
    layout.addWidget(label)
    return label
