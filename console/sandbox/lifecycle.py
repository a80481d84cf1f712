"""An order's life after it was accepted: ``processing`` until the callback delay has passed,
then its decided status; later updates (reversal, chargeback) and the resolution of an
``unknown`` outcome. Every change to a final status sends the callbacks.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial

from console.sandbox.callbacks import CallbackSender
from console.sandbox.records import FINAL_STATUSES, Order, OrderEvent
from console.sandbox.scheduler import Scheduler
from console.sandbox.state import Database

log = logging.getLogger("console.sandbox")
UPDATE_TYPES = ("reversal", "chargeback")
_CALLBACK_TYPE = {"payout": "payout", "recurring": "sale", "first-payment": "sale"}


class LifecycleError(ValueError):
    """An update that does not fit the order's state; the message says why."""


class Lifecycle:
    """Moves orders to their final status and announces every change by callback."""

    def __init__(
        self,
        db: Database,
        scheduler: Scheduler,
        callbacks: CallbackSender,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.scheduler = scheduler
        self.callbacks = callbacks
        self._wall = wall

    def accepted(self, order: Order) -> None:
        """A new order was stored: finish it now (no delay) or when its delay has passed."""
        if order.status != "processing":
            if order.final:
                self._announce(order)
            return
        if order.due_at <= self._wall():
            self.finish(order.orderid)
        else:
            self.scheduler.call_at_wall(order.due_at, partial(self.finish, order.orderid))

    def resume(self) -> None:
        """Pick up orders a previous run left processing (``--state``)."""
        for order in self.db.select(Order, "status = 'processing'"):
            self.scheduler.call_at_wall(order.due_at, partial(self.finish, order.orderid))

    def finish(self, orderid: int) -> Order | None:
        """Give a processing order whose delay has passed its decided status."""
        with self.db.transaction():
            order = self.db.get(Order, orderid)
            if (
                order is None
                or order.status != "processing"
                or order.planned_status == "processing"  # a seed that never finishes
                or order.due_at > self._wall()
            ):
                return order
            order.status = order.planned_status
            order.finished_at = self._wall()
            self.db.update(order, "status", "finished_at")
        log.info("order %s is %s", orderid, order.status)
        if order.final:
            self._announce(order)
        return order

    def current(self, order: Order) -> Order:
        """The order as it stands now (finished first if its delay has passed)."""
        if order.status == order.planned_status:
            return order
        if order.status == "processing" and order.due_at <= self._wall():
            return self.finish(order.orderid) or order
        return order

    def resolve(self, orderid: int, status: str) -> Order:
        """Settle an order whose outcome is ``unknown`` (what a gateway's staff would do).

        Raises:
            LifecycleError: no such order, not unknown, or not a final status given.
        """
        if status not in FINAL_STATUSES:
            raise LifecycleError(f"status must be one of {', '.join(sorted(FINAL_STATUSES))}")
        with self.db.transaction():
            order = self._order(orderid)
            if order.status != "unknown":
                raise LifecycleError(f"order {orderid} is {order.status}, not unknown")
            order.status = order.planned_status = status
            if status == "approved":
                order.error_message = order.error_code = ""
            elif order.error_message.startswith("The processor did not confirm"):
                order.error_message = f"Resolved as {status} after an unknown outcome"
            order.finished_at = self._wall()
            self.db.update(order)
            self.db.insert(OrderEvent(orderid, "resolution", status, order.amount, self._wall()))
        self._announce(order)
        return order

    def update(self, orderid: int, type_: str) -> tuple[Order, int]:
        """Record a reversal or chargeback of an approved order; notify_url hears of it.

        Returns the order and the number of callbacks sent for the update.

        Raises:
            LifecycleError: unknown type or order, or an order that was not approved.
        """
        if type_ not in UPDATE_TYPES:
            raise LifecycleError(f"the update must be one of {', '.join(UPDATE_TYPES)}")
        with self.db.transaction():
            order = self._order(orderid)
            if order.status != "approved":
                raise LifecycleError(
                    f"order {orderid} is {order.status}; only approved orders can have a {type_}"
                )
            done = self.db.select(OrderEvent, "orderid = ? AND type = ?", (orderid, type_))
            if done:
                raise LifecycleError(f"order {orderid} already has a {type_}")
            self.db.insert(OrderEvent(orderid, type_, "approved", order.amount, self._wall()))
        sent = self.callbacks.enqueue(
            order, event=type_, type_=type_, status="approved", amount=order.amount
        )
        log.info("order %s: %s recorded, %d callback(s)", orderid, type_, sent)
        return order, sent

    def _order(self, orderid: int) -> Order:
        order = self.db.get(Order, orderid)
        if order is None:
            raise LifecycleError(f"there is no order {orderid}")
        return self.current(order)

    def _announce(self, order: Order) -> None:
        self.callbacks.enqueue(
            order,
            event="final",
            type_=_CALLBACK_TYPE.get(order.kind, order.kind),
            status=order.status,
            amount=order.amount,
        )
