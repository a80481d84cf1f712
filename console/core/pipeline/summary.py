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
from console.core.masking import mask_pan
from console.core.order_facts import (
    amount,
    card_number,
    client_orderid,
    currency,
    first_value,
    receiver,
)

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


def production_flags(params: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Values that only make sense on a sandbox, in plain words."""
    flags: list[str] = []
    pan = card_number(params)
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
            currency=currency(params),
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
