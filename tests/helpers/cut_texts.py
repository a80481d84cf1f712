"""Texts a person sees cut: a label, a choice or a button narrower than its text, or a tab
bar that needs scroll arrows."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QLabel, QTabBar, QWidget


def cut_texts(root: QWidget) -> list[str]:
    """What is cut among the visible labels, buttons and tab bars under ``root``."""
    cut: list[str] = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or widget.visibleRegion().isEmpty():
            continue
        if isinstance(widget, QLabel) and widget.text() and not widget.wordWrap():
            if widget.width() < widget.minimumSizeHint().width():
                cut.append(f"label {widget.text()!r}: {widget.width()} px")
        elif isinstance(widget, QAbstractButton) and widget.text():
            if widget.width() < widget.sizeHint().width():
                cut.append(f"{type(widget).__name__} {widget.text()!r}: {widget.width()} px")
        elif isinstance(widget, QTabBar):
            needed = sum(widget.tabSizeHint(i).width() for i in range(widget.count()))
            if widget.width() < needed:
                tabs = [widget.tabText(i) for i in range(widget.count())]
                cut.append(f"tabs {tabs}: {widget.width()} of {needed} px")
    return cut
