"""What the sandbox remembers, one dataclass per table.

The SQLite schema is generated from these classes (``state.py``), so a field added here is
a column there. No record ever holds a full card number or a CVV2: cards are kept as the
masked number plus a keyed hash (``pan_token``) that makes "the same card" recognisable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

FINAL_STATUSES = frozenset({"approved", "declined", "filtered", "error"})


@dataclass(slots=True)
class Merchant:
    """A login and the public key its requests are verified with."""

    TABLE: ClassVar[str] = "merchants"
    KEY: ClassVar[str] = "login"

    login: str
    public_key_pem: str


@dataclass(slots=True)
class Endpoint:
    """An endpoint of a login, optionally inside an endpoint group."""

    TABLE: ClassVar[str] = "endpoints"
    KEY: ClassVar[str] = "endpoint_id"

    endpoint_id: str
    login: str
    group_id: str | None = None


@dataclass(slots=True)
class Order:
    """A transaction: a seeded first payment, a payout check or a recurring charge.

    ``planned_status`` is the outcome decided when the order was accepted; ``status`` moves
    from ``processing`` to it when ``due_at`` (Unix seconds) passes. Seeded first payments
    have no endpoint: every merchant may use them.
    """

    TABLE: ClassVar[str] = "orders"
    KEY: ClassVar[str] = "orderid"

    orderid: int
    kind: str  # first-payment | payout | recurring
    client_orderid: str
    status: str
    planned_status: str
    created_at: float
    due_at: float
    login: str | None = None
    endpoint_id: str | None = None
    serial_number: str = ""
    error_message: str = ""
    error_code: str = ""
    amount: str = ""
    currency: str = ""
    receiver: str = ""  # card | stored-card | bank | ewallet | crypto | other
    masked_pan: str = ""
    pan_token: str = ""
    dst_masked_pan: str = ""
    dst_pan_token: str = ""
    merchant_data: str | None = None
    server_callback_url: str = ""
    notify_url: str = ""
    rpi: int | None = None  # the stored card or profile used
    repeat_index: int | None = None  # recurring charges: the profile's repeats number
    charge_date: str = ""  # recurring charges: the schedule date (ISO) on the sandbox clock
    finished_at: float | None = None

    @property
    def final(self) -> bool:
        return self.status in FINAL_STATUSES


@dataclass(slots=True)
class OrderEvent:
    """A later update of an order (reversal, chargeback) or a status resolution."""

    TABLE: ClassVar[str] = "order_events"
    KEY: ClassVar[str] = "id"

    orderid: int
    type: str
    status: str
    amount: str
    at: float
    id: int | None = None


@dataclass(slots=True)
class StoredCard:
    """A Recurring Payment ID standing for stored card data (create-card-ref or a profile)."""

    TABLE: ClassVar[str] = "stored_cards"
    KEY: ClassVar[str] = "rpi"

    rpi: int
    source: str  # card-ref | profile
    login: str
    masked_pan: str
    pan_token: str


@dataclass(slots=True)
class CardRef:
    """The answer of create-card-ref for one first payment and login (asked again: same ids)."""

    TABLE: ClassVar[str] = "card_refs"
    KEY: ClassVar[str] = "card_ref_id"

    card_ref_id: int
    first_orderid: int
    login: str
    unq_card_ref_id: int
    rpi: int
    dst_card_ref_id: int | None = None
    dst_unq_card_ref_id: int | None = None
    dst_rpi: int | None = None


@dataclass(slots=True)
class Profile:
    """A recurring payment profile and where its schedule stands.

    ``amounts`` holds the amount rule's numbers comma-separated: one (fixed), two (range)
    or the sequence. Dates are ISO ``YYYY-MM-DD``; ``finish_date`` is empty when not given.
    ``repeats`` is the current repeats number (index of the next charge; failed charges
    count). ``state`` is ``active``, ``stopped`` or ``no-schedule``.
    """

    TABLE: ClassVar[str] = "profiles"
    KEY: ClassVar[str] = "rpi"

    rpi: int
    login: str
    endpoint_id: str
    client_orderid: str
    card_type: str
    masked_pan: str
    pan_token: str
    currency: str
    amount_kind: str  # fixed | range | sequence
    amounts: str
    start_date: str
    created_at: float
    period: str = ""
    interval: int = 0
    finish_date: str = ""
    max_repeats: int | None = None
    repeats: int = 0
    state: str = "active"
    stop_reason: str = ""
    server_callback_url: str = ""
    notify_url: str = ""


@dataclass(slots=True)
class Callback:
    """One callback to send (or sent): its address, parameters and delivery attempts."""

    TABLE: ClassVar[str] = "callbacks"
    KEY: ClassVar[str] = "id"

    orderid: int
    event: str  # final | reversal | chargeback
    url: str
    params: str  # JSON list of [name, value]
    created_at: float
    next_at: float
    state: str = "pending"  # pending | delivered | failed
    attempts: int = 0
    last_result: str = ""
    delivered_at: float | None = None
    id: int | None = None


RECORD_TYPES: tuple[Any, ...] = (
    Merchant,
    Endpoint,
    Order,
    OrderEvent,
    StoredCard,
    CardRef,
    Profile,
    Callback,
)
