"""Identifiers the sandbox hands out, and how it recognises a card without storing it.

Numbers come from counters kept in the state, so they never repeat across restarts with
``--state``. A card number is never stored: only its masked form (first six, last four) and
a keyed SHA-256 token, which lets the same card get the same ``unq-card-ref-id``.
"""

from __future__ import annotations

import hashlib
import hmac

from console.core.masking import mask_pan
from console.sandbox.state import Database

ORDER_START = 10_000_001
RPI_START = 700_000_000_001  # Recurring Payment IDs are longs
CARD_REF_START = 500_001
_TOKEN_KEY = b"gateway-console-sandbox card token"


def pan_token(pan: str) -> str:
    """A keyed hash of the card number's digits (the same card, the same token)."""
    digits = "".join(c for c in pan if c.isdigit())
    return hmac.new(_TOKEN_KEY, digits.encode("ascii"), hashlib.sha256).hexdigest()


def card(pan: str) -> tuple[str, str]:
    """The masked card number and its token, or two empty strings without a card."""
    return (mask_pan(pan), pan_token(pan)) if pan.strip() else ("", "")


def unique_ref(token: str) -> int:
    """A reference id unique per card number (``unq-card-ref-id``), derived from its token."""
    return int(token[:12], 16) % 9_000_000_000 + 1_000_000_000


class Ids:
    """Counters for order ids, Recurring Payment IDs and card reference ids."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def order(self) -> int:
        return self.db.next_id("next_orderid", ORDER_START)

    def rpi(self) -> int:
        return self.db.next_id("next_rpi", RPI_START)

    def card_ref(self) -> int:
        return self.db.next_id("next_card_ref", CARD_REF_START)
