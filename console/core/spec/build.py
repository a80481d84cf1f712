"""Small helpers that keep the field tables close to the contract's own rows.

The tables in ``payout_check``, ``card_ref``, ``recurring`` and ``status`` are written with
:func:`row`, which takes the contract's columns as they are printed (``"Required"``,
``"Numeric"``, ``"3-4"``, ``"64k"``) and turns them into :class:`~.model.Field` values.
"""

from __future__ import annotations

import re

from .model import CardType, Field, FieldType, Length, Necessity
from .sensitive import sensitivity

# "k"/"K" is read as 1024 in both spellings the contract uses: "64k" (payout-check
# merchant_data) is 65536 characters and "65K" (create-recurring-payment order_desc) is 66560.
# The contract does not say which thousand it means; the binary one is the larger reading, so
# the console never refuses text the gateway might accept, and the gateway has the last word.
KILO = 1024

_RANGE = re.compile(r"^(\d+)-(\d+)$")
_KILO = re.compile(r"^(\d+)[kK]$")

SRC_AND_DST = frozenset({CardType.SRC, CardType.DST})
SRC_ONLY = frozenset({CardType.SRC})


def length(text: str) -> Length:
    """Parse the contract's "Length" column.

    Args:
        text: ``"128"``, ``"3-4"``, ``"7-45"``, ``"64k"``, ``"65K"``, ``"-"`` or ``"not shown"``.

    Returns:
        The limits, with ``text`` kept as the contract spells it.

    Raises:
        ValueError: for a spelling the contract does not use (a typo in a table).
    """
    if text in ("-", "not shown"):
        return Length(None, None, text)
    if text.isdigit():
        return Length(None, int(text), text)
    if m := _RANGE.match(text):
        return Length(int(m.group(1)), int(m.group(2)), text)
    if m := _KILO.match(text):
        return Length(None, int(m.group(1)) * KILO, text)
    raise ValueError(f"unknown length spelling {text!r}")


def row(
    name: str,
    necessity: str,
    type_: FieldType,
    length_text: str,
    meaning: str,
    *,
    section: str,
    alias: str | None = None,
    card_types: frozenset[CardType] | None = None,
    choices: tuple[str, ...] = (),
    note: str = "",
) -> Field:
    """One table row, in the order the contract's columns are printed."""
    return Field(
        name=name,
        necessity=Necessity(necessity.lower()),
        type=type_,
        length=length(length_text),
        meaning=meaning,
        alias=alias,
        card_types=card_types,
        section=section,
        choices=choices,
        sensitive=sensitivity(name),  # card data: the one list in .sensitive
        note=note,
    )


def v4_paths(command: str, *, group: bool = True) -> dict[str, str]:
    """The contract's path templates of ``command``: ``/api/v4/<command>/{endpoint_id}`` and,
    unless ``group`` is False (the contract has no group form), the ``group/`` form."""
    paths = {"endpoint": f"/api/v4/{command}/{{endpoint_id}}"}
    if group:
        paths["group"] = f"/api/v4/{command}/group/{{endpoint_group_id}}"
    return paths
