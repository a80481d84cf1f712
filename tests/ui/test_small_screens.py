"""The window on small laptop screens: it fits, and the form and Send stay reachable."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QSplitter, QWidget

from console.ui.forms.payout_form import PayoutForm
from console.ui.forms.recurring_form import RecurringForm
from console.ui.main_window import MainWindow
from tests.ui.journal_helpers import settle

SMALL_SCREENS = [(1024, 700), (1366, 768)]


def fully_shown(widget: QWidget, window: MainWindow) -> bool:
    """Shown, not clipped by a scroll area or a splitter, and inside the window."""
    if not widget.isVisible() or widget.visibleRegion().boundingRect() != widget.rect():
        return False
    top_left = widget.mapTo(window, QPoint(0, 0))
    return window.rect().contains(top_left) and window.rect().contains(
        top_left + QPoint(widget.width() - 1, widget.height() - 1)
    )


def first_field(window: MainWindow) -> QWidget:
    """The editor of the topmost row the form shows."""
    form = window.form
    rows = [r for r in form.rows.values() if r.isVisibleTo(form.content)]
    top = min(rows, key=lambda r: r.mapTo(form.content, QPoint(0, 0)).y())
    return top.editor


def _settle(qtbot: Any, window: MainWindow, size: tuple[int, int]) -> None:
    window.resize(*size)
    settle(qtbot)


@pytest.mark.parametrize("size", SMALL_SCREENS)
def test_every_form_fits_a_small_screen_with_send_and_first_field_visible(
    qtbot: Any, window: MainWindow, size: tuple[int, int]
) -> None:
    for command in window.forms:
        window.show_command(command)
        window.fill_example()
        _settle(qtbot, window, size)
        assert window.width() <= size[0], command
        assert window.height() <= size[1], command
        assert window.inspector.isVisible()
        assert fully_shown(window.panel.send_button, window), command
        assert fully_shown(first_field(window), window), command


def test_recurring_preview_moves_below_the_fields_when_narrow(
    qtbot: Any, window: MainWindow
) -> None:
    window.show_command("create-recurring-payment")
    form = window.form
    assert isinstance(form, RecurringForm)
    _settle(qtbot, window, (1024, 700))
    split = form.findChild(QSplitter, "schedule-split")
    assert split is not None
    preview_top = form.preview.mapTo(form, QPoint(0, 0))
    fields_top = form.scroller.mapTo(form, QPoint(0, 0))
    assert preview_top.y() > fields_top.y()  # below, not beside
    assert form.preview.width() >= form.scroller.width() - 20  # the form's whole width
    # the fields are not cut off sideways: no horizontal scroll bar is needed
    qtbot.waitUntil(lambda: form.scroller.horizontalScrollBar().maximum() == 0, timeout=2000)
    assert form.scroller.viewport().height() >= 250  # the fields keep the larger part
    assert fully_shown(form.preview.strip, window)
    _settle(qtbot, window, (1600, 1000))
    beside = form.preview.mapTo(form, QPoint(0, 0))
    assert beside.x() > form.scroller.mapTo(form, QPoint(0, 0)).x()


def test_the_history_dock_open_still_fits_a_small_screen(qtbot: Any, window: MainWindow) -> None:
    journal = window.journal
    journal.history_dock.show()
    _settle(qtbot, window, (1024, 700))
    assert window.width() <= 1024
    assert window.height() <= 700
    assert fully_shown(window.panel.send_button, window)
    assert fully_shown(journal.pane.table, window)
    assert window.inspector.width() <= 1024 * 35 // 100  # the form keeps most of the width


def test_a_layout_from_a_large_screen_keeps_its_proportions_on_a_small_one(
    qtbot: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtCore import Qt

    from console.ui.window import layout

    big = make_window()
    _settle(qtbot, big, (1600, 1000))
    big.resizeDocks([big.inspector], [553], Qt.Orientation.Horizontal)  # dragged wider
    settle(qtbot)
    share = big.inspector.width() / big.width()
    assert 0.33 < share < 0.37
    big.close()  # the layout is kept with the drafts
    monkeypatch.setattr(layout, "DEFAULT_SIZE", (1024, 668))  # the next start: a small screen
    small = make_window()
    settle(qtbot)
    assert small.width() == 1024
    assert abs(small.inspector.width() / small.width() - share) < 0.03  # not 553 px (54%)
    assert small.centralWidget().width() >= layout.FORM_MIN_WIDTH
    assert fully_shown(small.form.rows["client_orderid"].editor, small)


def test_no_dock_takes_the_forms_room_below_its_minimum(qtbot: Any, window: MainWindow) -> None:
    from PySide6.QtCore import Qt

    from console.ui.window import layout

    _settle(qtbot, window, (1024, 700))
    window.resizeDocks([window.inspector], [700], Qt.Orientation.Horizontal)  # dragged wide
    settle(qtbot)
    assert window.centralWidget().width() >= layout.FORM_MIN_WIDTH
    assert fully_shown(window.form.rows["client_orderid"].editor, window)
    _settle(qtbot, window, (1600, 1000))
    _settle(qtbot, window, (1024, 700))  # and back: the form still keeps its minimum
    assert window.centralWidget().width() >= layout.FORM_MIN_WIDTH
    assert fully_shown(window.panel.send_button, window)


def test_an_answer_does_not_widen_the_inspector(qtbot: Any, window: MainWindow) -> None:
    from tests.ui.journal_helpers import send_form

    _settle(qtbot, window, (1024, 700))
    for command in ("create-recurring-payment", "payout-check", "create-card-ref", "status"):
        window.show_command(command)
        window.fill_example()
        settle(qtbot)
        before = (window.inspector.width(), window.centralWidget().width())
        send_form(qtbot, window)
        settle(qtbot)
        assert (window.inspector.width(), window.centralWidget().width()) == before, command


@pytest.fixture
def desktop_font() -> Any:
    """The font of a desktop (an 11 point sans), wider than the offscreen platform's."""
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    before = QApplication.font()
    bigger = QFont(before)
    bigger.setPointSizeF(11)
    QApplication.setFont(bigger)
    yield
    QApplication.setFont(before)


def test_no_text_is_cut_at_a_layout_restored_from_another_screen(
    qtbot: Any, make_window: Any, monkeypatch: pytest.MonkeyPatch, desktop_font: Any
) -> None:
    from PySide6.QtCore import Qt

    from console.ui.window import layout
    from tests.helpers.cut_texts import cut_texts

    monkeypatch.setattr(layout, "DEFAULT_SIZE", (1024, 668))
    small = make_window()
    small.journal.history_dock.show()
    small.resizeDocks([small.inspector], [700], Qt.Orientation.Horizontal)  # dragged wide
    settle(qtbot)
    small.close()  # the layout is kept with the drafts
    for size in ((1600, 968), (1024, 668)):
        monkeypatch.setattr(layout, "DEFAULT_SIZE", size)
        window = make_window()
        settle(qtbot)
        assert window.journal.history_dock.isVisible()
        for command in window.forms:
            window.show_command(command)
            settle(qtbot)
            assert cut_texts(window) == [], (size, command)
        window.close()


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
def test_choosing_bank_account_moves_no_field_above_the_receivers(
    qtbot: Any, window: MainWindow, size: tuple[int, int]
) -> None:
    # the person picks Bank account, then clicks into Amount where it was a moment ago
    form = window.forms["payout-check"]
    assert isinstance(form, PayoutForm)
    window.show_command("payout-check")
    window.fill_example()
    _settle(qtbot, window, size)
    for scroll in (0, 60):
        form.receiver.set_key("card")
        form.scroller.verticalScrollBar().setValue(scroll)
        settle(qtbot)
        amount = form.rows["amount"].editor
        before = amount.mapTo(window, QPoint(0, 0))
        combo = form.receiver.combo
        combo.setCurrentIndex(combo.findText("Bank account"))
        settle(qtbot)
        assert amount.mapTo(window, QPoint(0, 0)) == before, scroll
        assert form.rows["account_number"].isVisible()
