"""Inspector tab: the request as it is (or would be) sent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from console.ui.code_copy import CopyAsCode
from console.ui.icons import icon
from console.ui.inspector.curl import curl_command
from console.ui.inspector.widgets import CopyBlock, fill_table, pairs_table

if TYPE_CHECKING:
    from console.core.signing import SignedRequest


NOTHING_YET = "Nothing prepared yet. Fill a form and press Send (Ctrl+Enter)."


REVEAL_WORDS = "Reveal card data"
HIDE_WORDS = "Hide card data"


class RequestTab(QWidget):
    """Method, URL, headers, body parameters (masked unless revealed), copy as curl and as
    code."""

    reveal_toggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = QLabel(NOTHING_YET)
        self.line.setWordWrap(True)
        self.masking = QLabel()
        self.masking.setWordWrap(True)
        self.reveal = QPushButton(icon("reveal"), REVEAL_WORDS)
        self.reveal.setCheckable(True)
        self.reveal.setAccessibleName("Reveal card data for this request")
        self.reveal.setToolTip(
            "Show the full card number and CVV2 of this request only. Nothing is stored; "
            "the next request starts masked again."
        )
        self.reveal.toggled.connect(self.reveal_toggled)
        self.reveal.setEnabled(False)
        self.headers = pairs_table(("Header", "Value"))
        self.headers.setAccessibleName("Request headers")
        self.params = pairs_table(("Parameter", "Value"))
        self.params.setAccessibleName("Body parameters")
        self.curl = CopyBlock("Copy as curl", lines=5)
        self.curl.copy_button.setText("Copy as curl")
        self.curl.copy_button.setAccessibleName("Copy as curl")
        self.curl.copy_button.setToolTip("Copy the request as a curl command")
        self.code = CopyAsCode()  # the dock gives it the request on screen
        self.code.setEnabled(False)
        bar = QHBoxLayout()
        bar.addWidget(self.masking, 1)
        bar.addWidget(self.reveal)
        lay = QVBoxLayout(self)
        lay.addWidget(self.line)
        lay.addLayout(bar)
        lay.addWidget(QLabel("<b>Headers</b>"))
        lay.addWidget(self.headers, 1)
        lay.addWidget(QLabel("<b>Body parameters</b> (in send order)"))
        lay.addWidget(self.params, 3)
        lay.addWidget(self.curl)
        lay.addWidget(self.code)

    def show_nothing(self) -> None:
        """No request on screen (as at start)."""
        self.line.setText(NOTHING_YET)
        fill_table(self.headers, [])
        fill_table(self.params, [])
        self.curl.set_text("")
        self.code.setEnabled(False)
        self.code.forget()  # "Copied a … program" spoke of a request no longer here
        self.reveal.setEnabled(False)
        self.reveal.setText(REVEAL_WORDS)
        self.masking.setText("")

    def show_request(self, signed: SignedRequest | None, url: str, *, revealed: bool) -> None:
        """Show a signed request (already masked unless ``revealed``)."""
        if signed is None:
            self.line.setText(f"<b>POST</b> {url}<br>Not signed: fix the errors first.")
            fill_table(self.headers, [])
            fill_table(self.params, [])
            self.curl.set_text("")
            self.code.setEnabled(False)
            self.reveal.setEnabled(False)
            self.reveal.setText(REVEAL_WORDS)
            self.masking.setText("")
            return
        self.line.setText(f"<b>{signed.method}</b> {signed.url}")
        fill_table(self.headers, list(signed.headers.items()))
        fill_table(self.params, list(signed.params))
        self.curl.set_text(curl_command(signed))
        self.code.setEnabled(True)
        self.reveal.setEnabled(True)
        # the button says what it does next: once revealed, it hides the card data again
        self.reveal.setText(HIDE_WORDS if revealed else REVEAL_WORDS)
        masking = (
            "Card data revealed for this request only (never stored)."
            if revealed
            else "Card number and CVV2 are masked (first six and last four digits shown)."
        )
        unsigned = " Unsigned until the gateway answers it." if signed.is_unsigned else ""
        self.masking.setText(masking + unsigned)
