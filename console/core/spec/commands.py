"""The command registry: every command the console knows, by wire name."""

from __future__ import annotations

from types import MappingProxyType

from .card_ref import CREATE_CARD_REF
from .model import Command
from .payout_check import PAYOUT_CHECK
from .recurring import CREATE_RECURRING_PAYMENT
from .status import STATUS

COMMANDS: dict[str, Command] = {
    c.name: c for c in (PAYOUT_CHECK, CREATE_CARD_REF, CREATE_RECURRING_PAYMENT, STATUS)
}

# Titles for the form sections named in Field.section, in the order forms show them.
SECTION_TITLES: MappingProxyType[str, str] = MappingProxyType(
    {
        "profile": "Profile",
        "order": "Order",
        "amount": "Amount",
        "schedule": "Schedule",
        "card": "Card",
        "stored-card": "Stored card",
        "bank": "Bank account",
        "ewallet": "E-wallet",
        "crypto": "Crypto wallet",
        "receiver": "Receiver",
        "customer": "Receiver address and contact",
        "payer": "Payer",
        "callbacks": "Callbacks",
        "redirects": "Redirects",
        "cms": "CMS",
        "extra": "Extra data",
    }
)


def get_command(name: str) -> Command:
    """Return the command with this wire name.

    Raises:
        KeyError: the name is unknown; the message lists the valid names.
    """
    try:
        return COMMANDS[name]
    except KeyError:
        valid = ", ".join(COMMANDS)
        raise KeyError(f"unknown command {name!r}: use one of {valid}") from None


def sections(command: Command) -> list[tuple[str, str, tuple[str, ...]]]:
    """The command's form sections in display order: (key, title, field names)."""
    by_section: dict[str, list[str]] = {}
    for f in command.fields:
        by_section.setdefault(f.section, []).append(f.name)
    order = list(SECTION_TITLES)
    keys = sorted(by_section, key=lambda k: order.index(k) if k in order else len(order))
    return [(k, SECTION_TITLES.get(k, k.title()), tuple(by_section[k])) for k in keys]
