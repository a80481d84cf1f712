"""payout-check: receiver type, callback and redirect choices over the generated form."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from console.core.spec.choices import CALLBACK_FIELDS, for_callback, for_receiver
from console.core.spec.command_rules import RECEIVER_KINDS
from console.core.spec.model import Command, Problem
from console.ui.forms.choices import CallbackChoice, Choice, new_client_orderid
from console.ui.forms.field_widgets import FieldRow
from console.ui.forms.generator import CommandForm

# Receiver type -> the sections or fields that describe that receiver.
RECEIVERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "card": ("Card", ("section:card",)),
    "card-ref": ("Stored card reference", ("card_recurring_payment_id",)),
    "rpi": ("Recurring payment id", ("recurring-payment-id",)),
    "bank": ("Bank account", ("section:bank",)),
    "ewallet": ("E-wallet", ("section:ewallet",)),
    "crypto": ("Crypto wallet", ("section:crypto",)),
}
REDIRECT_FIELDS = ("redirect_url", "redirect_success_url", "redirect_fail_url")
_REDIRECT_SHOWN = {
    "none": (),
    "one": ("redirect_url",),
    "pair": ("redirect_success_url", "redirect_fail_url"),
}
PLACEHOLDER_LATER = "(the environment's placeholder, once it is ready)"
PLACEHOLDER_HELP = (
    "No redirect wanted: the contract (4.2 rule 6) asks for a designated placeholder "
    "address in the redirect parameters, so <code>redirect_url={url}</code> is sent. "
    "The environment sets the placeholder. Never read the status from a redirect: "
    "use the callback or the status command (rule 5)."
)


class PayoutForm(CommandForm):
    """The payout-check form."""

    SECTION_ORDER = ("order", "card", "stored-card", "bank", "ewallet", "crypto", "receiver")
    SKIP_TO_SEND_AFTER = ("card", "stored-card", "bank", "ewallet", "crypto")

    def __init__(
        self, command: Command, parent: QWidget | None = None, *, first_rows: int | None = None
    ) -> None:
        self.placeholder = ""
        super().__init__(command, parent, first_rows=first_rows)
        self._refresh()

    def build_choices(self, layout: QVBoxLayout) -> None:
        self.receiver = Choice(
            "Receiver type", [(k, v[0]) for k, v in RECEIVERS.items()], name="receiver"
        )
        self.callback = CallbackChoice()
        self.redirect = Choice(
            "Redirect",
            [
                ("none", "None (send the placeholder address)"),
                ("one", "One URL for every outcome"),
                ("pair", "Success and fail URLs"),
            ],
            name="redirect",
        )
        for choice in (self.receiver, self.callback, self.redirect):
            layout.addWidget(choice)
            choice.chosen.connect(self._refresh)

    def decorate_row(self, row: FieldRow) -> None:
        if row.field.name == "client_orderid":
            button = QPushButton("Generate")
            button.setToolTip("Fill a fresh client_orderid")
            button.setAccessibleName("Generate client_orderid")
            button.clicked.connect(lambda: row.set_text(new_client_orderid()))
            row.add_button(button)

    def _receiver_fields(self, key: str) -> set[str]:
        names: set[str] = set()
        for item in RECEIVERS[key][1]:
            if item.startswith("section:"):
                section = item.split(":", 1)[1]
                names |= {f.name for f in self.command.fields if f.section == section}
            else:
                names.add(item)
        return names

    def _hidden_by_choices(self) -> tuple[set[str], set[str]]:
        """(rows the current choices hide, rows they show)."""
        every = set().union(*(self._receiver_fields(k) for k in RECEIVERS))
        shown = self._receiver_fields(self.receiver.key())
        hidden = (every - shown) | set(self.callback.hidden_fields())
        shown.add(self.callback.key())
        redirect = _REDIRECT_SHOWN[self.redirect.key()]
        return hidden | (set(REDIRECT_FIELDS) - set(redirect)), shown | set(redirect)

    def required_by_choices(self) -> tuple[str, ...]:
        """The chosen receiver's fields: a payout must name who receives it."""
        return RECEIVER_KINDS.get(self.receiver.key(), ())

    def with_choices(self, problems: list[Problem], values: Mapping[str, str]) -> list[Problem]:
        problems = for_receiver(problems, self.receiver.key())
        return for_callback(problems, values, self.callback.key())

    def initially_hidden(self) -> set[str]:
        # Start-up builds only what the default choices show; the rest on first showing.
        return self._hidden_by_choices()[0]

    def _refresh(self, _key: str = "") -> None:
        hidden, shown = self._hidden_by_choices()
        self.set_hidden(hidden, True)
        self.set_hidden(shown, False)
        redirect = self.redirect.key()
        self.redirect.set_help(
            PLACEHOLDER_HELP.format(url=self.placeholder or PLACEHOLDER_LATER)
            if redirect == "none"
            else "Redirects happen whatever the final status is (contract 4.2 rule 5)."
        )
        self._edited()

    def set_placeholder(self, url: str) -> None:
        """The environment's redirect placeholder address (contract 4.2 rule 6)."""
        self.placeholder = url
        self._refresh()

    def extra_values(self) -> dict[str, str]:
        extra = self.callback.values()  # this console's listener, as it runs now
        if self.redirect.key() == "none" and self.placeholder:
            extra["redirect_url"] = self.placeholder
        return extra

    def choices(self) -> dict[str, str]:
        return {
            "receiver": self.receiver.key(),
            "callback": self.callback.key(),
            "redirect": self.redirect.key(),
        }

    def set_choices(self, choices: Mapping[str, str]) -> None:
        for name, widget in (
            ("receiver", self.receiver),
            ("callback", self.callback),
            ("redirect", self.redirect),
        ):
            if name in choices:
                widget.set_key(choices[name])

    def implied_choices(self, values: Mapping[str, str]) -> dict[str, str]:
        implied: dict[str, str] = {}
        for key in RECEIVERS:
            if any(values.get(n) for n in self._receiver_fields(key)):
                implied["receiver"] = key
                break
        for name in CALLBACK_FIELDS:
            if values.get(name):
                implied["callback"] = name
        if values.get("redirect_url") and values.get("redirect_url") != self.placeholder:
            implied["redirect"] = "one"
        elif values.get("redirect_success_url") or values.get("redirect_fail_url"):
            implied["redirect"] = "pair"
        return implied
