"""Sending from the real window to the real in-process sandbox, and the inspector."""

from __future__ import annotations

import dataclasses
import itertools
import time
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from console.core.environments import EnvKind
from console.ui.forms.payout_form import PayoutForm
from console.ui.main_window import MainWindow
from console.ui.theme import PRODUCTION_BG
from tests.helpers.dialogs import answer_next_question

PAN = "4444444444444448"
MASKED = "444444******4448"


def _requests(window: MainWindow) -> int:
    return int(window.session.sandbox.sandbox.stats.requests)


def _send_and_wait(qtbot: Any, window: MainWindow, timeout: int = 20_000) -> Any:
    shown_before = window.last_outcome
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=timeout)
    return window.last_outcome


def _field_rows(window: MainWindow) -> dict[str, tuple[str, str]]:
    table = window.inspector.response.fields
    return {
        table.item(r, 0).text(): (table.item(r, 1).text(), table.item(r, 2).text())
        for r in range(table.rowCount())
    }


def _param_rows(window: MainWindow) -> dict[str, str]:
    table = window.inspector.request.params
    return {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}


def test_payout_sent_decoded_and_masked_in_the_inspector(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    window.form.rows["client_orderid"].set_text("ui-payout-1")
    outcome = _send_and_wait(qtbot, window)
    assert str(outcome.result) == "accepted"
    assert "Accepted" in window.inspector.response.headline.text()
    fields = _field_rows(window)
    assert fields["merchant-order-id"][0] == "ui-payout-1"
    assert fields["gateway-order-id"][1] == "Order id assigned by the service."
    assert "HTTP 200" in window.inspector.response.status.text()
    # masked by default: request table, base string and curl
    params = _param_rows(window)
    assert params["credit_card_number"] == MASKED
    assert params["cvv2"] == "***"
    assert PAN not in window.inspector.signature.base.value()
    assert PAN not in window.inspector.request.curl.value()
    assert "%26\n" in window.inspector.signature.base.text.toPlainText()  # boundaries shown
    assert "\n" not in window.inspector.signature.base.value()  # Copy gives the exact string
    assert "never sent" in window.inspector.signature.hex.caption.text()
    # a deliberate reveal shows the real values, for this request only
    window.inspector.request.reveal.click()
    assert _param_rows(window)["credit_card_number"] == PAN
    assert PAN in window.inspector.request.curl.value()
    window.inspector.request.curl.copy()
    assert PAN in QApplication.clipboard().text()
    window.form.rows["client_orderid"].set_text("ui-payout-2")  # ui-payout-1 was accepted
    _send_and_wait(qtbot, window)
    assert not window.inspector.revealed
    assert _param_rows(window)["credit_card_number"] == MASKED


def test_authorization_header_and_oauth_params_shown(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    _send_and_wait(qtbot, window)
    sig = window.inspector.signature
    header = sig.authorization.value()
    assert header.startswith("OAuth oauth_consumer_key=")
    oauth = {sig.oauth.item(r, 0).text() for r in range(sig.oauth.rowCount())}
    assert oauth == {
        "oauth_consumer_key",
        "oauth_nonce",
        "oauth_signature_method",
        "oauth_timestamp",
        "oauth_version",
    }
    assert sig.base64.value()
    assert sig.hex.value()
    assert sig.hex.value() not in header


def test_card_ref_then_use_in_payout(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-card-ref")
    window.form.load({"client_orderid": "first-payment-1", "orderid": "9000001"})
    outcome = _send_and_wait(qtbot, window)
    assert str(outcome.result) == "accepted"
    rpi = outcome.response.get("recurring-payment-id")
    assert rpi
    assert window.panel.use_in_payout_button.isVisible()
    window.panel.use_in_payout_button.click()
    assert window.command == "payout-check"
    form = window.form
    assert isinstance(form, PayoutForm)
    assert form.receiver.key() == "card-ref"
    assert form.values()["card_recurring_payment_id"] == rpi
    assert "credit_card_number" not in form.values()


def test_recurring_profile_created(qtbot: Any, window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    window.fill_example()
    window.form.rows["client-orderid"].set_text("ui-profile-1")
    outcome = _send_and_wait(qtbot, window)
    assert str(outcome.result) == "accepted", outcome.summary
    assert "recurring-payment-id" in _field_rows(window)


def test_status_of_a_sent_payout(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    window.form.rows["client_orderid"].set_text("ui-status-1")
    first = _send_and_wait(qtbot, window)
    window.show_command("status")
    window.form.load(
        {"client_orderid": "ui-status-1", "orderid": first.response.get("gateway-order-id")},
        clear=True,
    )
    outcome = _send_and_wait(qtbot, window)
    assert outcome.response is not None
    assert outcome.response.http_status == 200


def test_wrong_key_is_explained_as_access_denied(qtbot: Any, window: MainWindow) -> None:
    env = window.session.environment
    assert env is not None
    window.session.use(env, rsa.generate_private_key(public_exponent=65537, key_size=2048))
    window.fill_example()
    outcome = _send_and_wait(qtbot, window)
    assert str(outcome.result) == "access-denied"
    text = window.inspector.response.headline.text()
    assert "403" in text
    assert "key" in text
    assert "403" in window.inspector.response.status.text()


def test_server_error_is_explained(qtbot: Any, window: MainWindow) -> None:
    window.session.sandbox.set_faults("500")
    window.fill_example()
    outcome = _send_and_wait(qtbot, window)
    assert str(outcome.result) == "gateway-failed"
    assert "failed" in window.inspector.response.headline.text()
    assert outcome.response.error_id
    assert outcome.response.error_id in window.inspector.response.raw.value()


def test_dropped_connection_is_outcome_unknown(qtbot: Any, window: MainWindow) -> None:
    window.session.sandbox.set_faults("drop")
    window.fill_example()
    outcome = _send_and_wait(qtbot, window)
    assert str(outcome.result) == "unknown"
    expected = "Outcome unknown: check the status before resending with the same client_orderid"
    assert expected in window.panel.result.text()
    assert expected in window.inspector.response.headline.text()


def test_slow_answer_keeps_window_responsive_and_sends_once(qtbot: Any, window: MainWindow) -> None:
    window.session.sandbox.set_faults("latency=1.5")
    window.fill_example()
    before = _requests(window)
    shown_before = window.last_outcome
    window.panel.send_button.click()
    assert window.sender_.sending
    assert not window.panel.send_button.isEnabled()
    assert window.panel.busy.isVisibleTo(window)
    # a second click, the shortcut and a direct call while pending send nothing more
    window.panel.send_button.click()
    window.actions_by_name["send"].trigger()
    window.send()
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    row = window.form.rows["amount"]
    row.set_text("10,5")
    assert row.state == "error"  # live validation still runs while the request is out
    row.set_text("10.50")
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    timer.stop()
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert len(ticks) > 20
    assert max(gaps) < 0.5  # the event loop never stalled while waiting
    assert _requests(window) == before + 1
    assert not window.panel.busy.isVisibleTo(window)
    # accepted: Send stays off for this client_orderid, on again for a new one
    assert not window.panel.send_button.isEnabled()
    window.actions_by_name["generate"].trigger()
    assert window.panel.send_button.isEnabled()


def _production(window: MainWindow) -> None:
    env = window.session.environment
    assert env is not None
    prod = dataclasses.replace(env, name="live", kind=EnvKind.PRODUCTION)
    window.session.use(prod, window.session.private_key)


def test_production_banner_and_confirmation_cancel_sends_nothing(
    qtbot: Any, window: MainWindow
) -> None:
    _production(window)
    assert "PRODUCTION" in window.banner.kind_label.text()
    assert PRODUCTION_BG in window.banner.styleSheet()
    window.fill_example()
    before = _requests(window)
    seen: list[str] = []
    answer_next_question(False, seen)
    window.send()
    assert seen
    assert "10.50" in seen[0]
    assert "USD" in seen[0]
    assert MASKED in seen[0]
    assert PAN not in seen[0]
    qtbot.wait(300)
    assert _requests(window) == before
    assert "Cancelled" in window.panel.result.text()
    assert window.panel.send_button.isEnabled()

    seen.clear()
    answer_next_question(True, seen)
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    assert _requests(window) == before + 1


def test_sandbox_banner_is_calm(window: MainWindow) -> None:
    assert "LOCAL SANDBOX" in window.banner.kind_label.text()
    assert PRODUCTION_BG not in window.banner.styleSheet()
    assert window.session.environment is not None
    assert window.session.environment.base_url in window.banner.detail.text()
