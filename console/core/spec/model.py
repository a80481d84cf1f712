"""The vocabulary in which the contract is written down as data.

Everything in ``console.core.spec`` is pure data and pure functions. The UI builds forms
from it, the CLI and the sandbox validate with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Necessity(StrEnum):
    """The contract's "Necessity" column."""

    REQUIRED = "required"
    OPTIONAL = "optional"
    CONDITIONAL = "conditional"


class FieldType(StrEnum):
    """The contract's "Type" column (dates are Numeric in the contract, DD.MM.YYYY)."""

    STRING = "String"
    NUMERIC = "Numeric"
    INT = "Int"
    LONG = "Long"
    ENUM = "Enum"
    VARCHAR = "Varchar"
    DATE = "Date"


class Severity(StrEnum):
    """How bad a validation problem is. Errors block sending, warnings do not."""

    ERROR = "error"
    WARNING = "warning"


class CardType(StrEnum):
    """Recurring profile card types (contract 4.3)."""

    SRC = "SRC"
    DST = "DST"


@dataclass(frozen=True, slots=True)
class Length:
    """The contract's "Length" column: ``max`` alone (``128``), a range (``3-4``) or none (``-``).

    ``text`` keeps the contract's own spelling ("64k", "65K", "7-45") for tooltips.
    """

    min: int | None
    max: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Field:
    """One request parameter of one command, as its table row says.

    Attributes:
        name: wire name.
        necessity: required, optional or conditional.
        type: contract type.
        length: size limits.
        meaning: the "Meaning" column, word for word.
        alias: the alternative wire name (``first_name`` for ``receiver_first_name``).
        card_types: for create-recurring-payment, the card types that support the field;
            ``None`` where the contract says nothing.
        section: the form section the UI puts the field in (order, receiver, card, ...).
        choices: allowed values for enums (``SRC``/``DST``, ``day``/``week``/``month``).
        sensitive: ``"pan"`` for card numbers, ``"cvv"`` for verification codes, else ``None``.
        note: extra contract remarks (for example "Required for SRC, optional for DST").
    """

    name: str
    necessity: Necessity
    type: FieldType
    length: Length
    meaning: str
    alias: str | None = None
    card_types: frozenset[CardType] | None = None
    section: str = "order"
    choices: tuple[str, ...] = ()
    sensitive: str | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class ResponseField:
    """One response parameter with its meaning."""

    name: str
    meaning: str


@dataclass(frozen=True, slots=True)
class Command:
    """One command of the contract.

    Attributes:
        name: ``payout-check``, ``create-card-ref``, ``create-recurring-payment`` or ``status``.
        title: a human title for menus.
        purpose: one sentence from the contract.
        fields: request fields in contract order.
        response_fields: response fields in contract order.
        success_type: the ``type`` of a success answer (``async-response`` ...).
        path_templates: ``{"endpoint": "/api/v4/x/{endpoint_id}", "group": ...}``; the
            group key is absent where the contract has no group form.
        asynchronous: whether the final outcome comes later (payout-check).
        from_field_notes: True for commands outside the contract (status).
        notes: command-level remarks and rules from the contract, in its words, for help
            panels and generated docs.
    """

    name: str
    title: str
    purpose: str
    fields: tuple[Field, ...]
    response_fields: tuple[ResponseField, ...]
    success_type: str
    path_templates: dict[str, str] = field(default_factory=dict)
    asynchronous: bool = False
    from_field_notes: bool = False
    notes: tuple[str, ...] = ()

    def field(self, name: str) -> Field | None:
        """Return the field with this wire name or alias, or None."""
        for f in self.fields:
            if f.name == name or f.alias == name:
                return f
        return None


@dataclass(frozen=True, slots=True)
class Problem:
    """One validation finding: which fields, how bad, and what to do, in plain words."""

    fields: tuple[str, ...]
    severity: Severity
    message: str
    code: str = ""

    def to_json(self) -> dict[str, object]:
        """The shape ``validate --json`` prints."""
        return {
            "fields": list(self.fields),
            "severity": str(self.severity),
            "message": self.message,
            "code": self.code,
        }
