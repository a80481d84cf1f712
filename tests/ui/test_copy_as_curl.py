"""Copy as curl never hands out a working signed payout: not after Cancel on the production
confirmation, not after a send (it would pay out past the confirmation and the journal)."""

from __future__ import annotations

from typing import Any

from console.ui.main_window import MainWindow
from tests.helpers.production import cancel_on_production


def test_after_cancel_on_production_the_curl_is_an_unsigned_template(
    qtbot: Any, window: MainWindow
) -> None:
    cancel_on_production(window)
    assert "Cancelled" in window.panel.result.text()
    request = window.inspector.request
    request.reveal.click()  # even revealed, on purpose
    curl = request.curl.value()
    signed = window.inspector.prepared.signed  # type: ignore[union-attr]
    assert signed is not None
    signature = signed.authorization.split('oauth_signature="', 1)[1].split('"', 1)[0]
    assert signature not in curl
    assert 'oauth_signature="SIGN-ME"' in curl
    assert "unsigned template" in curl


def test_a_masked_curl_says_it_will_not_verify(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    curl = window.inspector.request.curl.value()
    assert "masked" in curl
    assert "will not verify" in curl
