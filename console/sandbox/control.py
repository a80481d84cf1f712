"""Sandbox-only control paths under ``/_sandbox`` (outside ``/paynet``, so they cannot be
mistaken for the contract's). No signature; JSON answers; request bodies may be JSON objects
or form data.

=======  ======================================  ============================================
GET      /_sandbox                               overview: base URL, merchants, clock, faults
GET      /_sandbox/merchants                     registered merchants
POST     /_sandbox/merchants                     login, public_key_pem, endpoint_id[,
                                                 endpoint_group_id]
POST     /_sandbox/first-payments                seed a first payment: client_orderid[,
                                                 orderid, status, card_number,
                                                 dst_card_number, amount, currency]
GET      /_sandbox/orders                        every order (``?kind=payout`` filters)
GET      /_sandbox/orders/<orderid>              one order with its events and callbacks
POST     /_sandbox/orders/<orderid>/reversal     a reversal (notify_url hears of it)
POST     /_sandbox/orders/<orderid>/chargeback   a chargeback (notify_url hears of it)
POST     /_sandbox/orders/<orderid>/resolve      status: settle an ``unknown`` outcome
GET      /_sandbox/profiles                      recurring profiles with their charges
GET      /_sandbox/callbacks                     callbacks and their delivery attempts
GET      /_sandbox/clock                         the sandbox clock
POST     /_sandbox/clock/advance                 days and/or seconds: run the schedules
GET      /_sandbox/faults                        the injected faults
POST     /_sandbox/faults                        spec (empty for none)
DELETE   /_sandbox/faults                        no faults
POST     /_sandbox/callback-delay                seconds before payouts become final
GET      /_sandbox/stats                         requests served, time and CPU spent
=======  ======================================  ============================================
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Callable
from typing import Any

from console.sandbox.app import Sandbox
from console.sandbox.calls import as_id
from console.sandbox.lifecycle import LifecycleError
from console.sandbox.oauth import parse_form
from console.sandbox.records import Callback, Order, OrderEvent, Profile
from console.sandbox.seeds import SEEDS, Seed, seed_first_payment
from console.sandbox.wire import Reply, json_reply

PREFIX = "/_sandbox"
Handler = Callable[["Control", dict[str, str], list[str]], object]
_HIDDEN = frozenset({"pan_token", "dst_pan_token"})


def _readable(pattern: str) -> str:
    """A route pattern as people write paths: ``/orders/<orderid>/reversal``."""
    return pattern.replace(r"(\d+)", "<orderid>").replace("(", "").replace(")", "")


MAX_CONTROL_BODY = 64 * 1024
MAX_JSON_DEPTH = 32
MAX_CALLBACK_DELAY = 3600.0
_ID = re.compile(r"[0-9]{1,18}")  # order ids are SQLite integers


def _nesting(body: bytes) -> int:
    """How deep brackets nest (strings included: an over-estimate is safe)."""
    depth = deepest = 0
    for byte in body:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


def order_id(text: str) -> int:
    """An order id from a control path; a number too long to be one is refused."""
    if not _ID.fullmatch(text):
        raise ControlError(f"There is no order {text[:40]}: order ids are numbers of 1-18 digits.")
    return int(text)


class ControlError(ValueError):
    """A control request that cannot be done; answered 400 with the message."""


def _order_json(order: Order) -> dict[str, Any]:
    data = {k: v for k, v in dataclasses.asdict(order).items() if k not in _HIDDEN}
    data["final"] = order.final
    return data


def _callback_json(record: Callback) -> dict[str, Any]:
    data = dataclasses.asdict(record)
    data["params"] = dict(json.loads(record.params))
    return data


class Control:
    """Answers the control paths of one sandbox."""

    def __init__(self, sandbox: Sandbox, base_url: str) -> None:
        self.sandbox = sandbox
        self.base_url = base_url
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = [
            ("GET", re.compile(r""), Control.overview),
            ("GET", re.compile(r"/merchants"), Control.merchants),
            ("POST", re.compile(r"/merchants"), Control.add_merchant),
            ("POST", re.compile(r"/first-payments"), Control.seed),
            ("GET", re.compile(r"/orders"), Control.orders),
            ("GET", re.compile(r"/orders/(\d+)"), Control.order),
            ("POST", re.compile(r"/orders/(\d+)/(reversal|chargeback)"), Control.update),
            ("POST", re.compile(r"/orders/(\d+)/resolve"), Control.resolve),
            ("GET", re.compile(r"/profiles"), Control.profiles),
            ("GET", re.compile(r"/callbacks"), Control.callbacks),
            ("GET", re.compile(r"/clock"), Control.clock),
            ("POST", re.compile(r"/clock/advance"), Control.advance),
            ("GET", re.compile(r"/faults"), Control.faults),
            ("POST", re.compile(r"/faults"), Control.set_faults),
            ("DELETE", re.compile(r"/faults"), Control.clear_faults),
            ("POST", re.compile(r"/callback-delay"), Control.set_delay),
            ("GET", re.compile(r"/stats"), Control.stats),
        ]

    def handle(self, method: str, path: str, query: bytes, body: bytes, content_type: str) -> Reply:
        """Answer one control request."""
        rest = path[len(PREFIX) :].rstrip("/")
        matches = [(m, r.fullmatch(rest), h) for m, r, h in self._routes]
        found = [(m, match, h) for m, match, h in matches if match is not None]
        if not found:
            return json_reply(404, {"error": f"No control path {path}; see GET {PREFIX}."})
        for route_method, match, handler in found:
            if route_method == method:
                try:
                    args = {**dict(parse_form(query)), **self._body(body, content_type)}
                    return json_reply(200, handler(self, args, list(match.groups())))
                except (ControlError, LifecycleError, ValueError) as exc:
                    return json_reply(400, {"error": str(exc)})
        allowed = ", ".join(sorted({m for m, _, _ in found}))
        return json_reply(405, {"error": f"{path} answers {allowed} only."})

    @staticmethod
    def _body(body: bytes, content_type: str) -> dict[str, str]:
        if not body.strip():
            return {}
        if len(body) > MAX_CONTROL_BODY:
            raise ControlError(f"A control body may be at most {MAX_CONTROL_BODY} bytes.")
        if "json" in content_type:
            if _nesting(body) > MAX_JSON_DEPTH:
                raise ControlError(f"The JSON is nested more than {MAX_JSON_DEPTH} deep.")
            try:
                data = json.loads(body)
            except (ValueError, RecursionError) as exc:
                raise ControlError(f"The body is not JSON: {exc}") from None
            if not isinstance(data, dict):
                raise ControlError("The body must be a JSON object.")
            return {str(k): "" if v is None else str(v) for k, v in data.items()}
        return dict(parse_form(body))

    def overview(self, args: dict[str, str], groups: list[str]) -> object:
        sandbox = self.sandbox
        return {
            "base_url": self.base_url,
            "merchants": self.merchants(args, groups),
            "clock": self.clock(args, groups),
            "faults": sandbox.faults.spec,
            "callback_delay": sandbox.callback_delay,
            "seeded_first_payments": [dataclasses.asdict(s) for s in SEEDS],
            "control_paths": [
                f"{method} {PREFIX}{_readable(pattern.pattern)}"
                for method, pattern, _ in self._routes
            ],
        }

    def merchants(self, args: dict[str, str], groups: list[str]) -> object:
        return [dataclasses.asdict(m) for m in self.sandbox.merchants.all()]

    def add_merchant(self, args: dict[str, str], groups: list[str]) -> object:
        need = [n for n in ("login", "public_key_pem", "endpoint_id") if not args.get(n)]
        if need:
            raise ControlError(f"Give {', '.join(need)}.")
        info = self.sandbox.merchants.add(
            args["login"],
            args["public_key_pem"],
            args["endpoint_id"],
            args.get("endpoint_group_id") or None,
        )
        return dataclasses.asdict(info)

    def seed(self, args: dict[str, str], groups: list[str]) -> object:
        orderid = args.get("orderid", "")
        if orderid and as_id(orderid) is None:
            raise ControlError("orderid must be a whole number (or left out).")
        seed = Seed(
            int(orderid or 0),
            args.get("client_orderid", ""),
            args.get("status") or "approved",
            args.get("card_number") or "4444444444444448",
            args.get("dst_card_number", ""),
            args.get("amount") or "10.00",
            (args.get("currency") or "USD").upper(),
        )
        return _order_json(seed_first_payment(self.sandbox.db, self.sandbox.ids, seed))

    def orders(self, args: dict[str, str], groups: list[str]) -> object:
        kind = args.get("kind")
        found = (
            self.sandbox.db.select(Order, "kind = ?", (kind,))
            if kind
            else (self.sandbox.db.select(Order))
        )
        return [_order_json(self.sandbox.lifecycle.current(o)) for o in found]

    def order(self, args: dict[str, str], groups: list[str]) -> object:
        db = self.sandbox.db
        order = db.get(Order, order_id(groups[0]))
        if order is None:
            raise ControlError(f"There is no order {groups[0]}.")
        data = _order_json(self.sandbox.lifecycle.current(order))
        data["events"] = [
            dataclasses.asdict(e) for e in db.select(OrderEvent, "orderid = ?", (order.orderid,))
        ]
        data["callbacks"] = [
            _callback_json(c) for c in db.select(Callback, "orderid = ?", (order.orderid,))
        ]
        return data

    def update(self, args: dict[str, str], groups: list[str]) -> object:
        order, sent = self.sandbox.lifecycle.update(order_id(groups[0]), groups[1])
        return {"orderid": order.orderid, "update": groups[1], "callbacks": sent}

    def resolve(self, args: dict[str, str], groups: list[str]) -> object:
        order = self.sandbox.lifecycle.resolve(order_id(groups[0]), args.get("status", ""))
        return _order_json(order)

    def profiles(self, args: dict[str, str], groups: list[str]) -> object:
        db = self.sandbox.db
        result = []
        for profile in db.select(Profile):
            data = {k: v for k, v in dataclasses.asdict(profile).items() if k not in _HIDDEN}
            data["charges"] = [
                _order_json(o)
                for o in db.select(
                    Order, "kind = 'recurring' AND rpi = ?", (profile.rpi,), order="repeat_index"
                )
            ]
            result.append(data)
        return result

    def callbacks(self, args: dict[str, str], groups: list[str]) -> object:
        return [_callback_json(c) for c in self.sandbox.db.select(Callback)]

    def clock(self, args: dict[str, str], groups: list[str]) -> object:
        clock = self.sandbox.clock
        return {
            "now": clock.now(),
            "today": clock.today().isoformat(),
            "offset_seconds": clock.offset,
        }

    def advance(self, args: dict[str, str], groups: list[str]) -> object:
        try:
            days, seconds = float(args.get("days") or 0), float(args.get("seconds") or 0)
        except ValueError:
            raise ControlError("days and seconds must be numbers.") from None
        charged = self.sandbox.advance_clock(days=days, seconds=seconds)
        return {**self.clock(args, groups), "charges": charged}  # type: ignore[dict-item]

    def faults(self, args: dict[str, str], groups: list[str]) -> object:
        return {"spec": self.sandbox.faults.spec}

    def set_faults(self, args: dict[str, str], groups: list[str]) -> object:
        if "spec" not in args:
            # A misspelt key must not quietly clear the faults: DELETE (or spec="") clears.
            raise ControlError(
                'Give the faults as "spec" (for example {"spec": "payout-check:500"}); '
                f"DELETE {PREFIX}/faults clears them."
            )
        return {"spec": self.sandbox.set_faults(args["spec"]).spec}

    def clear_faults(self, args: dict[str, str], groups: list[str]) -> object:
        return {"spec": self.sandbox.set_faults(None).spec}

    def stats(self, args: dict[str, str], groups: list[str]) -> object:
        stats = self.sandbox.stats
        with stats.lock:
            requests, seconds = stats.requests, stats.seconds
        return {
            "requests": requests,
            "handler_seconds": seconds,
            "verify_seconds": self.sandbox.auth.verify_seconds,
            "process_cpu_seconds": time.process_time(),
        }

    def set_delay(self, args: dict[str, str], groups: list[str]) -> object:
        try:
            seconds = float(args.get("seconds", ""))
        except ValueError:
            raise ControlError("seconds must be a number (0 or more).") from None
        if not 0 <= seconds <= MAX_CALLBACK_DELAY:  # also refuses NaN
            raise ControlError(f"seconds must be a number from 0 to {MAX_CALLBACK_DELAY:.0f}.")
        self.sandbox.callback_delay = seconds
        return {"callback_delay": seconds}
