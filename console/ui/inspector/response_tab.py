"""Inspector tab: the answer, decoded field by field with the contract's meanings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from console.core.spec.model import Command
from console.ui.inspector.widgets import CopyBlock, fill_table, pairs_table
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.responses import DecodedResponse

# What each result means for the person, with what to do next (the core's summary follows).
# Keyed by console.core.client.Result values (imported lazily: the client pulls in requests).
HEADLINES = {
    "accepted": ("fine", "Accepted"),
    "rejected": ("error", "Rejected by the gateway"),
    "access-denied": (
        "error",
        "Access denied (HTTP 403): check the login, the key the gateway has for it, the "
        "endpoint id and the URL",
    ),
    "gateway-failed": ("error", "The gateway failed to answer properly"),
    "not-sent": ("warning", "Not sent: the request did not arrive; it is safe to send again"),
    "unknown": (
        "warning",
        "Outcome unknown: check the status before resending with the same client_orderid",
    ),
}


def headline(outcome: Outcome) -> tuple[str, str]:
    """(state, words) for an outcome: the line the window shows in its result bar."""
    return HEADLINES[str(outcome.result)]


class ResponseTab(QWidget):
    """HTTP status, headers, decoded fields with meanings, and the raw body."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.headline = QLabel("No answer yet.")
        self._headline = ("", "No answer yet.")  # (state, words): drawn again in a new theme
        self.headline.setWordWrap(True)
        self.headline.setAccessibleName("Outcome")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)  # a long answer type must not widen the inspector
        self.fields = pairs_table(("Field", "Value", "Meaning"), stretch_from=1)
        self.fields.setAccessibleName("Decoded response fields")
        self.headers = pairs_table(("Header", "Value"))
        self.headers.setAccessibleName("Response headers")
        self.raw = CopyBlock("Raw body", lines=4)
        lay = QVBoxLayout(self)
        lay.addWidget(self.headline)
        lay.addWidget(self.summary)
        lay.addWidget(self.status)
        lay.addWidget(QLabel("<b>Decoded fields</b>"))
        lay.addWidget(self.fields, 3)
        lay.addWidget(QLabel("<b>Headers</b>"))
        lay.addWidget(self.headers, 1)
        lay.addWidget(self.raw)

    def clear(self, text: str = "No answer yet.") -> None:
        self._set_headline("", text)
        self.summary.setText("")
        self.status.setText("")
        fill_table(self.fields, [])
        fill_table(self.headers, [])
        self.raw.set_text("")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            # the colour is in the text: a new theme reaches this widget after the switch
            self._set_headline(*self._headline)

    def _set_headline(self, state: str, text: str) -> None:
        self._headline = (state, text)
        colour = state_colour(state or "required", self.palette()).name()
        self.headline.setText(f"<b style='color:{colour}'>{text}</b>")

    def show_outcome(self, outcome: Outcome, command: Command) -> None:
        """Show a decoded response or a transport failure, explained."""
        state, words = headline(outcome)
        self._set_headline(state, words)
        self.summary.setText(outcome.summary)
        response = outcome.response
        if response is None:
            self.status.setText(f"No HTTP answer after {outcome.elapsed:.2f} s.")
            fill_table(self.fields, [])
            fill_table(self.headers, [])
            self.raw.set_text("")
            return
        self._show_response(response, command, outcome.elapsed)

    def _show_response(self, r: DecodedResponse, command: Command, elapsed: float) -> None:
        meanings = {f.name: f.meaning.replace("`", "") for f in command.response_fields}
        self.status.setText(
            f"HTTP {r.http_status} · {r.kind.value}"
            + (f" · type {r.type}" if r.type else "")
            + (f" · status {r.status}" if r.status else "")
            + f" · {elapsed:.2f} s"
        )
        fill_table(
            self.fields,
            [
                (name, value, meanings.get(name, "(not in the contract)"))
                for name, value in r.fields
            ],
        )
        fill_table(self.headers, list(r.headers.items()))
        self.raw.set_text(r.raw.decode("utf-8", errors="replace"))
