"""One authenticated request as the commands see it, and the shape of a refusal."""

from __future__ import annotations

from dataclasses import dataclass

Pairs = list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Call:
    """One authenticated request: who, which endpoint, and the body by contract name."""

    command: str
    login: str
    endpoint_id: str
    values: dict[str, str]
    serial: str

    def get(self, *names: str) -> str:
        """The first non-blank value among ``names``, stripped ("" when none)."""
        for name in names:
            value = self.values.get(name, "").strip()
            if value:
                return value
        return ""


def failure(call: Call, type_: str, message: str, code: int) -> Pairs:
    """A ``validation-error`` or ``error`` answer."""
    pairs = [("type", type_), ("serial-number", call.serial)]
    order_id = call.get("client_orderid", "client-orderid")
    if order_id:
        pairs.append(("merchant-order-id", order_id))
    return [*pairs, ("error-message", message), ("error-code", str(code))]


def as_id(text: str) -> int | None:
    """A whole number that fits SQLite's 64-bit integers, or None (ids from requests)."""
    if text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None
