"""Command forms generated from ``console.core.spec``."""

from __future__ import annotations

from console.core.spec.model import Command
from console.ui.forms.card_ref_form import CardRefForm
from console.ui.forms.generator import CommandForm
from console.ui.forms.payout_form import PayoutForm
from console.ui.forms.recurring_form import RecurringForm

_FORMS: dict[str, type[CommandForm]] = {
    "payout-check": PayoutForm,
    "create-card-ref": CardRefForm,
    "create-recurring-payment": RecurringForm,
}


def make_form(command: Command) -> CommandForm:
    """The form for a command: a specialised one where choices matter, else the generic."""
    return _FORMS.get(command.name, CommandForm)(command)


__all__ = ["CommandForm", "make_form"]
