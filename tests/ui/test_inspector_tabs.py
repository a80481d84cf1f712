"""The inspector's Signature and Response tabs, built only when first shown or used."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.prepared import PreparedRequest
from console.ui.inspector.dock import InspectorDock
from tests.helpers.history_data import answered, prepared

PAN = "4444444444444448"


@pytest.fixture
def dock(qtbot: Any) -> InspectorDock:
    widget = InspectorDock()
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def req(rsa_key: rsa.RSAPrivateKey) -> PreparedRequest:
    request = prepared(rsa_key)
    assert request.signed is not None
    return request


def test_signature_tab_first_shown_shows_the_request_on_screen(
    dock: InspectorDock, req: PreparedRequest
) -> None:
    assert req.signed is not None
    dock.show_prepared(req)
    dock.tabs.setCurrentIndex(1)  # the person opens the Signature tab
    assert dock.signature.base.value() == req.signed.masked().base_string
    assert PAN not in dock.signature.base.value()
    assert dock.signature.base64.value() == ""  # not answered yet: withheld
    assert "withheld" in dock.signature.masked_note.text()
    dock.request.reveal.click()  # reveal reaches the tab once it exists
    assert dock.signature.base.value() == req.signed.base_string
    dock.show_outcome(answered(req, "type=async-response&status=processing&serial-number=1"))
    assert dock.signature.base64.value() == req.signed.signature_base64


def test_reveal_before_the_signature_tab_exists_is_shown_when_it_opens(
    dock: InspectorDock, req: PreparedRequest
) -> None:
    assert req.signed is not None
    dock.show_prepared(req)
    dock.request.reveal.click()
    dock.tabs.setCurrentIndex(1)
    assert dock.signature.base.value() == req.signed.base_string


def test_response_tab_says_it_waits_then_shows_the_answer(
    dock: InspectorDock, req: PreparedRequest
) -> None:
    dock.show_prepared(req)
    assert "Waiting for the answer" in dock.response.headline.text()
    dock.show_outcome(answered(req, "type=async-response&status=processing&serial-number=1"))
    assert "Accepted" in dock.response.headline.text()
    assert dock.tabs.currentIndex() == 2  # the answer comes to the front


def test_nothing_signed_yet_before_any_request(dock: InspectorDock) -> None:
    assert "Nothing signed yet" in dock.signature.masked_note.text()
    assert "No answer yet" in dock.response.headline.text()
