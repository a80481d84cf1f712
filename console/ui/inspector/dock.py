"""The request inspector dock: Request, Signature and Response tabs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDockWidget, QTabWidget, QVBoxLayout, QWidget

from console.core.spec import get_command

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.prepared import PreparedRequest
    from console.core.signing import SignedRequest
    from console.ui.inspector.request_tab import RequestTab
    from console.ui.inspector.response_tab import ResponseTab
    from console.ui.inspector.signature_tab import SignatureTab


WAITING = "Waiting for the answer…"
NOT_SENT = "Cancelled: nothing was sent, so no answer will come."


def _fill(page: QWidget, content: QWidget) -> None:
    """Put a tab's real widget into the empty page that held its place."""
    lay = QVBoxLayout(page)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(content)


class InspectorDock(QDockWidget):
    """Shows the prepared request before sending, then the answer.

    The full request lives only in memory while it is shown; "reveal" applies to the
    request on screen and resets with the next one. Its signature is shown only once the
    gateway has answered it (the core's ``shown_request``): a cancelled or unsent request
    leaves no working signature in any tab. Every tab is built when first shown or used
    (a few dozen widgets and their modules the first picture of the window does not need:
    the window builds the Request tab right after it); :attr:`request`, :attr:`signature`
    and :attr:`response` build them on access.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Request inspector", parent)
        self.setObjectName("inspector")
        self.tabs = QTabWidget()
        self._request: RequestTab | None = None
        self._signature: SignatureTab | None = None
        self._response: ResponseTab | None = None
        self._response_note: str | None = None  # what the Response tab says once built
        self._request_page = QWidget()  # filled when first shown or used
        self._signature_page = QWidget()
        self._response_page = QWidget()
        self.tabs.addTab(self._request_page, "Request")
        self.tabs.addTab(self._signature_page, "Signature")
        self.tabs.addTab(self._response_page, "Response")
        self.tabs.currentChanged.connect(self._tab_shown)
        self.setWidget(self.tabs)
        self.prepared: PreparedRequest | None = None
        self.answered = False  # the gateway answered the request on screen
        self.sent = False  # the request on screen may be at the gateway (its outcome says)

    @property
    def request(self) -> RequestTab:
        """The Request tab, showing the request on screen (built on first use)."""
        if self._request is None:
            # boundary: the Request tab is built when first shown, after the first paint
            from console.ui.code_copy import prepared_program
            from console.ui.inspector.request_tab import RequestTab  # boundary: as above

            self._request = RequestTab()
            self._request.reveal_toggled.connect(lambda _on: self._render())
            self._request.code.source = lambda: prepared_program(self.prepared, sent=self.sent)
            _fill(self._request_page, self._request)
            self._render()
        return self._request

    @property
    def signature(self) -> SignatureTab:
        """The Signature tab, showing the request on screen (built on first use)."""
        if self._signature is None:
            # boundary: the Signature tab is built when first shown
            from console.ui.inspector.signature_tab import SignatureTab

            self._signature = SignatureTab()
            self._signature.show_signed(self._shown())
            _fill(self._signature_page, self._signature)
        return self._signature

    @property
    def response(self) -> ResponseTab:
        """The Response tab (built on first use)."""
        if self._response is None:
            # boundary: the Response tab is built when first shown
            from console.ui.inspector.response_tab import ResponseTab

            self._response = ResponseTab()
            if self._response_note is not None:
                self._response.clear(self._response_note)
            _fill(self._response_page, self._response)
        return self._response

    def show_tab(self, index: int) -> None:
        """Show the dock with one tab in front (0 Request, 1 Signature, 2 Response)."""
        self.show()
        self.tabs.setCurrentIndex(index)

    def _tab_shown(self, index: int) -> None:
        page = self.tabs.widget(index)
        if page is self._request_page:
            self.request  # noqa: B018 (builds the tab)
        elif page is self._signature_page:
            self.signature  # noqa: B018 (builds the tab)
        elif page is self._response_page:
            self.response  # noqa: B018 (builds the tab)

    @property
    def revealed(self) -> bool:
        return self._request is not None and self._request.reveal.isChecked()

    def show_prepared(self, prepared: PreparedRequest) -> None:
        """A new request: masked again, answer cleared, Request tab in front."""
        self.prepared = prepared
        self.answered = self.sent = False
        self.request.reveal.blockSignals(True)
        self.request.reveal.setChecked(False)
        self.request.reveal.blockSignals(False)
        self._clear_response(WAITING)
        self._render()
        self.tabs.setCurrentWidget(self._request_page)

    def _shown(self) -> SignedRequest | None:
        """The signed request as it is shown: masked unless revealed, unsigned unless the
        gateway answered it."""
        signed = self.prepared.signed if self.prepared is not None else None
        if signed is None:
            return None
        from console.core.signing import shown_request  # loaded with the request itself

        return shown_request(signed, revealed=self.revealed, answered=self.answered)

    def _render(self) -> None:
        prepared = self.prepared
        if prepared is None:
            return
        shown = self._shown()
        if self._request is not None:  # else it renders the request when first built
            self._request.show_request(shown, prepared.url, revealed=self.revealed)
        if self._signature is not None:  # else it renders the request when first built
            self._signature.show_signed(shown)

    def _clear_response(self, text: str) -> None:
        if self._response is None:
            self._response_note = text
        else:
            self._response.clear(text)

    def forget(self) -> None:
        """Another environment: the request and answer on screen belong to the one left."""
        self.prepared = None
        self.answered = self.sent = False
        self.setWindowTitle("Request inspector")
        if self._request is not None:
            self._request.reveal.blockSignals(True)
            self._request.reveal.setChecked(False)
            self._request.reveal.blockSignals(False)
            self._request.show_nothing()
        if self._signature is not None:
            self._signature.show_signed(None)
        self._clear_response("No answer yet.")

    def show_outcome(self, outcome: Outcome) -> None:
        """The answer (or transport failure) to the request on screen."""
        if outcome.prepared is self.prepared:
            self.sent = outcome.may_have_arrived
        if outcome.prepared is self.prepared and outcome.response is not None:
            self.answered = True  # its nonce is spent: the signature may be shown
            self._render()

        self.response.show_outcome(outcome, get_command(outcome.prepared.command))
        self.tabs.setCurrentWidget(self._response_page)

    def show_cancelled(self) -> None:
        """The person said no to the request on screen: no answer is coming."""
        self._clear_response(NOT_SENT)

    def show_failure(self, text: str) -> None:
        """Something went wrong before an answer existed (no key, bad URL ...)."""
        self.response.clear(text)
        self.tabs.setCurrentWidget(self._response_page)
