"""The history dock's size and columns: room for the form, the main columns without
scrolling sideways, and the layout remembered across restarts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt

from console.core.history import COLUMNS
from console.ui.history.pane import FIRST_COLUMNS
from console.ui.main_window import MainWindow
from tests.ui.journal_helpers import send_payout, settle, shown_rows


def test_history_opens_at_about_a_third_of_the_window(qtbot: Any, window: MainWindow) -> None:
    window.resize(1366, 900)
    dock = window.journal.history_dock
    assert not dock.isVisible()  # the form has the room until the history is asked for
    dock.toggleViewAction().trigger()
    settle(qtbot)
    assert dock.isVisible()
    assert 0.28 * window.height() <= dock.height() <= 0.42 * window.height()
    assert window.form.scroller.viewport().height() >= 200  # the form is not squeezed away


def test_main_columns_fit_without_scrolling_sideways(qtbot: Any, window: MainWindow) -> None:
    window.resize(1366, 768)
    send_payout(qtbot, window, "columns-1")
    pane = window.journal.pane
    window.journal.history_dock.show()
    shown_rows(qtbot, pane, 1)
    settle(qtbot)
    header = pane.table.horizontalHeader()
    names = [name for name, _title in COLUMNS]
    room = pane.table.viewport().width()
    for position, name in enumerate(FIRST_COLUMNS):
        column = names.index(name)
        assert header.visualIndex(column) == position, name
        right = header.sectionViewportPosition(column) + header.sectionSize(column)
        assert right <= room, f"{name} needs sideways scrolling ({right} > {room})"
        text = pane.model.index(0, column).data()
        width = pane.table.fontMetrics().horizontalAdvance(str(text))
        assert width < header.sectionSize(column), f"{name}: {text!r} is cut off"


def test_dock_sizes_are_remembered_across_restarts(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    first = make_window()
    first.resize(1366, 768)
    dock = first.journal.history_dock
    dock.show()
    settle(qtbot)
    first.resizeDocks([dock], [330], Qt.Orientation.Vertical)
    first.resizeDocks([first.inspector], [380], Qt.Orientation.Horizontal)
    settle(qtbot)
    left = (dock.height(), first.inspector.width())
    first.close()  # the layout is written with the drafts

    again = make_window()
    again.resize(1366, 768)
    history = again.journal.history_dock
    settle(qtbot)
    assert history.isVisible()  # open again without asking
    assert abs(history.height() - left[0]) <= 12
    assert abs(again.inspector.width() - left[1]) <= 12
