"""Rows the payout form builds only when a choice first shows them behave as if always there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget

from console.core.spec import validate
from console.ui.forms.payout_form import PayoutForm
from console.ui.main_window import MainWindow


def _payout(window: MainWindow) -> PayoutForm:
    form = window.forms["payout-check"]
    assert isinstance(form, PayoutForm)
    return form


def _tab_stops(qtbot: Any, window: MainWindow, count: int) -> list[str]:
    """What Tab reaches, starting in client_orderid (object or accessible names)."""
    window.activateWindow()
    qtbot.waitActive(window)
    _payout(window).rows["client_orderid"].editor.setFocus()
    seen: list[str] = []
    for _ in range(count):
        widget = QApplication.focusWidget()
        assert isinstance(widget, QWidget)
        seen.append(widget.objectName() or widget.accessibleName())
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return seen


def test_bank_draft_fills_the_bank_rows_when_bank_is_chosen(
    make_window: Callable[..., MainWindow],
) -> None:
    window = make_window()
    form = _payout(window)
    form.receiver.set_key("bank")
    form.rows["account_number"].set_text("40817810099910004312")
    form.rows["bank_bic"].set_text("044525225")
    form.receiver.set_key("card")  # typed, then hidden: kept in the draft, never sent
    window.close()

    again = make_window()
    form = _payout(again)
    assert form.receiver.key() == "card"
    assert form.draft()["account_number"] == "40817810099910004312"
    assert "account_number" not in form.values()
    form.receiver.set_key("bank")
    assert form.rows["account_number"].isVisibleTo(form)
    assert form.rows["account_number"].text() == "40817810099910004312"
    assert form.values()["bank_bic"] == "044525225"
    assert not any("account_number" in p.fields for p in validate("payout-check", form.values()))


def test_loading_with_clear_empties_rows_not_shown_yet(window: MainWindow) -> None:
    form = _payout(window)
    form.load({"ewallet_wallet": "W-1", "@receiver": "card"})
    form.load({"amount": "1.00"}, clear=True)
    assert "ewallet_wallet" not in form.draft()
    form.receiver.set_key("ewallet")
    assert form.rows["ewallet_wallet"].text() == ""


def test_tab_follows_what_the_eye_sees_also_for_rows_shown_later(
    qtbot: Any, window: MainWindow
) -> None:
    form = _payout(window)
    form.receiver.set_key("bank")
    form.redirect.set_key("pair")
    shown = [f.name for f in form.command.fields if form.is_active(f.name)]
    stops = _tab_stops(qtbot, window, len(shown) + 2)  # + the Generate and Skip buttons
    assert sorted(stops) == sorted(
        [f"field:{n}" for n in shown] + ["Generate client_orderid", "skip-to-send:bank"]
    )
    # top to bottom as shown, whatever order the contract lists or the rows were built in
    heights = [_top(form, name) for name in stops]
    assert heights == sorted(heights)


def _top(form: PayoutForm, stop: str) -> int:
    if stop.startswith("skip-to-send:"):  # under its section
        found = form.findChild(QWidget, stop)
        assert found is not None
        return found.mapTo(form.content, QPoint(0, 0)).y()
    name = stop.removeprefix("field:").removeprefix("Generate ")
    return form.rows[name].mapTo(form.content, QPoint(0, 0)).y()
