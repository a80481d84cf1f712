"""The one error a money fact's reader raises."""

from __future__ import annotations

from console.core.errors import InputError


class MoneyFactError(InputError):
    """A money fact (amount, currency, card or account number) that cannot be taken exactly:
    the message names the field, the value and the fix (the value meant, where it is clear)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
