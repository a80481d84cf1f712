"""A cancelled request leaves nothing that pays out: every text the inspector lets a person
copy (its Copy buttons, Copy as curl, every table cell), with card data masked and
revealed, is tried against the sandbox, and none gets past its signature check."""

from __future__ import annotations

import base64
import re
import subprocess
from typing import Any

import requests
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QTableWidget

from console.core.signing import SignedRequest
from console.ui.inspector.widgets import CopyBlock
from console.ui.main_window import MainWindow
from tests.helpers.dialogs import answer_next_question
from tests.helpers.production import cancel_on_production

_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]|%2[BFbf]){40,}(?:=|%3[Dd]){0,2}")
_HEX = re.compile(r"[0-9a-fA-F]{64,}")
_SIGNATURE_IN_HEADER = re.compile(r'oauth_signature="[^"]*"')


def _copies(window: MainWindow) -> list[str]:
    """Everything a person can copy from the inspector, masked and then revealed."""
    inspector = window.inspector
    texts: list[str] = []
    for revealed in (False, True):
        if inspector.request.reveal.isChecked() != revealed:
            inspector.request.reveal.click()
        for index in range(inspector.tabs.count()):
            inspector.tabs.setCurrentIndex(index)  # builds the tab, as opening it does
        for block in inspector.findChildren(CopyBlock):
            if block.copy_button.isEnabled():
                block.copy_button.click()
                texts.append(QGuiApplication.clipboard().text())
            texts.append(block.text.toPlainText())
        for table in inspector.findChildren(QTableWidget):
            for row in range(table.rowCount()):
                for col in range(table.columnCount()):
                    item = table.item(row, col)
                    if item is not None:
                        texts.append(item.text())
    return [text for text in texts if text]


def _signatures(text: str) -> set[str]:
    """Every run in ``text`` that could be a signature: base64 (raw or percent-encoded)
    and hex turned into base64."""
    found = {requests.utils.unquote(m.group(0)) for m in _BASE64.finditer(text)}
    for match in _HEX.finditer(text):
        try:
            found.add(base64.b64encode(bytes.fromhex(match.group(0))).decode())
        except ValueError:
            continue
    return found


def _post(signed: SignedRequest, authorization: str) -> int:
    answer = requests.post(
        signed.url,
        data=signed.body.encode(),
        headers={**signed.headers, "Authorization": authorization},
        timeout=10,
    )
    return answer.status_code


def _with_signature(authorization: str, signature: str) -> str:
    encoded = requests.utils.quote(signature, safe="")
    return _SIGNATURE_IN_HEADER.sub(f'oauth_signature="{encoded}"', authorization)


def _none_verifies(window: MainWindow) -> None:
    prepared = window.inspector.prepared
    assert prepared is not None
    assert prepared.signed is not None
    real = prepared.signed  # in memory only: what the person could not copy
    texts = _copies(window)
    assert any("curl" in text for text in texts)
    statuses: list[tuple[str, int]] = []
    for text in texts:
        if text.lstrip().startswith("#") and "curl -X" in text:  # Copy as curl, run as is
            run = subprocess.run(
                ["bash", "-c", text + " -s -o /dev/null -w '%{http_code}'"],
                capture_output=True,
                text=True,
                timeout=30,
            )
            statuses.append(("curl", int(run.stdout.strip()[-3:])))
        if "oauth_signature=" in text:  # an Authorization header as copied
            header = text.strip().removeprefix("Authorization: ")
            if header.startswith("OAuth "):
                statuses.append((header, _post(real, header)))
        for signature in _signatures(text):  # the real body with any copied signature
            forged = _with_signature(real.authorization, signature)
            statuses.append((signature, _post(real, forged)))
    assert statuses, "nothing was tried"
    assert [(what, code) for what, code in statuses if code != 403] == []
    # the check itself works: the real signature, never shown, passes the sandbox
    assert _post(real, real.authorization) != 403


def test_nothing_copied_after_cancel_on_a_card_number_question_verifies(
    qtbot: Any, window: MainWindow
) -> None:
    window.fill_example()
    window.form.rows["credit_card_number"].set_text("4444444444444441")  # fails Luhn
    seen: list[str] = []
    answer_next_question(False, seen)
    window.send()
    qtbot.waitUntil(lambda: "Cancelled" in window.panel.result.text(), timeout=5_000)
    _none_verifies(window)


def test_nothing_copied_after_cancel_on_the_production_confirmation_verifies(
    qtbot: Any, window: MainWindow
) -> None:
    cancel_on_production(window)
    qtbot.waitUntil(lambda: "Cancelled" in window.panel.result.text(), timeout=5_000)
    _none_verifies(window)


def test_the_signature_shows_once_the_gateway_has_answered(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    window.inspector.tabs.setCurrentIndex(1)
    signed = window.inspector.prepared.signed  # type: ignore[union-attr]
    assert signed is not None
    assert window.inspector.signature.base64.value() == signed.signature_base64
    # spent: a replay of the answered request is refused for its nonce
    assert _post(signed, signed.authorization) == 403
