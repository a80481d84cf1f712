"""create-card-ref: the first payment's ids; the window offers "use in payout" on success."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout

from console.ui.forms.generator import CommandForm


class CardRefForm(CommandForm):
    """The create-card-ref form: orderid and client_orderid of the first payment."""

    SECTION_ORDER = ("order",)

    def build_choices(self, layout: QVBoxLayout) -> None:
        hint = QLabel(
            "Give the ids of the first payment: it must have authorized the card and be in a "
            "final status. On success, <i>Use in payout</i> opens a payout to the stored card."
        )
        hint.setWordWrap(True)
        layout.addWidget(hint)
