"""The details of one journal row: the masked request, the answer and its callbacks.

Built from the inspector's blocks (name/value tables, copyable texts), so a request looks the
same in the history as it did in the inspector when it was sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QLabel, QScrollArea, QTabWidget, QVBoxLayout, QWidget

from console.core.spec import COMMANDS
from console.ui.history.model import local_time
from console.ui.inspector.widgets import CopyBlock, fill_table, pairs_table

if TYPE_CHECKING:
    from console.core.history import HistoryDetail, HistoryRow


def _text(value: object) -> str:
    return "" if value is None else str(value)


def summary_rows(row: HistoryRow) -> list[tuple[str, str]]:
    """The row's facts, in the order a person checks them."""
    final = row.final_status or ""
    if final and row.final_status_source:
        final += f" (from the {row.final_status_source}, {local_time(row.final_status_at)})"
    pairs = [
        ("Time", local_time(row.created)),
        ("Environment", row.environment),
        ("Command", row.command),
        ("Address", row.url),
        ("Outcome", row.outcome_text),
        ("What it means", _text(row.summary)),
        ("HTTP status", _text(row.http_status)),
        ("Answer time", f"{row.elapsed:.2f} s" if row.elapsed is not None else ""),
        ("Final status", final),
        ("Client order id", _text(row.client_orderid)),
        ("Gateway order id", _text(row.gateway_order_id)),
        ("Serial number", _text(row.serial_number)),
        ("Card reference id", _text(row.card_ref_id)),
        ("Recurring payment id", _text(row.recurring_payment_id)),
        ("Amount", row.amount_text),
        ("Receiver", _text(row.receiver)),
    ]
    return [(name, value) for name, value in pairs if value]


def _scrolled(page: QWidget) -> QScrollArea:
    """``page`` in a frameless scroll area that lets it be lower than its contents."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(page)
    return area


class HistoryDetailsView(QWidget):
    """Summary, Request, Response and Callbacks tabs for one journal row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tabs = QTabWidget()
        # every tab's title whole: the pane gives the details their width, never arrows
        self.tabs.tabBar().setUsesScrollButtons(False)
        self.headline = QLabel("Choose a request to see its details.")
        self.headline.setWordWrap(True)
        self.summary = pairs_table(("Item", "Value"))
        self.summary.setAccessibleName("Request summary")
        self.params = pairs_table(("Parameter", "Value"))
        self.params.setAccessibleName("Body parameters (masked)")
        self.authorization = CopyBlock("Authorization header", lines=2)
        self.base_string = CopyBlock("Signature base string (masked)", lines=3)
        self.fields = pairs_table(("Field", "Value", "Meaning"), stretch_from=1)
        self.fields.setAccessibleName("Decoded response fields")
        self.answer_note = QLabel()
        self.answer_note.setWordWrap(True)
        self.raw = CopyBlock("Raw body", lines=3)
        self.callbacks = pairs_table(("Received", "Status", "Check", "Parameters"))
        self.callbacks.setAccessibleName("Callbacks for this order")

        request = QWidget()
        rlay = QVBoxLayout(request)
        rlay.addWidget(QLabel("Card numbers are stored masked and CVV2 is never stored."))
        rlay.addWidget(self.params, 2)
        rlay.addWidget(self.authorization)
        rlay.addWidget(self.base_string)
        response = QWidget()
        alay = QVBoxLayout(response)
        alay.addWidget(self.answer_note)
        alay.addWidget(self.fields, 2)
        alay.addWidget(self.raw)
        self.tabs.addTab(self.summary, "Summary")
        # scrolled, so a low history dock can still show every block of a request
        self.tabs.addTab(_scrolled(request), "Request")
        self.tabs.addTab(_scrolled(response), "Response")
        self.tabs.addTab(self.callbacks, "Callbacks")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.headline)
        lay.addWidget(self.tabs, 1)
        self.detail: HistoryDetail | None = None

    def clear(self, text: str = "Choose a request to see its details.") -> None:
        self.detail = None
        self.headline.setText(text)
        for table in (self.summary, self.params, self.fields, self.callbacks):
            fill_table(table, [])
        for block in (self.authorization, self.base_string, self.raw):
            block.set_text("")
        self.answer_note.setText("")

    def show_detail(self, detail: HistoryDetail) -> None:
        """Show one row with its masked request, answer and callbacks."""
        self.detail = detail
        row = detail.row
        self.headline.setText(
            f"<b>{row.command}</b> · {local_time(row.created)} · {row.outcome_text}"
        )
        request = detail.request
        team = request.get("team") or {}  # the shared journal: who sent and who approved
        people = [("Sent by", team.get("sent_by")), ("Approved by", team.get("approved_by"))]
        fill_table(self.summary, summary_rows(row) + [(n, str(v)) for n, v in people if v])
        fill_table(self.params, [(str(n), str(v)) for n, v in request.get("params", [])])
        self.authorization.set_text(_text(request.get("authorization")))
        self.base_string.set_text(_text(request.get("base_string")))
        self._show_answer(row.command, detail.response)
        fill_table(
            self.callbacks,
            [
                (
                    local_time(c["received"]),
                    _text(c["status"]),
                    _text(c["check"]) + (" (repeat)" if c["duplicate_of"] else ""),
                    ", ".join(f"{n}={v}" for n, v in c["params"]),
                )
                for c in detail.callbacks
            ],
        )
        self.tabs.setTabText(3, f"Callbacks ({len(detail.callbacks)})")

    def _show_answer(self, command: str, response: dict[str, Any] | None) -> None:
        if response is None:
            self.answer_note.setText("No answer was recorded.")
            fill_table(self.fields, [])
            self.raw.set_text("")
            return
        if "error" in response:
            self.answer_note.setText(f"No HTTP answer: {response['error']}")
            fill_table(self.fields, [])
            self.raw.set_text("")
            return
        meanings = (
            {f.name: f.meaning.replace("`", "") for f in COMMANDS[command].response_fields}
            if command in COMMANDS
            else {}
        )
        self.answer_note.setText(
            f"HTTP {_text(response.get('http_status'))} · {_text(response.get('kind'))}"
            + (f" · {response['summary']}" if response.get("summary") else "")
        )
        rows: list[tuple[str, str, str]] = []
        for name, value in (response.get("fields") or {}).items():
            for one in value if isinstance(value, list) else [value]:
                rows.append((name, _text(one), meanings.get(name, "(not in the contract)")))
        fill_table(self.fields, rows)
        self.raw.set_text(_text(response.get("raw")))
