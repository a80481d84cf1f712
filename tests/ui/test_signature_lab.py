"""Request > Signature lab: paste or drop a request, see the verdict and the base strings
side by side with the differing part marked; Import from curl fills the command's form."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa
from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtWidgets import QInputDialog

from console.ui.main_window import MainWindow
from console.ui.signature_lab import SignatureLabDialog
from tests.helpers.mistaken_signer import sign

URL = "https://gateway.example/paynet/api/v4/payout-check/1001"
PARAMS = [
    ("client_orderid", "order-1"),
    ("amount", "10.50"),
    ("order_desc", "Refund for a customer"),
    ("credit_card_number", "4444444444444448"),
]
# A request that must pass the timestamp check is signed as the test runs, never at import:
# the check allows 300 s, and the whole suite takes longer.


def _dialog(qtbot: Any, key: rsa.RSAPrivateKey, ids: tuple[str, ...] = ()) -> SignatureLabDialog:
    dialog = SignatureLabDialog(key=key.public_key(), key_label="merchant.pem", ids=ids)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_a_pasted_request_gets_its_mistake_named_and_marked(
    qtbot: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    dialog = _dialog(qtbot, rsa_key)
    wire = sign(URL, PARAMS, rsa_key, mistake="plus-for-space", timestamp=int(time.time()))
    dialog.request_edit.setPlainText(wire.http())
    dialog.verify_button.click()
    verdict = dialog.verdict_label.text()
    assert "Invalid" in verdict
    assert "spaces as +" in verdict
    assert "parameter order_desc" in verdict
    expected = dialog.expected_view.toHtml()
    received = dialog.received_view.toPlainText()
    assert "#ffd54f" in expected  # the differing part is marked
    assert "Refund%2520for" in dialog.expected_view.toPlainText()
    assert "Refund%2Bfor" in received
    assert "4444444444444448" not in received
    assert "444444" in received
    dialog.reveal.setChecked(True)
    assert "4444444444444448" in dialog.received_view.toPlainText()


def test_a_valid_request_says_so(qtbot: Any, rsa_key: rsa.RSAPrivateKey) -> None:
    dialog = _dialog(qtbot, rsa_key)
    wire = sign(URL, PARAMS, rsa_key, timestamp=int(time.time()))
    dialog.request_edit.setPlainText(wire.http())
    dialog.scheme.setCurrentIndex(dialog.scheme.findData("https"))
    dialog.verify()
    assert "Valid" in dialog.verdict_label.text()
    assert dialog.verdict is not None
    assert dialog.verdict.valid


def test_a_dropped_file_is_read_and_garbage_is_explained(
    qtbot: Any, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    dialog = _dialog(qtbot, rsa_key)
    path = tmp_path / "request.http"
    path.write_text(
        sign(URL, PARAMS, rsa_key, mistake="not-sorted", timestamp=int(time.time())).http()
    )
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    dialog.request_edit.insertFromMimeData(mime)
    dialog.verify()
    assert "(not-sorted)" in dialog.verdict_label.text()
    dialog.request_edit.setPlainText("what is this")
    dialog.verify()
    assert "not an HTTP request line" in dialog.verdict_label.text()
    assert dialog.expected_view.toPlainText() == ""


def test_a_wrong_key_file_is_refused_with_its_reason(
    qtbot: Any, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    dialog = _dialog(qtbot, rsa_key)
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    assert not dialog.set_key_file(bad)
    assert "not a PEM" in dialog.verdict_label.text()


def test_request_menu_opens_the_lab_with_the_environments_key(
    window: MainWindow, qtbot: Any
) -> None:
    window.actions_by_name["signature-lab"].trigger()
    dialog = window.findChild(SignatureLabDialog)
    assert dialog is not None
    assert dialog.isVisible()
    key = window.session.private_key
    assert key is not None
    assert "environment" in dialog.key_label.text()
    wire = sign(URL, PARAMS, key, mistake="tilde-encoded", timestamp=int(time.time()))
    dialog.request_edit.setPlainText(wire.http().replace("customer", "~customer"))
    dialog.verify()
    assert "Invalid" in dialog.verdict_label.text()
    curl = (
        "curl -X POST https://gateway.example/paynet/api/v4/payout-check/1001 "
        "-d 'client_orderid=from-curl-1&amount=12.34&currency=EUR'"
    )
    dialog.request_edit.setPlainText(curl)
    dialog.import_button.click()
    assert window.command == "payout-check"
    assert window.form.text_of("client_orderid") == "from-curl-1"
    assert window.form.text_of("amount") == "12.34"
    dialog.close()


def test_import_from_curl_fills_the_matching_form(window: MainWindow, monkeypatch: Any) -> None:
    curl = (
        "curl https://gateway.example/paynet/api/v4/create-card-ref/group/2001 "
        "--data-urlencode 'client_orderid=first payment 1' -d orderid=9000001"
    )
    monkeypatch.setattr(QInputDialog, "getMultiLineText", lambda *a, **k: (curl, True))
    window.actions_by_name["import-curl"].trigger()
    assert window.command == "create-card-ref"
    assert window.form.text_of("client_orderid") == "first payment 1"
    assert window.form.text_of("orderid") == "9000001"


def test_the_scheme_of_raw_http_is_chosen_and_an_assumed_one_is_said(
    qtbot: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    """A correct request captured from an http sandbox, pasted as raw HTTP (no scheme in
    it): never plain valid on the assumption, but valid only if it was sent over http,
    with the https reading named; chosen http, valid; chosen https, the scheme mistake is
    named."""
    dialog = _dialog(qtbot, rsa_key)
    http_url = "http://127.0.0.1:8765/paynet/api/v4/payout-check/1001"
    dialog.request_edit.setPlainText(
        sign(http_url, PARAMS, rsa_key, timestamp=int(time.time())).http()
    )
    dialog.verify_button.click()
    text = dialog.verdict_label.text()
    assert "VALID ONLY IF SENT OVER HTTP:" in text
    assert "If it was sent over https: The client signed another scheme" in text
    assert "(scheme-differs)" in text
    assert "(scheme-assumed)" in text
    assert dialog.verdict is not None
    assert not dialog.verdict.valid
    dialog.scheme.setCurrentIndex(dialog.scheme.findData("http"))
    dialog.verify_button.click()
    assert "Valid" in dialog.verdict_label.text()
    assert "assumed" not in dialog.verdict_label.text()
    dialog.scheme.setCurrentIndex(dialog.scheme.findData("https"))
    dialog.verify_button.click()
    assert "Invalid" in dialog.verdict_label.text()
    assert "(scheme-differs)" in dialog.verdict_label.text()
    assert "Fix: sign the URL the request is sent to" in dialog.verdict_label.text()


def test_the_clients_corpus_gets_the_same_verdicts_in_the_window(
    qtbot: Any, rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    """Every request of the installed independent clients, pasted as raw HTTP with its
    scheme chosen: valid exactly when correct, each mistake named."""
    from tests.clients.corpus import CLIENTS, cases_of, missing
    from tests.clients.wire import Target

    dialog = _dialog(qtbot, rsa_key, ("1001", "2001"))
    target = Target("https://gateway.example:8443/paynet", "1001", "2001", "demo", int(time.time()))
    wrong = []
    for client in (c for c in CLIENTS if missing(c) is None):
        for case in cases_of(client, target, rsa_key, other_rsa_key, tmp_path):
            dialog.scheme.setCurrentIndex(
                dialog.scheme.findData(case.wire.url.split(":")[0].lower())
            )
            dialog.request_edit.setPlainText(case.wire.http())
            dialog.verify_button.click()
            text = dialog.verdict_label.text()
            valid = "<b>Valid</b>" in text
            named = all(f"({code})" in text for code in case.expect)
            if valid != (not case.expect) or not named:
                wrong.append(f"{case.id}: {text[:300]}")
    assert not wrong, "\n".join(wrong)


def test_the_consoles_own_curl_copy_is_read_and_named_an_unsigned_template(
    qtbot: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    from console.core.signing import sign as sign_request
    from console.ui.inspector.curl import curl_command

    signed = sign_request(URL, PARAMS, consumer_key="merchant", private_key=rsa_key)
    dialog = _dialog(qtbot, rsa_key)
    dialog.request_edit.setPlainText(curl_command(signed))  # its comment lines included
    dialog.verify()
    verdict = dialog.verdict_label.text()
    assert "Invalid" in verdict
    assert "unsigned template" in verdict
    assert "wrong key" not in verdict.lower()
    assert dialog.verdict is not None
    assert dialog.verdict.codes[0] == "unsigned-template"


def test_the_request_box_keeps_its_size_after_verify(
    qtbot: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    dialog = _dialog(qtbot, rsa_key)
    dialog.resize(1000, 660)
    qtbot.wait(50)
    before = dialog.request_edit.height()
    wire = sign(URL, PARAMS, rsa_key, mistake="plus-for-space", timestamp=int(time.time()))
    dialog.request_edit.setPlainText(wire.http())
    dialog.verify_button.click()
    assert "Invalid" in dialog.verdict_label.text()  # a verdict of several lines
    qtbot.wait(50)
    assert dialog.request_edit.height() == before
