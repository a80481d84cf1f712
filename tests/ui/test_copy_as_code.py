"""Copy as code, in the inspector and in the signature lab: the clipboard gets a program
for the request shown, in the language chosen, holding no key and no card data, and the
Python one, run with the key in its environment, is accepted by the sandbox."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from PySide6.QtGui import QGuiApplication

from console.core.client import Outcome
from console.core.errors import NetworkError, NotSentError, OutcomeUnknownError
from console.core.exports import LANGUAGES, program_for_request, render_code
from console.core.exports.program import PLACEHOLDER_ORDER_ID_PREFIX
from console.core.keys import private_key_pem
from console.core.spec.examples import SANDBOX_CARD, SANDBOX_CVV2
from console.ui.code_copy import CopyAsCode
from console.ui.main_window import MainWindow
from console.ui.signature_lab import SignatureLabDialog
from tests.helpers.mistaken_signer import sign
from tests.helpers.production import cancel_on_production

CARD = "4111111111111111"
CVV2 = "987"


def _choose(code: CopyAsCode, language: str) -> None:
    code.language.setCurrentIndex(code.language.findData(language))


def _copy(code: CopyAsCode, language: str) -> str:
    QGuiApplication.clipboard().clear()
    _choose(code, language)
    code.button.click()
    return QGuiApplication.clipboard().text()


def _sent(qtbot: Any, window: MainWindow) -> None:
    window.fill_example()
    before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not before, timeout=20_000)


def test_the_inspector_copies_the_request_shown_as_a_program_in_each_language(
    qtbot: Any, window: MainWindow
) -> None:
    code = window.inspector.request.code
    assert not code.button.isEnabled()  # nothing prepared yet
    _sent(qtbot, window)
    window.inspector.request.reveal.click()  # even with the card data on screen
    prepared = window.inspector.prepared
    assert prepared is not None
    assert prepared.value("credit_card_number") == SANDBOX_CARD
    for language in LANGUAGES:
        text = _copy(code, language)
        assert text, language
        assert prepared.url in text or prepared.url.replace("/", "\\/") in text
        assert SANDBOX_CARD not in text
        assert "CREDIT_CARD_NUMBER" in text
        assert "CVV2" in text
        assert f'"{SANDBOX_CVV2}"' not in text
        assert f"'{SANDBOX_CVV2}'" not in text
        assert "PRIVATE KEY-----" not in text
        assert prepared.value("client_orderid") in text  # type: ignore[operator]
    note = code.note.text()
    assert "Copied a Go program for payout-check" in note
    assert "CREDIT_CARD_NUMBER, CVV2" in note


def test_the_copied_python_program_is_accepted_by_the_sandbox(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    _sent(qtbot, window)
    sent_id = window.inspector.prepared.value("client_orderid")  # type: ignore[union-attr]
    assert sent_id
    text = _copy(window.inspector.request.code, "python")
    assert text.count(f"'{sent_id}'") == 1
    # The sandbox refuses an id it has seen, as a gateway does: a person changes it too.
    program = tmp_path / "gateway_request.py"
    program.write_text(text.replace(sent_id, sent_id + "-again"), encoding="utf-8")
    key = window.session.private_key
    assert key is not None
    done = subprocess.run(
        [sys.executable, program.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={
            **os.environ,
            "NO_PROXY": "127.0.0.1,localhost",
            "GATEWAY_PRIVATE_KEY": private_key_pem(key).decode("ascii"),
            "CREDIT_CARD_NUMBER": SANDBOX_CARD,
            "CVV2": SANDBOX_CVV2,
        },
    )
    assert done.returncode == 0, done.stdout + done.stderr
    status, _, body = done.stdout.partition("\n")
    assert status == "200", done.stdout
    answer = {name: value.rstrip("\n") for name, value in parse_qsl(body.strip("\n"))}
    assert answer["type"] == "async-response", answer


def test_before_any_request_nothing_is_copied_and_it_says_why(window: MainWindow) -> None:
    code = window.inspector.request.code
    assert not code.button.isEnabled()
    QGuiApplication.clipboard().setText("before")
    assert code.copy() is None
    assert (
        code.note.text()
        == "Nothing copied: no request yet: fill a form without errors and press Send."
    )
    assert QGuiApplication.clipboard().text() == "before"


def test_the_lab_copies_a_pasted_request_as_a_program_without_its_card_data(
    qtbot: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    dialog = SignatureLabDialog(key=rsa_key.public_key(), key_label="merchant.pem")
    qtbot.addWidget(dialog)
    dialog.show()
    url = "https://gateway.example/paynet/api/v4/payout-check/1001"
    params = [
        ("client_orderid", "order-1"),
        ("amount", "10.50"),
        ("order_desc", "a b+c~d*e&f"),
        ("credit_card_number", CARD),
        ("cvv2", CVV2),
    ]
    wire = sign(url, params, rsa_key, timestamp=int(time.time()))
    dialog.request_edit.setPlainText(wire.http())
    text = _copy(dialog.code, "java")
    expected = program_for_request("payout-check", url, "demo", params)
    assert text == render_code("java", expected)
    assert CARD not in text
    assert f'"{CVV2}"' not in text
    signature = wire.authorization.split('oauth_signature="', 1)[1].split('"', 1)[0]
    assert signature not in text
    assert "PRIVATE KEY-----" not in text
    assert "order-1" in text


@pytest.mark.parametrize(
    ("pasted", "said"),
    [
        ("", "Nothing copied"),
        ("curl https://gateway.example/paynet/api/v4/nothing/1", "matches none of the commands"),
    ],
)
def test_the_lab_says_why_nothing_was_copied(qtbot: Any, pasted: str, said: str) -> None:
    dialog = SignatureLabDialog()
    qtbot.addWidget(dialog)
    QGuiApplication.clipboard().setText("before")
    dialog.request_edit.setPlainText(pasted)
    dialog.code.button.click()
    assert said in dialog.code.note.text()
    assert QGuiApplication.clipboard().text() == "before"


def test_a_request_cancelled_at_the_confirmation_is_copied_with_a_fresh_order_id_and_says_so(
    qtbot: Any, window: MainWindow
) -> None:
    cancel_on_production(window)
    assert "Cancelled" in window.panel.result.text()
    cancelled = window.inspector.prepared
    assert cancelled is not None
    cancelled_id = cancelled.value("client_orderid")
    assert cancelled_id
    for language in LANGUAGES:
        text = _copy(window.inspector.request.code, language)
        assert cancelled_id not in text, language  # run, it would send that very payout
        assert PLACEHOLDER_ORDER_ID_PREFIX in text
        # the first line after the interpreter's (#!, <?php)
        first = next(line for line in text.splitlines() if not line.startswith(("#!", "<?php")))
        assert "NOT SENT" in first, language
        assert "client_orderid is a fresh placeholder" in first


def test_a_request_the_gateway_answered_is_copied_with_its_own_order_id(
    qtbot: Any, window: MainWindow
) -> None:
    _sent(qtbot, window)
    sent_id = window.inspector.prepared.value("client_orderid")  # type: ignore[union-attr]
    assert sent_id
    text = _copy(window.inspector.request.code, "node")
    assert sent_id in text  # the gateway has it: a rerun is refused as a repeat, not paid
    assert "NOT SENT" not in text


@pytest.mark.parametrize(("error", "reached"), [(NotSentError, False), (OutcomeUnknownError, True)])
def test_a_request_that_never_arrived_is_copied_as_not_sent_one_that_may_have_keeps_its_id(
    qtbot: Any, window: MainWindow, error: type[NetworkError], reached: bool
) -> None:
    cancel_on_production(window)
    prepared = window.inspector.prepared
    assert prepared is not None
    order_id = prepared.value("client_orderid")
    assert order_id
    # what the transport says of the send: never arrived, or maybe arrived (a timeout)
    window.inspector.show_outcome(Outcome(prepared, None, error("No answer.", prepared.url), 0.1))
    text = _copy(window.inspector.request.code, "python")
    assert (order_id in text) is reached
    assert ("NOT SENT" in text) is not reached
