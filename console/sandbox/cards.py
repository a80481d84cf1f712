"""create-card-ref and create-recurring-payment: the commands that store card data as a
Recurring Payment ID (never the card number itself, see ``ids.py``).
"""

from __future__ import annotations

import time
from datetime import date, datetime

from console.sandbox import codes
from console.sandbox.calls import Call, Pairs, as_id, failure
from console.sandbox.clock import SandboxClock
from console.sandbox.ids import Ids, card, unique_ref
from console.sandbox.lifecycle import Lifecycle
from console.sandbox.records import CardRef, Order, Profile, StoredCard
from console.sandbox.recurring import AmountRule, Recurring
from console.sandbox.state import Database


class CardCommands:
    """create-card-ref and create-recurring-payment, on the sandbox's state."""

    def __init__(
        self,
        db: Database,
        clock: SandboxClock,
        ids: Ids,
        lifecycle: Lifecycle,
        recurring: Recurring,
    ) -> None:
        self.db = db
        self.clock = clock
        self.ids = ids
        self.lifecycle = lifecycle
        self.recurring = recurring

    def create_card_ref(self, call: Call) -> Pairs:
        orderid, client_orderid = call.get("orderid"), call.get("client_orderid")
        number = as_id(orderid)
        first = self.db.get(Order, number) if number is not None else None
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
                interval=as_id(interval) or 0,
                finish_date=finish.isoformat() if finish else "",
                max_repeats=as_id(max_repeats),
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


def _date(text: str) -> date | None:
    try:
        return datetime.strptime(text, "%d.%m.%Y").date() if text else None
    except ValueError:
        return None
