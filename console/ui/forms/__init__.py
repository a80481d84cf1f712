"""Command forms generated from ``console.core.spec``."""

from __future__ import annotations

from importlib import import_module

from console.core.spec.model import Command
from console.ui.forms.generator import CommandForm

# Specialised forms by command: (module, class). Each module is imported when its form is
# first built, so start-up loads only the form it shows (the recurring form brings the
# schedule preview and its calendar maths with it).
_FORMS: dict[str, tuple[str, str]] = {
    "payout-check": ("console.ui.forms.payout_form", "PayoutForm"),
    "create-card-ref": ("console.ui.forms.card_ref_form", "CardRefForm"),
    "create-recurring-payment": ("console.ui.forms.recurring_form", "RecurringForm"),
}


def form_class(name: str) -> type[CommandForm]:
    """The form class for a command name: a specialised one where choices matter."""
    if name not in _FORMS:
        return CommandForm
    module, cls = _FORMS[name]
    found = getattr(import_module(module), cls)
    if not (isinstance(found, type) and issubclass(found, CommandForm)):
        raise TypeError(f"{module}.{cls} is not a command form")
    return found


def make_form(command: Command, *, first_rows: int | None = None) -> CommandForm:
    """The form for a command: a specialised one where choices matter, else the generic
    (``first_rows``: see :class:`CommandForm`)."""
    return form_class(command.name)(command, first_rows=first_rows)


__all__ = ["CommandForm", "form_class", "make_form"]
