"""Request validation with the contract's own rules (``console.core.spec.validate``).

Errors reject the request with ``type=validation-error``: ``error-message`` lists every
error's message joined with ``; `` and ``error-code`` is the number of the first one
(``codes.VALIDATION_CODES``). Warnings never reject. Before the contract's rules the sandbox
checks two things of its own: no parameter sent twice, and every value UTF-8 text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from console.core.spec import get_command, validate
from console.core.spec.model import Severity
from console.sandbox.codes import VALIDATION_CODES, validation_code


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why a request is rejected: the message and the number for ``error-code``."""

    message: str
    code: int


def canonical_values(command: str, pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Body values by the contract's field name (aliases resolved), first occurrence kept."""
    spec = get_command(command)
    values: dict[str, str] = {}
    for name, value in pairs:
        field = spec.field(name)
        values.setdefault(field.name if field is not None else name, value)
    return values


def check(command: str, pairs: Sequence[tuple[str, str]], today: date) -> Rejection | None:
    """None when the request may be carried out, else the rejection to answer with."""
    seen: set[str] = set()
    for name, value in pairs:
        if name in seen:
            return Rejection(
                f"{name} is sent more than once; send each parameter once",
                VALIDATION_CODES["repeated"],
            )
        seen.add(name)
        if _not_text(name) or _not_text(value):
            return Rejection(
                f"{_printable(name)} is not UTF-8 text; percent-encode the UTF-8 bytes of "
                "the value",
                VALIDATION_CODES["encoding"],
            )
    problems = validate(command, dict(pairs), today=today)
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if not errors:
        return None
    return Rejection("; ".join(p.message for p in errors), validation_code(errors[0].code))


def _not_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # surrogates left by bytes that were not UTF-8
        return True
    return False


def _printable(name: str) -> str:
    return name.encode("utf-8", "replace").decode("utf-8")
