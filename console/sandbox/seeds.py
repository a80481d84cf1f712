"""First payments known to the sandbox: create-card-ref needs one (contract 4.1).

Seeded on every start (when missing), usable by every merchant:

============ ============================ ============ =========================================
orderid      client_orderid               status       cards
============ ============================ ============ =========================================
9000001      first-payment-1              approved     4444 44** **** 4448 -> 5555 55** **** 4444
9000002      first-payment-2              approved     4111 11** **** 1111
9000003      first-payment-declined       declined     4000 00** **** 0002
9000004      first-payment-processing     processing   4444 44** **** 4448 (never finishes)
============ ============================ ============ =========================================

More can be added with ``POST /_sandbox/first-payments`` or ``gateway-console sandbox seed``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from console.core.spec.examples import (
    SANDBOX_FIRST_PAYMENT_CLIENT_ORDERID,
    SANDBOX_FIRST_PAYMENT_ORDERID,
)
from console.core.spec.formats import luhn_valid
from console.sandbox.ids import Ids, card
from console.sandbox.records import Order
from console.sandbox.state import Database

SEED_STATUSES = ("approved", "declined", "filtered", "error", "processing", "unknown")


@dataclass(frozen=True, slots=True)
class Seed:
    """One first payment to seed."""

    orderid: int
    client_orderid: str
    status: str
    card_number: str
    dst_card_number: str = ""
    amount: str = "10.00"
    currency: str = "USD"


SEEDS = (
    Seed(
        SANDBOX_FIRST_PAYMENT_ORDERID,
        SANDBOX_FIRST_PAYMENT_CLIENT_ORDERID,
        "approved",
        "4444444444444448",
        "5555555555554444",
    ),
    Seed(9000002, "first-payment-2", "approved", "4111111111111111"),
    Seed(9000003, "first-payment-declined", "declined", "4000000000000002"),
    Seed(9000004, "first-payment-processing", "processing", "4444444444444448"),
)


def _card_number_ok(number: str) -> bool:
    """True for a card number of 12-19 digits whose Luhn check digit is right."""
    return number.isascii() and number.isdigit() and 12 <= len(number) <= 19 and luhn_valid(number)


def seed_first_payment(db: Database, ids: Ids, seed: Seed) -> Order:
    """Store a first payment (an existing orderid is left as it is and returned).

    Raises:
        ValueError: a bad status or card number, or a client_orderid already seeded.
    """
    if seed.status not in SEED_STATUSES:
        raise ValueError(f"status must be one of {', '.join(SEED_STATUSES)}")
    for name, number in (
        ("card_number", seed.card_number),
        ("dst_card_number", seed.dst_card_number),
    ):
        if number and not _card_number_ok(number):
            raise ValueError(f"{name} is not a Luhn-valid card number of 12-19 digits")
    if not seed.client_orderid.strip():
        raise ValueError("client_orderid is required")
    with db.transaction():
        existing = db.get(Order, seed.orderid) if seed.orderid else None
        if existing is not None:
            return existing
        taken = db.select(
            Order, "kind = 'first-payment' AND client_orderid = ?", (seed.client_orderid,)
        )
        if taken:
            raise ValueError(
                f"a first payment with client_orderid {seed.client_orderid!r} exists already "
                f"(orderid {taken[0].orderid})"
            )
        masked, token = card(seed.card_number)
        dst_masked, dst_token = card(seed.dst_card_number)
        now = time.time()
        order = Order(
            orderid=seed.orderid or ids.order(),
            kind="first-payment",
            client_orderid=seed.client_orderid,
            status=seed.status,
            planned_status=seed.status,
            created_at=now,
            due_at=now,
            amount=seed.amount,
            currency=seed.currency,
            receiver="card",
            masked_pan=masked,
            pan_token=token,
            dst_masked_pan=dst_masked,
            dst_pan_token=dst_token,
            finished_at=now if seed.status != "processing" else None,
        )
        db.insert(order)
    return order


def seed_defaults(db: Database, ids: Ids) -> None:
    """Store the documented first payments when they are missing."""
    for seed in SEEDS:
        seed_first_payment(db, ids, seed)
