"""The sandbox without HTTP: routing of contract paths and one request's way through
authentication, injected faults, endpoint ownership, validation and the command.

The HTTP layer (``server.py``) hands each request in as an :class:`ApiRequest` and writes the
:class:`ApiResult` back, applying the latency and answer faults it carries.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from console.sandbox import codes, validation
from console.sandbox.auth import DEFAULT_WINDOW, Authenticator, AuthError, SignedRequest
from console.sandbox.callbacks import CallbackSender
from console.sandbox.calls import Call, failure
from console.sandbox.clock import SandboxClock
from console.sandbox.commands import Commands
from console.sandbox.faults import Faults, FaultSet, parse_faults
from console.sandbox.ids import Ids
from console.sandbox.lifecycle import Lifecycle
from console.sandbox.merchants import Merchants
from console.sandbox.oauth import parse_form
from console.sandbox.recurring import Recurring
from console.sandbox.scheduler import Scheduler
from console.sandbox.seeds import seed_defaults
from console.sandbox.state import Database
from console.sandbox.wire import Reply, access_denied, form_reply, internal_error, new_serial, plain

log = logging.getLogger("console.sandbox")
BASE_PATH = "/paynet"
# /api/v4/<command>/<endpoint_id> or /api/v4/<command>/group/<endpoint_group_id>
_ROUTE = re.compile(r"/api/v4/([a-z-]+)/(?:(group)/)?([^/]+)")
_GROUP_FORM = frozenset({"payout-check", "create-card-ref", "status"})
COMMAND_NAMES = ("create-card-ref", "payout-check", "create-recurring-payment", "status")
TICK_SECONDS = 30.0  # how often recurring schedules look at the sandbox clock


@dataclass(frozen=True, slots=True)
class Route:
    """A contract path: the command and the endpoint or group it addresses."""

    command: str
    form: str  # endpoint | group
    ident: str


@dataclass(frozen=True, slots=True)
class ApiRequest:
    """A request to a contract path, as it arrived."""

    route: Route
    method: str
    scheme: str
    host: str
    path: str
    query: bytes
    headers: Mapping[str, str]
    body: bytes


@dataclass(frozen=True, slots=True)
class ApiResult:
    """The answer and the faults still to apply while sending it."""

    reply: Reply
    faults: FaultSet = field(default_factory=FaultSet)


def route(path: str, base_path: str = BASE_PATH) -> Route | None:
    """The contract route of a path, or None when the path is not one."""
    if not path.startswith(base_path + "/"):
        return None
    match = _ROUTE.fullmatch(path[len(base_path) :])
    if match is None or match.group(1) not in COMMAND_NAMES:
        return None
    command, group, ident = match.groups()
    if group and command not in _GROUP_FORM:
        return None
    return Route(command, "group" if group else "endpoint", ident)


@dataclass
class Stats:
    """Request counts and time spent, for the benchmark."""

    requests: int = 0
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, seconds: float) -> None:
        with self.lock:
            self.requests += 1
            self.seconds += seconds


class Sandbox:
    """Everything the sandbox knows and does, wired together."""

    def __init__(
        self,
        *,
        state_path: str | Path | None = None,
        callback_delay: float = 2.0,
        faults: str | None = None,
        merchant_control: str | None = None,
        auth_window: float = DEFAULT_WINDOW,
        callback_attempts: int = 5,
        callback_backoff: float = 1.0,
        remote_callbacks: bool = False,
    ) -> None:
        self.faults: Faults = parse_faults(faults)
        self.callback_delay = callback_delay
        self.db = Database(state_path)
        self.clock = SandboxClock(float(self.db.meta("clock_offset") or 0.0))
        self.ids = Ids(self.db)
        self.merchants = Merchants(self.db)
        self.auth = Authenticator(
            self.merchants.public_key, ids=self.merchants.ids, window=auth_window
        )
        self.scheduler = Scheduler()
        self.callbacks = CallbackSender(
            self.db,
            self.scheduler,
            attempts=callback_attempts,
            backoff=callback_backoff,
            merchant_control=merchant_control,
            remote=remote_callbacks,
        )
        self.lifecycle = Lifecycle(self.db, self.scheduler, self.callbacks)
        self.recurring = Recurring(self.db, self.clock, self.lifecycle, self.ids.order)
        self.commands = Commands(
            self.db,
            self.clock,
            self.ids,
            self.lifecycle,
            self.recurring,
            lambda: self.callback_delay,
        )
        self.stats = Stats()
        seed_defaults(self.db, self.ids)

    def start(self) -> None:
        """Start background work and pick up what a previous run left (``--state``)."""
        self.scheduler.start()
        self.lifecycle.resume()
        self.callbacks.resume()
        self._tick()

    def _tick(self) -> None:
        self.recurring.run_due()
        self.scheduler.call_later(TICK_SECONDS, self._tick, periodic=True)

    def stop(self) -> None:
        self.scheduler.stop()
        self.db.close()

    def set_faults(self, spec: str | None) -> Faults:
        """Replace the injected faults (None or "" for none). Raises ValueError."""
        self.faults = parse_faults(spec)
        log.info("faults now: %s", self.faults.spec or "none")
        return self.faults

    def advance_clock(self, *, days: float = 0, seconds: float = 0) -> list[int]:
        """Move the sandbox clock forward and make the charges now due; their order ids."""
        offset = self.clock.advance(days=days, seconds=seconds)
        self.db.set_meta("clock_offset", repr(offset))
        return [o.orderid for o in self.recurring.run_due()]

    def handle(self, request: ApiRequest) -> ApiResult:
        """One request to a contract path, from authentication to the answer."""
        route_ = request.route
        content_type = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if content_type and content_type != "application/x-www-form-urlencoded":
            return ApiResult(
                plain(
                    415, f"The body must be application/x-www-form-urlencoded, not {content_type}."
                )
            )
        body = parse_form(request.body)
        signed = SignedRequest(
            request.method,
            request.scheme,
            request.host,
            request.path,
            request.headers.get("Authorization"),
            parse_form(request.query) + body,
            request.query,
            request.body,
            request.headers.get("Content-Type") or None,
        )
        try:
            login = self.auth.check(signed)
        except AuthError as exc:
            log.warning(
                "403 for %s %s (login %s): %s",
                request.method,
                request.path,
                exc.login or "unknown",
                exc.reason,
            )
            return ApiResult(access_denied())
        faults = self.faults.for_command(route_.command)
        if faults.answer == "500":
            reply, error_id = internal_error()
            log.warning(
                "fault 500 injected for %s [%s]; nothing was processed", route_.command, error_id
            )
            return ApiResult(reply, faults)
        try:
            pairs = self._run(route_, login, body)
        except Exception:
            reply, error_id = internal_error()
            log.exception("internal error while handling %s [%s]", request.path, error_id)
            return ApiResult(reply)
        return ApiResult(form_reply(pairs), faults)

    def _run(
        self, route_: Route, login: str, pairs: list[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        serial = new_serial()
        values = validation.canonical_values(route_.command, pairs)
        endpoint_id = self.merchants.resolve(login, route_.form, route_.ident)
        call = Call(route_.command, login, endpoint_id or "", values, serial)
        if endpoint_id is None:
            what = "endpoint group" if route_.form == "group" else "endpoint"
            return failure(
                call,
                "error",
                f"The {what} {route_.ident} is not one of login {login}'s.",
                codes.ENDPOINT_NOT_YOURS,
            )
        rejection = validation.check(route_.command, pairs, self.clock.today())
        if rejection is not None:
            log.info(
                "validation-error %s for %s: %s", rejection.code, route_.command, rejection.message
            )
            return failure(call, "validation-error", rejection.message, rejection.code)
        started = time.perf_counter()
        answer = self.commands.run(call)
        log.debug(
            "%s for %s done in %.1f ms",
            route_.command,
            login,
            (time.perf_counter() - started) * 1000,
        )
        return answer
