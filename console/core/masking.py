"""Card data masking (PCI DSS): at most the first six and last four digits of a card number
are ever shown or stored, and a card verification code never is.

Which parameters are sensitive is decided by name here, so every front, the journal and the
logs mask the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

PAN_FIELDS = frozenset({"credit_card_number", "credit-card-number"})
CVV_FIELDS = frozenset({"cvv2"})
CVV_MASK = "***"

_DIGIT = re.compile(r"\d")
# Runs of 12-19 digits, optionally grouped by single spaces or dashes: card number shaped.
_PAN_IN_TEXT = re.compile(r"(?<!\d)(?:\d[ -]?){11,18}\d(?!\d)")


def mask_pan(value: str) -> str:
    """Mask a card number to first six + last four digits, e.g. ``444444******4448``.

    Non-digits are dropped first. Numbers too short to keep ten digits safely keep only
    the last four; four digits or fewer are masked entirely.
    """
    digits = "".join(_DIGIT.findall(value))
    if not digits:
        return "*" * len(value) if value else ""
    if len(digits) <= 4:
        return "*" * len(digits)
    if len(digits) < 13:
        return "*" * (len(digits) - 4) + digits[-4:]
    return digits[:6] + "*" * (len(digits) - 10) + digits[-4:]


def mask_value(name: str, value: str) -> str:
    """Mask one parameter value according to its wire name."""
    if name in CVV_FIELDS:
        return CVV_MASK if value else ""
    if name in PAN_FIELDS:
        return mask_pan(value)
    return value


def mask_params(params: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Mask every sensitive value in a list of (name, value) pairs."""
    return [(n, mask_value(n, v)) for n, v in params]


def is_sensitive(name: str) -> bool:
    """True for parameters whose values must not be shown or stored in full."""
    return name in PAN_FIELDS or name in CVV_FIELDS


def mask_text(
    text: str, secrets: Sequence[tuple[str, str]] = (), *, card_shaped: bool = True
) -> str:
    """Mask card-number-shaped digit runs in free text, and any given sensitive values.

    ``secrets`` are (name, value) pairs whose values must not appear; they are replaced
    wherever they occur, also in their percent-encoded forms. Use this for logs and raw
    bodies; structured views should mask parameters with :func:`mask_params` instead.
    ``card_shaped=False`` masks only the given secrets: for gateway answers, whose 12-19
    digit ids (recurring payment ids, serial numbers) people need to read in full.
    """
    from urllib.parse import quote, quote_plus

    for name, value in secrets:
        if not value or not is_sensitive(name):
            continue
        masked = mask_value(name, value)
        encoded = quote(value, safe="")
        for form in {value, encoded, quote(encoded, safe=""), quote_plus(value, safe="")}:
            if name in CVV_FIELDS:
                # a CVV is short: only replace it where it stands as the parameter's value
                for sep in ("=", "%3D", "%253D"):
                    text = re.sub(
                        rf"({re.escape(name)}{re.escape(sep)}){re.escape(form)}(?![0-9])",
                        lambda m: m.group(1) + CVV_MASK,
                        text,
                    )
            else:
                text = text.replace(form, masked)
    if not card_shaped:
        return text
    return _PAN_IN_TEXT.sub(lambda m: mask_pan(m.group(0)), text)
