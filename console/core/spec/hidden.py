"""Characters nobody sees: where a value holds one, named by its code point.

Two values that differ by a character nobody sees look identical on every screen: an id
holding U+200B ZERO WIDTH SPACE or U+202E RIGHT-TO-LEFT OVERRIDE shows as another id in
History and in a results file, and Python's ``str.strip`` even drops U+0085 and U+2028 at its
ends. So:

* in every value: control characters (C0, DEL, C1 such as U+0085 NEXT LINE) and the line and
  paragraph separators U+2028 and U+2029 (a value is one line of text);
* in an id (:data:`ID_FIELDS`): also format characters (Unicode category Cf: zero width
  characters, U+FEFF, the bidirectional controls U+200E, U+200F, U+202A-U+202E, U+2066-
  U+2069, U+061C).

Every entrance (the window's forms, the command line's fields and files, batch files, curl
lines, team inputs) reads a value through the contract's checks
(:mod:`console.core.spec.plans`), which ask here.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# The fields that name an order, a profile, a customer or a request: ids a person compares
# by eye (History, results files, the gateway's back office).
ID_FIELDS = frozenset(
    {
        "client_orderid",
        "client-orderid",
        "orderid",
        "recurring-payment-id",
        "card_recurring_payment_id",
        "by-request-sn",
        "customer_id",
        "merchant_customer_identifier",
        "receiver_identity_document_id",
        "receiver_identity_document_number",
    }
)
_LINE_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})  # control, line and paragraph separators
_ID_CATEGORIES = _LINE_CATEGORIES | {"Cf"}  # and format characters (bidirectional controls)
# Control characters have no name in the Unicode database: their usual ones.
_CONTROL_NAMES = {
    0x00: "NULL",
    0x09: "CHARACTER TABULATION",
    0x0A: "LINE FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x85: "NEXT LINE",
}


@dataclass(frozen=True, slots=True)
class Hidden:
    """One character nobody sees, and where it is (1 is the first character)."""

    char: str
    position: int

    @property
    def code_point(self) -> str:
        """``U+202E RIGHT-TO-LEFT OVERRIDE``, ``U+0085 NEXT LINE``."""
        return f"U+{ord(self.char):04X} {char_name(self.char)}"


def char_name(char: str) -> str:
    """The character's Unicode name (control characters: their usual name)."""
    code = ord(char)
    return _CONTROL_NAMES.get(code) or unicodedata.name(char, "") or "CONTROL CHARACTER"


def hidden_character(value: str, *, id_field: bool = False) -> Hidden | None:
    """The first character of ``value`` that breaks its line (control, line or paragraph
    separator), or, in an id, that nobody sees (also format characters); None: none."""
    if value.isprintable():  # the usual case: no such character at all
        return None
    wanted = _ID_CATEGORIES if id_field else _LINE_CATEGORIES
    for at, char in enumerate(value, start=1):
        if unicodedata.category(char) in wanted:
            return Hidden(char, at)
    return None


def is_id_field(name: str) -> bool:
    """True for a field that names an order, a profile, a customer or a request."""
    return name in ID_FIELDS
