"""No accidental double payout: the window refuses a client_orderid the gateway accepted, asks
before resending one whose outcome is unknown, and says when it resends a rejected one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from console.ui.main_window import MainWindow
from tests.helpers.history_data import answered, prepared_for

ACCEPTED_NOTE = "Already sent and accepted at"


def _requests(window: MainWindow) -> int:
    return int(window.session.sandbox.sandbox.stats.requests)


def _orders(window: MainWindow, client_orderid: str) -> int:
    """Orders the sandbox holds for this id, through its control path."""
    handle = window.session.sandbox
    found = requests.get(f"{handle.control_url}/orders", timeout=10).json()
    return sum(1 for o in found if o["client_orderid"] == client_orderid)


def _send_and_wait(qtbot: Any, window: MainWindow) -> Any:
    shown_before = window.last_outcome
    window.panel.send_button.click()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    return window.last_outcome


def _payout(window: MainWindow, client_orderid: str) -> None:
    window.show_command("payout-check")
    window.fill_example()
    window.form.rows["client_orderid"].set_text(client_orderid)


def _try_every_way(qtbot: Any, window: MainWindow) -> None:
    """Button, Ctrl+Enter, the Send action and a direct call; then time for anything to go."""
    shown_before = window.last_outcome
    window.panel.send_button.click()
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    window.actions_by_name["send"].trigger()
    window.send()
    qtbot.wait(400)
    assert window.last_outcome is shown_before
    assert not window.sender_.sending


def _answer(accept: str | None, seen: list[QMessageBox]) -> None:
    """Press the button with these words (None: Cancel) on the next question."""

    def run() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, run)
            return
        seen.append(box)
        if accept is None:
            box.button(QMessageBox.StandardButton.Cancel).click()
        else:
            next(b for b in box.buttons() if b.text() == accept).click()

    QTimer.singleShot(20, run)


def test_an_accepted_payout_is_not_sent_again_until_the_id_changes(
    qtbot: Any, window: MainWindow
) -> None:
    _payout(window, "double-1")
    first = _send_and_wait(qtbot, window)
    assert str(first.result) == "accepted"
    gateway_id = first.response.get("gateway-order-id")
    assert not window.panel.send_button.isEnabled()
    assert window.panel.guard.note.isVisible()
    note = window.panel.guard.note.text()
    assert ACCEPTED_NOTE in note
    assert f"(gateway order {gateway_id})" in note
    assert "Send is off." in note
    # what to do instead: the button beside Send, its tooltip with the core's words
    assert window.panel.guard.new_id_button.isVisible()
    assert "use a new client_orderid (Ctrl+G)" in window.panel.guard.new_id_button.toolTip()

    before = _requests(window)
    _try_every_way(qtbot, window)
    assert _requests(window) == before  # nothing reached the sandbox
    assert _orders(window, "double-1") == 1
    assert ACCEPTED_NOTE in window.panel.guard.note.text()

    # another id typed by hand: sendable; the accepted one typed again: off again
    row = window.form.rows["client_orderid"]
    row.set_text("double-2")
    assert window.panel.send_button.isEnabled()
    assert not window.panel.guard.note.isVisible()
    row.set_text("double-1")
    assert not window.panel.send_button.isEnabled()
    assert window.panel.guard.note.isVisible()

    # the one-click way out
    window.panel.guard.new_id_button.click()
    fresh = window.form.values()["client_orderid"]
    assert fresh != "double-1"
    assert window.panel.send_button.isEnabled()
    assert not window.panel.guard.new_id_button.isVisible()
    assert str(_send_and_wait(qtbot, window).result) == "accepted"
    assert _requests(window) == before + 1
    assert _orders(window, fresh) == 1


def test_an_accepted_recurring_profile_is_not_created_twice(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    window.fill_example()
    window.form.rows["client-orderid"].set_text("profile-once")
    assert str(_send_and_wait(qtbot, window).result) == "accepted"
    before = _requests(window)
    _try_every_way(qtbot, window)
    assert _requests(window) == before
    assert "For another recurring profile" in window.panel.guard.new_id_button.toolTip()
    window.actions_by_name["generate"].trigger()  # Ctrl+G
    assert window.panel.send_button.isEnabled()


def test_an_unknown_outcome_asks_and_cancel_sends_nothing(qtbot: Any, window: MainWindow) -> None:
    window.session.sandbox.set_faults("payout-check:drop")  # processed, the answer is lost
    _payout(window, "lost-1")
    assert str(_send_and_wait(qtbot, window).result) == "unknown"
    window.session.sandbox.set_faults(None)
    assert window.panel.send_button.isEnabled()  # allowed, but not without a question

    before = _requests(window)
    seen: list[QMessageBox] = []
    _answer(None, seen)
    window.send()
    assert seen, "no question was asked"
    text = seen[0].text()
    assert "The last send of lost-1 has an unknown outcome. Check its status first" in text
    assert "same client_orderid so the gateway can refuse a duplicate" in text
    assert "Check status" in [b.text() for b in seen[0].buttons()]
    assert seen[0].defaultButton() is seen[0].button(QMessageBox.StandardButton.Cancel)
    qtbot.wait(300)
    assert _requests(window) == before
    assert "Cancelled: nothing sent." in window.panel.result.text()

    _answer("Resend with the same client_orderid", seen)
    outcome = _send_and_wait(qtbot, window)
    assert len(seen) == 2
    assert _requests(window) == before + 1  # once
    assert outcome.prepared.value("client_orderid") == "lost-1"
    assert _orders(window, "lost-1") == 1  # the gateway refused the duplicate
    assert "after an unknown outcome" in window.panel.result.text()


def test_check_status_from_the_question_sends_no_payout_and_learns_the_outcome(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window(sandbox_options={"callback_delay": 0})  # final at once
    window.session.sandbox.set_faults("payout-check:drop")
    _payout(window, "lost-2")
    window.form.load({"@callback": "none"})  # the status check must be what tells
    assert str(_send_and_wait(qtbot, window).result) == "unknown"
    window.session.sandbox.set_faults(None)
    seen: list[QMessageBox] = []
    _answer("Check status", seen)
    window.send()
    assert seen
    # the status answer (approved) reaches the journal: the id counts as accepted now
    qtbot.waitUntil(lambda: not window.panel.send_button.isEnabled(), timeout=15_000)
    assert ACCEPTED_NOTE in window.panel.guard.note.text()
    assert _orders(window, "lost-2") == 1


def test_a_rejected_id_is_resent_without_a_question_and_the_result_says_so(
    qtbot: Any, window: MainWindow, rsa_key: rsa.RSAPrivateKey
) -> None:
    env = window.session.environment
    assert env is not None
    hooks = window.journal.history.journal(env.name)
    req = prepared_for(env, rsa_key, client_orderid="was-rejected")
    hooks.after_answer(
        hooks.before_send(req),
        answered(req, "type=validation-error&serial-number=s-1&error-message=bad&error-code=2"),
    )
    _payout(window, "was-rejected")
    assert window.panel.send_button.isEnabled()
    outcome = _send_and_wait(qtbot, window)  # no question: a dialog here would hang the test
    assert str(outcome.result) == "accepted"
    assert "Sent again: the gateway rejected was-rejected at" in window.panel.result.text()


def test_after_a_restart_the_accepted_id_is_still_refused(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    first = make_window()
    _payout(first, "restart-1")
    assert str(_send_and_wait(qtbot, first).result) == "accepted"
    first.close()

    window = make_window()  # same profile: same journal, drafts and environment
    window.show_command("payout-check")
    # the draft keeps the id: refused as soon as the journal is read, before any press
    qtbot.waitUntil(window.panel.guard.note.isVisible, timeout=10_000)
    assert ACCEPTED_NOTE in window.panel.guard.note.text()
    _payout(window, "restart-1")  # card data typed again (it is never kept)
    assert not window.panel.send_button.isEnabled()
    before = _requests(window)
    _try_every_way(qtbot, window)
    assert _requests(window) == before


def test_one_line_says_why_send_is_off_never_ready_to_send(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    window.form.rows["client_orderid"].set_text("why-off-1")
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert not window.panel.send_button.isEnabled()  # accepted: the same id is not sent again
    panel = window.panel
    shown = [w.text() for w in (panel.summary.headline, panel.guard.note) if w.isVisibleTo(panel)]
    assert len(shown) == 1  # one line, not "Send is off…" and "Already sent…" saying it twice
    assert "Ready to send" not in shown[0]
    assert "Already sent and accepted" in shown[0]
    assert "Send is off" in shown[0]
    assert panel.guard.new_id_button.isVisibleTo(panel)  # what to do, beside Send
    assert "Ctrl+G" in panel.guard.new_id_button.toolTip()


def test_an_accepted_id_with_a_warning_never_says_ready_to_send(
    qtbot: Any, window: MainWindow
) -> None:
    window.fill_example()
    window.form.load({"client_orderid": "why-off-2", "@callback": "none"})  # a warning stays
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    panel = window.panel
    assert not panel.send_button.isEnabled()
    assert panel.summary.problems  # the callback warning
    assert "Ready to send" not in panel.summary.headline.text()
    # why Send is off is said once, by the line above Send, beside the list of notes
    shown = [w.text() for w in (panel.summary.headline, panel.guard.note) if w.isVisibleTo(panel)]
    assert sum("accepted" in text for text in shown) == 1, shown  # not twice
    assert sum("Send is off" in text for text in shown) == 1, shown
    assert "Ready to send" not in " ".join(shown)
    assert panel.summary.list.isVisibleTo(panel)
