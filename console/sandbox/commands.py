"""What each command does once a request is authenticated and valid.

``type=error`` answers (codes 2xx) are for requests that are well formed but cannot be carried
out; their ``error-message`` says what to do instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

from console.sandbox import codes
from console.sandbox.clock import SandboxClock
from console.sandbox.ids import Ids, card, unique_ref
from console.sandbox.lifecycle import Lifecycle
from console.sandbox.outcomes import payout_outcome, receiver_kind
from console.sandbox.records import CardRef, Order, Profile, StoredCard
from console.sandbox.recurring import AmountRule, Recurring
from console.sandbox.state import Database

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


class Commands:
    """The four commands, on the sandbox's state."""

    def __init__(
        self,
        db: Database,
        clock: SandboxClock,
        ids: Ids,
        lifecycle: Lifecycle,
        recurring: Recurring,
        callback_delay: Callable[[], float],
    ) -> None:
        self.db = db
        self.clock = clock
        self.ids = ids
        self.lifecycle = lifecycle
        self.recurring = recurring
        self._delay = callback_delay

    def run(self, call: Call) -> Pairs:
        handler = {
            "payout-check": self.payout_check,
            "create-card-ref": self.create_card_ref,
            "create-recurring-payment": self.create_recurring_payment,
            "status": self.status,
        }[call.command]
        return handler(call)

    def payout_check(self, call: Call) -> Pairs:
        client_orderid = call.get("client_orderid")
        rpi_text = call.get("card_recurring_payment_id", "recurring-payment-id")
        with self.db.transaction():
            existing = self.db.select(
                Order,
                "kind = 'payout' AND endpoint_id = ? AND client_orderid = ?",
                (call.endpoint_id, client_orderid),
            )
            if existing:
                old = existing[0]
                return failure(
                    call,
                    "error",
                    f"client_orderid {client_orderid} was already used for endpoint "
                    f"{call.endpoint_id}: gateway order {old.orderid} ({old.status}). Nothing "
                    "was paid out again; ask the status command for that order.",
                    codes.DUPLICATE_ORDER,
                )
            stored = self._stored_card(call.login, rpi_text) if rpi_text else None
            if rpi_text and stored is None:
                return failure(
                    call,
                    "error",
                    f"Recurring Payment ID {rpi_text} is not known for login {call.login}; "
                    "create one with create-card-ref or create-recurring-payment.",
                    codes.RECURRING_ID_UNKNOWN,
                )
            masked, token = (
                (stored.masked_pan, stored.pan_token)
                if stored
                else card(call.get("credit_card_number"))
            )
            outcome = payout_outcome(call.values)
            now = time.time()
            order = Order(
                orderid=self.ids.order(),
                kind="payout",
                client_orderid=client_orderid,
                status="processing",
                planned_status=outcome.status,
                created_at=now,
                due_at=now + max(0.0, self._delay()),
                login=call.login,
                endpoint_id=call.endpoint_id,
                serial_number=call.serial,
                error_message=outcome.message,
                error_code=str(outcome.code or ""),
                amount=call.get("amount"),
                currency=call.get("currency").upper(),
                receiver=receiver_kind(call.values),
                masked_pan=masked,
                pan_token=token,
                merchant_data=call.values.get("merchant_data") or None,
                server_callback_url=call.get("server_callback_url"),
                notify_url=call.get("notify_url"),
                rpi=stored.rpi if stored else None,
            )
            self.db.insert(order)
        self.lifecycle.accepted(order)
        return [
            ("type", "async-response"),
            ("serial-number", call.serial),
            ("merchant-order-id", client_orderid),
            ("gateway-order-id", str(order.orderid)),
            ("end-point-id", call.endpoint_id),
        ]

    def _stored_card(self, login: str, rpi_text: str) -> StoredCard | None:
        if not rpi_text.isdigit():
            return None
        found = self.db.get(StoredCard, int(rpi_text))
        return found if found is not None and found.login == login else None

    def create_card_ref(self, call: Call) -> Pairs:
        orderid, client_orderid = call.get("orderid"), call.get("client_orderid")
        first = self.db.get(Order, int(orderid)) if orderid.isdigit() else None
        if (
            first is None
            or first.kind != "first-payment"
            or (first.client_orderid != client_orderid)
        ):
            return failure(
                call,
                "error",
                f"No first payment with orderid {orderid or '(none)'} and client_orderid "
                f"{client_orderid or '(none)'} is known. Use a seeded one (orderid 9000001, "
                "client_orderid first-payment-1) or add one with POST /_sandbox/first-payments.",
                codes.FIRST_PAYMENT_UNKNOWN,
            )
        first = self.lifecycle.current(first)
        if not first.final:
            return failure(
                call,
                "error",
                f"First payment {orderid} is {first.status}, not in a final status; a card "
                "reference needs a finished first payment. Try again once it has finished.",
                codes.FIRST_PAYMENT_NOT_FINAL,
            )
        if first.status != "approved":
            return failure(
                call,
                "error",
                f"First payment {orderid} was {first.status}: its card was not authorized, so "
                "no card reference can be made from it. Use an approved first payment.",
                codes.FIRST_PAYMENT_NOT_APPROVED,
            )
        ref = self._card_ref(first, call.login)
        pairs = [
            ("type", "create-card-ref-response"),
            ("serial-number", call.serial),
            ("status", "approved"),
            ("card-ref-id", str(ref.card_ref_id)),
            ("unq-card-ref-id", str(ref.unq_card_ref_id)),
            ("recurring-payment-id", str(ref.rpi)),
        ]
        if ref.dst_card_ref_id is not None:
            pairs += [
                ("dst-card-ref-id", str(ref.dst_card_ref_id)),
                ("dst-unq-card-ref-id", str(ref.dst_unq_card_ref_id)),
                ("dst-recurring-payment-id", str(ref.dst_rpi)),
            ]
        return pairs

    def _card_ref(self, first: Order, login: str) -> CardRef:
        """The card reference of a first payment for a login (made once, then the same)."""
        with self.db.transaction():
            found = self.db.select(
                CardRef, "first_orderid = ? AND login = ?", (first.orderid, login)
            )
            if found:
                return found[0]
            ref = CardRef(
                card_ref_id=self.ids.card_ref(),
                first_orderid=first.orderid,
                login=login,
                unq_card_ref_id=unique_ref(first.pan_token),
                rpi=self.ids.rpi(),
            )
            self.db.insert(
                StoredCard(ref.rpi, "card-ref", login, first.masked_pan, first.pan_token)
            )
            if first.dst_pan_token:
                ref.dst_card_ref_id = self.ids.card_ref()
                ref.dst_unq_card_ref_id = unique_ref(first.dst_pan_token)
                ref.dst_rpi = self.ids.rpi()
                self.db.insert(
                    StoredCard(
                        ref.dst_rpi, "card-ref", login, first.dst_masked_pan, first.dst_pan_token
                    )
                )
            self.db.insert(ref)
        return ref

    def create_recurring_payment(self, call: Call) -> Pairs:
        client_orderid = call.get("client-orderid")
        today = self.clock.today()
        start = _date(call.get("start-date")) or today
        if start < today:
            return failure(
                call,
                "validation-error",
                f"start-date {call.get('start-date')} is before the sandbox's today "
                f"({today:%d.%m.%Y}); give today or a later date",
                codes.VALIDATION_CODES["start-date-past"],
            )
        finish = _date(call.get("finish-date"))
        with self.db.transaction():
            taken = self.db.select(
                Profile,
                "endpoint_id = ? AND client_orderid = ?",
                (call.endpoint_id, client_orderid),
            )
            if taken:
                return failure(
                    call,
                    "error",
                    f"client-orderid {client_orderid} already has recurring payment profile "
                    f"{taken[0].rpi} on endpoint {call.endpoint_id}; no second profile was "
                    "made.",
                    codes.DUPLICATE_PROFILE,
                )
            rule = AmountRule.from_values(call.values)
            masked, token = card(call.get("credit-card-number"))
            period, interval = call.get("period"), call.get("interval")
            max_repeats = call.get("max-repeats-number")
            profile = Profile(
                rpi=self.ids.rpi(),
                login=call.login,
                endpoint_id=call.endpoint_id,
                client_orderid=client_orderid,
                card_type=call.get("rp_card_type").upper(),
                masked_pan=masked,
                pan_token=token,
                currency=call.get("currency").upper(),
                amount_kind=rule.kind,
                amounts=rule.text(),
                start_date=start.isoformat(),
                created_at=time.time(),
                period=period,
                interval=int(interval) if interval.isdigit() else 0,
                finish_date=finish.isoformat() if finish else "",
                max_repeats=int(max_repeats) if max_repeats.isdigit() else None,
                state="active" if period and interval else "no-schedule",
                server_callback_url=call.get("server_callback_url"),
                notify_url=call.get("notify_url"),
            )
            self.db.insert(profile)
            self.db.insert(StoredCard(profile.rpi, "profile", call.login, masked, token))
        self.recurring.run_due()  # a schedule starting today charges today (contract 3)
        return [
            ("type", "create-recurring-payment-response"),
            ("serial-number", call.serial),
            ("status", "approved"),
            ("recurring-payment-id", str(profile.rpi)),
        ]

    def status(self, call: Call) -> Pairs:
        client_orderid, orderid = call.get("client_orderid"), call.get("orderid")
        found = self.db.select(
            Order,
            "client_orderid = ? AND (endpoint_id = ? OR endpoint_id IS NULL) "
            "AND (login = ? OR login IS NULL)",
            (client_orderid, call.endpoint_id, call.login),
            order="orderid DESC",
        )
        if orderid:
            found = [o for o in found if str(o.orderid) == orderid]
        if not found:
            return failure(
                call,
                "error",
                f"No order with client_orderid {client_orderid}"
                + (f" and orderid {orderid}" if orderid else "")
                + f" for endpoint {call.endpoint_id}.",
                codes.ORDER_NOT_FOUND,
            )
        order = self.lifecycle.current(found[0])
        serial = call.get("by-request-sn")
        if serial and serial != order.serial_number:
            return failure(
                call,
                "error",
                f"serial-number {serial} is not the one of order {order.orderid}'s request.",
                codes.SERIAL_MISMATCH,
            )
        pairs = [
            ("type", "status-response"),
            ("serial-number", call.serial),
            ("status", order.status),
            ("amount", order.amount),
            ("currency", order.currency),
            ("gateway-order-id", str(order.orderid)),
            ("merchant-order-id", order.client_orderid),
        ]
        if order.endpoint_id:
            pairs.append(("end-point-id", order.endpoint_id))
        if order.merchant_data is not None:
            pairs.append(("merchant_data", order.merchant_data))
        if order.status not in ("approved", "processing") and order.error_message:
            pairs += [("error-message", order.error_message), ("error-code", order.error_code)]
        return pairs


def _date(text: str) -> date | None:
    try:
        return datetime.strptime(text, "%d.%m.%Y").date() if text else None
    except ValueError:
        return None
