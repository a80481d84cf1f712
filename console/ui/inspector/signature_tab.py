"""Inspector tab: every step of the OAuth 1.0a RSA-SHA256 signature."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from console.core.masking import is_sensitive
from console.ui.inspector.widgets import CopyBlock, fill_table, pairs_table, wrap_base_string

WITHHELD = (
    "Signature withheld: it is shown once the gateway has answered this request. A request "
    "not sent (waiting, cancelled, refused or not arrived) leaves no working signature to "
    "copy; the header carries a placeholder."
)

if TYPE_CHECKING:
    from console.core.signing import SignedRequest


class SignatureTab(QWidget):
    """oauth parameters, normalized string, base string, signature forms, header."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.oauth = pairs_table(("OAuth parameter", "Value"))
        self.oauth.setAccessibleName("OAuth parameters")
        self.oauth.setMinimumHeight(150)
        self.normalized = CopyBlock(
            "Normalized parameters",
            lines=3,
            caption="Body and oauth_* parameters, percent-encoded (RFC 3986), sorted, "
            "joined with &.",
        )
        self.base = CopyBlock(
            "Signature base string",
            lines=6,
            caption="Shown with a line break after each parameter boundary (%26); "
            "Copy gives the exact string that is signed.",
        )
        self.hex = CopyBlock(
            "Signature (hex)", lines=2, caption="Debug only, never sent (contract section 5)."
        )
        self.base64 = CopyBlock(
            "Signature (base64)", lines=2, caption="Sent, percent-encoded, in the header."
        )
        self.authorization = CopyBlock("Authorization header", lines=3)
        for block in (self.hex, self.base64):
            block.text.setPlaceholderText("Withheld until the gateway answers this request.")
        self.masked_note = QLabel()
        self.masked_note.setWordWrap(True)
        inner = QWidget()
        lay = QVBoxLayout(inner)
        lay.addWidget(self.masked_note)
        oauth_title = QLabel(
            "<b>OAuth parameters</b> (signed; oauth_signature goes in the header only)"
        )
        oauth_title.setWordWrap(True)
        lay.addWidget(oauth_title)
        lay.addWidget(self.oauth)
        for block in (self.normalized, self.base, self.hex, self.base64, self.authorization):
            lay.addWidget(block)
        lay.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def show_signed(self, signed: SignedRequest | None) -> None:
        """Show the steps of ``signed`` (or clear)."""
        if signed is None:
            fill_table(self.oauth, [])
            for block in (self.normalized, self.base, self.hex, self.base64, self.authorization):
                block.set_text("")
            self.masked_note.setText("Nothing signed yet.")
            return
        fill_table(self.oauth, sorted(signed.oauth.items()))
        self.normalized.set_text(signed.normalized_parameters)
        self.base.set_text(wrap_base_string(signed.base_string), copy_value=signed.base_string)
        self.hex.set_text(signed.signature_hex)
        self.base64.set_text(signed.signature_base64)
        self.authorization.set_text(signed.authorization)
        notes = [WITHHELD] if signed.is_unsigned else []
        if signed.is_masked and any(is_sensitive(n) for n, _ in signed.params):
            notes.append(
                "Card data is masked in the normalized parameters and the base string, so "
                "they will not verify against the signature; reveal on the Request tab to see "
                "the exact values."
            )
        self.masked_note.setText(" ".join(notes))
