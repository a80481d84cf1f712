"""What a screen reader hears when a status changes: Qt's accessibility announcements.

A status line (the last outcome, why Send is off) is a label with no fixed accessible name,
so its text is what a screen reader reads and Qt tells it when the text changes; an outcome
or a question that must be heard at once is announced as well.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QTextDocument


def plain_text(rich: str) -> str:
    """A label's rich text as it is read: the words, on one line."""
    doc = QTextDocument()
    doc.setHtml(rich)
    return " ".join(doc.toPlainText().split())


def announce(source: QObject, text: str, *, alert: bool = False) -> None:
    """Have a screen reader say ``text`` (rich text allowed): after what it is saying now,
    or at once for an ``alert`` (a question about real money)."""
    words = plain_text(text)
    if not words:
        return
    event = QAccessibleAnnouncementEvent(source, words)
    politeness = QAccessible.AnnouncementPoliteness
    event.setPoliteness(politeness.Assertive if alert else politeness.Polite)
    QAccessible.updateAccessibility(event)
