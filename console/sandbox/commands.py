"""What each command does once a request is authenticated and valid: payout-check and
status here, the card commands in ``cards.py``.

``type=error`` answers (codes 2xx) are for requests that are well formed but cannot be carried
out; their ``error-message`` says what to do instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from console.sandbox import codes
from console.sandbox.calls import Call, Pairs, as_id, failure
from console.sandbox.cards import CardCommands
from console.sandbox.clock import SandboxClock
from console.sandbox.ids import Ids, card
from console.sandbox.lifecycle import Lifecycle
from console.sandbox.outcomes import payout_outcome, receiver_kind
from console.sandbox.records import Order, StoredCard
from console.sandbox.recurring import Recurring
from console.sandbox.state import Database


class Commands(CardCommands):
    """The four commands, on the sandbox's state: the card commands plus these two."""

    def __init__(
        self,
        db: Database,
        clock: SandboxClock,
        ids: Ids,
        lifecycle: Lifecycle,
        recurring: Recurring,
        callback_delay: Callable[[], float],
    ) -> None:
        super().__init__(db, clock, ids, lifecycle, recurring)
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
        number = as_id(rpi_text)
        if number is None:
            return None
        found = self.db.get(StoredCard, number)
        return found if found is not None and found.login == login else None

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
