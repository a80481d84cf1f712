"""What a person confirms before a send: built from the prepared request itself, not from the
form, so what is confirmed is what goes out.

The receiver is masked (first six and last four digits of a card). On production, values that
only make sense on a sandbox are flagged: a well-known test card number, and a callback or
redirect address on this computer (the gateway cannot reach it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from console.core.addresses import is_local_address
from console.core.masking import mask_pan, pan_fields
from console.core.pipeline.guard import client_orderid

# Card numbers published for testing (field notes' sandbox card, the local sandbox's seeded
# cards and the card networks' common test numbers): never a real receiver on production.
TEST_CARDS = frozenset(
    {
        "4444444444444448",
        "4111111111111111",
        "5555555555554444",
        "4000000000000002",
        "4242424242424242",
        "5105105105105100",
        "378282246310005",
    }
)
_URL_FIELDS = (
    "server_callback_url",
    "notify_url",
    "notify-url",
    "redirect_url",
    "redirect_success_url",
    "redirect_fail_url",
)
_RECEIVERS = (
    ("stored card", ("card_recurring_payment_id",)),
    ("recurring payment id", ("recurring-payment-id",)),
    ("bank account", ("account_number",)),
    ("crypto wallet", ("crypto_wallet_address",)),
)


def first_value(params: Sequence[tuple[str, str]], *names: str) -> str | None:
    """The first non-blank value sent under one of ``names`` (stripped), else None."""
    for name in names:
        for n, v in params:
            if n == name and v.strip():
                return v.strip()
    return None


def receiver(params: Sequence[tuple[str, str]]) -> tuple[str | None, str | None]:
    """A masked description of where the money goes (or which card a profile charges), and
    the card's last four digits."""
    pan = first_value(params, *sorted(pan_fields()))
    if pan:
        digits = re.sub(r"\D", "", pan)
        return f"card {mask_pan(pan)}", digits[-4:] if len(digits) >= 4 else None
    for label, names in _RECEIVERS:
        value = first_value(params, *names)
        if value:
            return f"{label} {value}", None
    wallet = first_value(params, "ewallet_wallet")
    if wallet:
        return f"{first_value(params, 'ewallet_type') or 'e-wallet'} {wallet}", None
    return None, None


def amount(params: Sequence[tuple[str, str]]) -> str | None:
    """The amount, or the recurring amount rule (range or sequence)."""
    fixed = first_value(params, "amount")
    if fixed:
        return fixed
    low, high = first_value(params, "amount-from"), first_value(params, "amount-to")
    if low and high:
        return f"{low}-{high}"
    return first_value(params, "amount-sequence")


def production_flags(params: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Values that only make sense on a sandbox, in plain words."""
    flags: list[str] = []
    pan = first_value(params, *sorted(pan_fields()))
    if pan and re.sub(r"\D", "", pan) in TEST_CARDS:
        flags.append(f"The card {mask_pan(pan)} is a published test card, not a real receiver.")
    for name in _URL_FIELDS:
        value = first_value(params, name)
        if value and is_local_address(value):
            flags.append(
                f"{name} {value} is an address on this computer: the production gateway "
                "cannot reach it."
            )
    return tuple(flags)


@dataclass(frozen=True, slots=True)
class SendSummary:
    """The confirmation summary of one prepared request."""

    environment: str
    production: bool
    command: str
    amount: str | None
    currency: str | None
    receiver: str | None
    client_orderid: str
    flags: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        environment: str,
        production: bool,
        command: str,
        params: Sequence[tuple[str, str]],
    ) -> SendSummary:
        return cls(
            environment=environment,
            production=production,
            command=command,
            amount=amount(params),
            currency=first_value(params, "currency"),
            receiver=receiver(params)[0],
            client_orderid=client_orderid(params),
            flags=production_flags(params) if production else (),
        )

    def lines(self) -> list[str]:
        """The summary in plain lines, for a dialog or a terminal."""
        where = "PRODUCTION, real money" if self.production else "not production"
        out = [f"Environment: {self.environment} ({where})", f"Request: {self.command}"]
        out.append(f"Amount: {self.amount or '(none)'} {self.currency or ''}".rstrip())
        if self.receiver:
            out.append(f"Receiver: {self.receiver}")
        if self.client_orderid:
            out.append(f"client_orderid: {self.client_orderid}")
        out.extend(f"Check: {flag}" for flag in self.flags)
        return out
