"""Card numbers, bank account numbers and ids: strings of characters, never numbers.

A card number written in groups, as printed on a card (``4444 4444 4444 4448``, dashes too)
is its digits. Anything kept as a number on the way has lost its exactness: a spreadsheet
keeps 15 significant digits of a number (4444444444444448 is stored as 4444444444444450,
and such a rounding may even pass the check digit: another person's card), and leading
zeros of an account number are gone. Such values are refused, never repaired.
"""

from __future__ import annotations

import re

# A card number as printed: digit groups split by spaces or dashes (also while typing).
_CARD_GROUPS = re.compile(r"[0-9][0-9 \-]*")

# What a person is told when a spreadsheet holds a card number, account number or id as a
# number: the digits it shows may not be the ones typed.
NUMBER_CELL_FIX = (
    "the spreadsheet keeps 15 digits of a number: format the column as Text and type them again"
)
# Fields whose values are strings of characters (digits, often), never amounts of anything:
# a spreadsheet's number in them is refused. Card number fields come from the contract's
# sensitive fields (``console.core.masking.pan_fields``), at the reader.
TEXT_NUMBER_FIELDS = frozenset(
    {
        "account_number",
        "routing_number",
        "bank_code",
        "ewallet_wallet",
        "crypto_wallet_address",
        "client_orderid",
        "client-orderid",
        "card_recurring_payment_id",
        "recurring-payment-id",
        "receiver_inn",
        "receiver_identity_document_number",
        "legal_person_document_number",
        "cvv2",
    }
)


def card_number_digits(text: str) -> str:
    """A card number written in groups, as printed on a card (``4444 4444 4444 4448``,
    dashes too), is its digits, which the contract's Numeric card number takes; any other
    text is returned as it is, for the contract's checks to name its mistake. The form and
    a batch file read card numbers by this one rule."""
    if (" " in text or "-" in text) and _CARD_GROUPS.fullmatch(text.strip()):
        return text.replace(" ", "").replace("-", "")
    return text
