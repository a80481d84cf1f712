"""The request inspector dock: Request, Signature and Response tabs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDockWidget, QTabWidget, QWidget

from console.core.spec import get_command
from console.ui.inspector.request_tab import RequestTab
from console.ui.inspector.response_tab import ResponseTab
from console.ui.inspector.signature_tab import SignatureTab

if TYPE_CHECKING:
    from console.core.client import Outcome, PreparedRequest


class InspectorDock(QDockWidget):
    """Shows the prepared request before sending, then the answer.

    The full request lives only in memory while it is shown; "reveal" applies to the
    request on screen and resets with the next one.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Request inspector", parent)
        self.setObjectName("inspector")
        self.tabs = QTabWidget()
        self.request = RequestTab()
        self.signature = SignatureTab()
        self.response = ResponseTab()
        self.tabs.addTab(self.request, "Request")
        self.tabs.addTab(self.signature, "Signature")
        self.tabs.addTab(self.response, "Response")
        self.setWidget(self.tabs)
        self.prepared: PreparedRequest | None = None
        self.request.reveal_toggled.connect(lambda _on: self._render())
        self.signature.show_signed(None)

    @property
    def revealed(self) -> bool:
        return self.request.reveal.isChecked()

    def show_prepared(self, prepared: PreparedRequest) -> None:
        """A new request: masked again, answer cleared, Request tab in front."""
        self.prepared = prepared
        self.request.reveal.blockSignals(True)
        self.request.reveal.setChecked(False)
        self.request.reveal.blockSignals(False)
        self.response.clear("Waiting for the answer…")
        self._render()
        self.tabs.setCurrentWidget(self.request)

    def _render(self) -> None:
        prepared = self.prepared
        if prepared is None:
            return
        signed = prepared.signed
        shown = signed if (signed is None or self.revealed) else signed.masked()
        self.request.show_request(shown, prepared.url, revealed=self.revealed)
        self.signature.show_signed(shown)

    def show_outcome(self, outcome: Outcome) -> None:
        """The answer (or transport failure) to the request on screen."""
        self.response.show_outcome(outcome, get_command(outcome.prepared.command))
        self.tabs.setCurrentWidget(self.response)

    def show_failure(self, text: str) -> None:
        """Something went wrong before an answer existed (no key, bad URL ...)."""
        self.response.clear(text)
        self.tabs.setCurrentWidget(self.response)
