"""Which parameters carry card data: card numbers (PAN) and card verification codes (CVV2).

The one list: the command tables mark their fields from it (``Field.sensitive``), and masking
reads it without loading the tables.
"""

from __future__ import annotations

CARD_NUMBER_FIELDS = frozenset({"credit_card_number", "credit-card-number"})
CVV_FIELDS = frozenset({"cvv2"})


def sensitivity(name: str) -> str | None:
    """``"pan"`` for a card number parameter, ``"cvv"`` for a verification code, else None."""
    if name in CARD_NUMBER_FIELDS:
        return "pan"
    if name in CVV_FIELDS:
        return "cvv"
    return None
