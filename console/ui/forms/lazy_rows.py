"""Rows a form builds only when they are first shown or asked for.

A form's choices hide many rows at first (every receiver type but one, the callback and
redirect addresses not chosen). Building those rows at start-up costs time nobody sees, so
:class:`LazyRows` builds each one the first time it is needed. Qt appends a widget added
later to the end of the window's tab order, so the form puts every stop back in the order
the eye reads them with :func:`visual_chain` and :func:`place_in_tab_order`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLayout, QWidget

from console.ui.forms.field_widgets import FieldRow


class LazyRows(Mapping[str, FieldRow]):
    """The form's rows by wire name, in contract order; a row not built yet is built on access.

    Iterating lists every name (as if every row existed); :meth:`built` gives only the rows
    that exist, for the form's own loops that must not build hidden rows.
    """

    def __init__(self, names: Sequence[str], build: Callable[[str], FieldRow]) -> None:
        self.names = tuple(names)
        self._build = build
        self._built: dict[str, FieldRow] = {}

    def __getitem__(self, name: str) -> FieldRow:
        row = self._built.get(name)
        if row is not None:
            return row
        if name not in self.names:
            raise KeyError(name)
        return self._build(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def add(self, name: str, row: FieldRow) -> None:
        """Record a row the form has just built."""
        self._built[name] = row

    def is_built(self, name: str) -> bool:
        return name in self._built

    def built(self) -> dict[str, FieldRow]:
        """The rows that exist, in contract order."""
        return {n: self._built[n] for n in self.names if n in self._built}


def visual_chain(root: QWidget) -> list[QWidget]:
    """The widgets Tab stops at under ``root``, in the order the eye reads them: the order
    of the layouts, top to bottom and left to right (hidden ones too: Tab skips them)."""
    found: list[QWidget] = []

    def visit(widget: QWidget) -> None:
        if widget.focusProxy() is not None:
            # a row or composite editor that hands its focus on: it moves with its insides,
            # or Tab would come back to it from where it was
            found.append(widget)
        elif widget.focusPolicy() & Qt.FocusPolicy.TabFocus and not isinstance(widget, QLabel):
            found.append(widget)
            return  # its insides (a combo's line edit, a text edit's viewport) are its own
        inner = widget.layout()
        if inner is not None:
            walk(inner)

    def walk(layout: QLayout) -> None:
        for i in range(layout.count()):
            item = layout.itemAt(i)
            if item is None:
                continue
            child, nested = item.widget(), item.layout()
            if child is not None:
                visit(child)
            elif nested is not None:
                walk(nested)

    visit(root)
    return found


def place_in_tab_order(after: QWidget, widgets: Sequence[QWidget]) -> None:
    """Move ``widgets`` (in their order) to just after ``after`` in the tab chain.

    Every widget moves, also those Tab never stops at: a row or composite editor that hands
    its focus to a child would otherwise stay behind at the end of the chain, and Tab would
    jump back into it from there. ``QWidget.setTabOrder`` only moves widgets that take focus
    themselves and have no focus proxy, so each is made so until every move is done (setting
    a proxy again moves its widget to just before its first child, so that comes last).
    """
    lifted = [(w, w.focusPolicy(), w.focusProxy()) for w in (after, *widgets)]
    for widget, policy, proxy in lifted:
        if proxy is not None:
            widget.setFocusProxy(None)  # type: ignore[arg-type]  # None removes it
        if policy == Qt.FocusPolicy.NoFocus:
            widget.setFocusPolicy(Qt.FocusPolicy.TabFocus)
    try:
        previous = after
        for widget in widgets:
            QWidget.setTabOrder(previous, widget)
            previous = widget
    finally:
        for widget, policy, proxy in lifted:
            widget.setFocusPolicy(policy)
            if proxy is not None:
                widget.setFocusProxy(proxy)
