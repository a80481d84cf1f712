"""Card numbers as people type them, and a card number that fails its check digit."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from console.ui.main_window import MainWindow
from tests.helpers.dialogs import answer_next_question


def _requests(window: MainWindow) -> int:
    return int(window.session.sandbox.sandbox.stats.requests)


def test_a_card_number_typed_in_groups_becomes_its_digits(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    row = window.form.rows["credit_card_number"]
    row.editor.setFocus()
    row.editor.clear()  # type: ignore[attr-defined]
    qtbot.keyClicks(row.editor, "4444 4444 4444 4448")  # as the sandbox hint shows it
    assert row.text() == "4444444444444448"
    qtbot.keyClick(row.editor, Qt.Key.Key_Tab)
    assert row.state == "fine"
    row.editor.setFocus()
    row.editor.clear()  # type: ignore[attr-defined]
    qtbot.keyClicks(row.editor, "4444-4444-4444-4448")
    assert row.text() == "4444444444444448"


def test_a_card_number_failing_luhn_is_sent_only_on_purpose(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    window.form.rows["credit_card_number"].set_text("4444444444444441")  # one digit off
    before = _requests(window)
    seen: list[str] = []
    answer_next_question(False, seen)
    window.send()
    qtbot.waitUntil(lambda: bool(seen), timeout=5_000)
    assert "Luhn" in seen[0]
    assert "4444444444444441" not in seen[0]  # masked in the question too
    qtbot.wait(200)
    assert _requests(window) == before
    assert "Cancelled" in window.panel.result.text()
    seen.clear()
    answer_next_question(True, seen)
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert _requests(window) == before + 1


def test_a_bank_payout_without_an_account_number_is_not_sent(
    qtbot: Any, window: MainWindow
) -> None:
    from console.ui.forms.payout_form import PayoutForm

    window.fill_example()
    form = window.form
    assert isinstance(form, PayoutForm)
    form.receiver.set_key("bank")
    form.rows["account_number"].set_text("")
    before = _requests(window)
    assert not window.panel.send_button.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert form.rows["account_number"].state == "error"
    assert "receiver" in form.rows["account_number"].message.full_text().lower()
    qtbot.wait(200)
    assert _requests(window) == before
