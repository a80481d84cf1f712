"""create-recurring-payment: SRC/DST switch, amount rule, schedule with a live preview."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QPushButton, QSplitter, QVBoxLayout, QWidget

from console.core.schedule import preview
from console.core.spec.choices import CALLBACK_FIELDS, for_callback
from console.core.spec.model import CardType, Command, Problem
from console.ui.forms.choices import (
    CallbackChoice,
    Choice,
    Switch,
    new_client_orderid,
)
from console.ui.forms.field_widgets import FieldRow
from console.ui.forms.generator import CommandForm
from console.ui.schedule_view import SchedulePreview

AMOUNT_RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "fixed": ("Fixed amount", ("amount",)),
    "range": ("Random amount between two bounds", ("amount-from", "amount-to")),
    "sequence": ("Sequence of amounts (the last one repeats)", ("amount-sequence",)),
}
SCHEDULE_FIELDS = ("period", "interval")
CARD_TYPE_FIELD = "rp_card_type"
# Below this form width the preview moves under the fields: side by side it would cut the
# fields off on a 1024 px screen with the inspector open.
SIDE_BY_SIDE_WIDTH = 760


class RecurringForm(CommandForm):
    """The create-recurring-payment form with its schedule preview beside it (or below it,
    in a splitter the person can drag, when the form is narrow)."""

    SECTION_ORDER = ("profile", "card", "amount", "schedule", "payer")

    def __init__(
        self, command: Command, parent: QWidget | None = None, *, first_rows: int | None = None
    ) -> None:
        super().__init__(command, parent, first_rows=first_rows)
        self.preview = SchedulePreview(self)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.setObjectName("schedule-split")
        self.split.setChildrenCollapsible(False)
        self.outer.removeWidget(self.scroller)
        self.split.addWidget(self.scroller)
        self.split.addWidget(self.preview)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.outer.addWidget(self.split)
        self.set_hidden([CARD_TYPE_FIELD], True)  # the switch above stands for it
        self.changed.connect(self._update_preview)
        self._refresh()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        size = event.size()
        self._arrange(size.width(), size.height())

    def _arrange(self, width: int, height: int) -> None:
        """Preview beside the fields when there is room, else below them."""
        below = width < SIDE_BY_SIDE_WIDTH
        wanted = Qt.Orientation.Vertical if below else Qt.Orientation.Horizontal
        if self.split.orientation() == wanted:
            return
        self.split.setOrientation(wanted)
        self.preview.set_below(below)
        # the fields stay the main thing: most of the room, the preview the rest
        total, share = (height, 68) if below else (width, 60)
        self.split.setSizes([total * share // 100, total - total * share // 100])

    def build_choices(self, layout: QVBoxLayout) -> None:
        self.card_type = Switch(
            "Card type",
            [("SRC", "SRC – source card"), ("DST", "DST – destination card")],
            name="card-type",
        )
        self.card_type.buttons["SRC"].setToolTip("SRC: the sender's source card")
        self.card_type.buttons["DST"].setToolTip(
            "DST: the receiver's destination card (no payer details, no automatic schedule)"
        )
        self.amount_rule = Choice(
            "Amount rule", [(k, v[0]) for k, v in AMOUNT_RULES.items()], name="amount-rule"
        )
        self.schedule = Choice(
            "Schedule",
            [("none", "No automatic schedule"), ("auto", "Automatic: every interval × period")],
            name="schedule",
        )
        self.callback = CallbackChoice()
        for choice in (self.card_type, self.amount_rule, self.schedule, self.callback):
            layout.addWidget(choice)
            choice.chosen.connect(self._refresh)

    def decorate_row(self, row: FieldRow) -> None:
        if row.field.name == "client-orderid":
            button = QPushButton("Generate")
            button.setToolTip("Fill a fresh client-orderid")
            button.setAccessibleName("Generate client-orderid")
            button.clicked.connect(lambda: row.set_text(new_client_orderid()))
            row.add_button(button)

    def _refresh(self, _key: str = "") -> None:
        card_type = CardType(self.card_type.key())
        unsupported = [
            f.name
            for f in self.command.fields
            if f.card_types is not None and card_type not in f.card_types
        ]
        supported = [f.name for f in self.command.fields if f.name not in unsupported]
        self.set_disabled(supported, False)
        self.set_disabled(unsupported, True)
        for name in unsupported:
            row = self.rows[name]
            row.editor.setToolTip(f"{card_type.value} profiles do not support {name}.")
        auto = self.schedule.key() == "auto"
        schedule_ok = card_type is CardType.SRC
        self.schedule.combo.setEnabled(schedule_ok)
        self.schedule.set_help(
            ""
            if schedule_ok
            else "DST profiles have no automatic schedule (period and "
            "interval are not supported for DST)."
        )
        self.set_hidden(SCHEDULE_FIELDS, not (auto and schedule_ok))
        rule = self.amount_rule.key()
        every = [n for _label, names in AMOUNT_RULES.values() for n in names]
        self.set_hidden(every, True)
        self.set_hidden(AMOUNT_RULES[rule][1], False)
        self.set_hidden(self.callback.hidden_fields(), True)
        self.set_hidden([self.callback.key()], False)
        self._edited()

    def required_by_choices(self) -> tuple[str, ...]:
        """The chosen amount rule's fields."""
        return AMOUNT_RULES[self.amount_rule.key()][1]

    def with_choices(self, problems: list[Problem], values: Mapping[str, str]) -> list[Problem]:
        return for_callback(problems, values, self.callback.key())

    def extra_values(self) -> dict[str, str]:
        return {CARD_TYPE_FIELD: self.card_type.key(), **self.callback.values()}

    def _update_preview(self) -> None:
        self.preview.show_preview(preview(self.values()))

    def choices(self) -> dict[str, str]:
        return {
            "card-type": self.card_type.key(),
            "amount-rule": self.amount_rule.key(),
            "schedule": self.schedule.key(),
            "callback": self.callback.key(),
        }

    def set_choices(self, choices: Mapping[str, str]) -> None:
        for name, widget in (
            ("card-type", self.card_type),
            ("amount-rule", self.amount_rule),
            ("schedule", self.schedule),
            ("callback", self.callback),
        ):
            if name in choices:
                widget.set_key(choices[name])

    def implied_choices(self, values: Mapping[str, str]) -> dict[str, str]:
        implied: dict[str, str] = {}
        if values.get(CARD_TYPE_FIELD):
            implied["card-type"] = values[CARD_TYPE_FIELD]
        for rule, (_label, names) in AMOUNT_RULES.items():
            if any(values.get(n) for n in names):
                implied["amount-rule"] = rule
        if values.get("period") or values.get("interval"):
            implied["schedule"] = "auto"
        for name in CALLBACK_FIELDS:
            if values.get(name):
                implied["callback"] = name
        return implied
