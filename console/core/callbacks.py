"""The callback listener: receives the gateway's order callbacks for one environment.

Callbacks are outside the contract's detail ("not shown"); what is done here follows the
field notes: a GET with query parameters (a POST form is accepted too) carrying ``status``,
``orderid``, ``client_orderid``, ``type`` and ``control``, where ``control`` is the lower-case
hex SHA-1 of ``status + orderid + client_orderid + merchant_control``.

That sum joins the fields without separators, so characters could move from one field to
the next under the same ``control``. Hence the rules, all before anything is applied:

* a callback is parsed once (:func:`parse_callback`); the check and the journal read the
  same values;
* a parameter given twice (in the query, the body or both) makes the callback
  ``malformed``, as does an ``orderid`` that is not digits;
* a callback without one of the fields ``control`` covers (or with it blank) is
  ``incomplete``, and one whose ``status`` is not a transaction status value
  (:mod:`console.core.spec.callbacks`) is ``bad-status``: neither changes anything;
* without a merchant control secret nothing can be checked: the callback is recorded as
  ``unverified`` and changes nothing; a listener that is reachable from other computers
  will not start without a secret;
* a checked callback whose ``orderid`` and ``client_orderid`` name different journal rows
  is recorded as ``unmatched`` and never applied (:mod:`console.core.history.callback_log`).

Every callback is recorded in the journal, also those that fail a check or repeat an earlier
one (``duplicate_of``: the same ``status``, ``orderid`` and ``client_orderid``, whatever its
``type``); a new callback that passed every check sets its row's final status.
In team mode the row is looked up, and its final status set, in the team's shared journal
(the recorder's ``journal``), so every console sees it within a second; the callback itself
stays in the receiving console's own journal.
Listeners (:meth:`CallbackRecorder.subscribe`) are plain callables run on the server's
thread; the UI turns them into signals. The ``control`` value itself is not stored: with the
public parts of the callback it would allow guessing the secret offline.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl

from console.core.addresses import is_loopback_host
from console.core.environments import Environment
from console.core.history import CallbackEvent, CheckResult, History, timestamp_now
from console.core.history.callback_log import Orders
from console.core.masking import mask_answer
from console.core.spec.callbacks import CONTROL_FIELDS, is_status_value, missing_control_fields

if TYPE_CHECKING:
    from console.core.http_service import App, HttpService, Receive, Scope, Send

MAX_BODY = 256 * 1024  # merchant_data may be 64k; more than this is not a callback
MAX_CONNECTIONS = 16  # callbacks being recorded at once; more wait for the gateway's retry
IDLE_TIMEOUT = 10.0  # an idle connection gives its slot back
log = logging.getLogger("console.callbacks")


def control_code(status: str, orderid: str, client_orderid: str, secret: str) -> str:
    """``control`` as the gateway computes it (field notes)."""
    text = status + orderid + client_orderid + secret
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()


@dataclass(frozen=True, slots=True)
class ParsedCallback:
    """One callback's parameters, read once for the check and the journal.

    Attributes:
        params: every parameter as received.
        values: each parameter's single value (the first, when one was repeated).
        problem: why the callback cannot be trusted whatever its control (a repeated
            parameter, a covered field missing, a status outside the contract's values, an
            orderid that is not digits), or "" when nothing is wrong.
        flaw: the check result that problem gives, or None when there is none.
    """

    params: tuple[tuple[str, str], ...]
    values: dict[str, str]
    problem: str
    flaw: CheckResult | None = None

    def get(self, name: str) -> str | None:
        """A parameter's value, or None when absent or blank."""
        value = self.values.get(name, "")
        return value if value.strip() else None


def parse_callback(params: Sequence[tuple[str, str]]) -> ParsedCallback:
    """Read a callback's parameters once; see :class:`ParsedCallback`."""
    values: dict[str, str] = {}
    repeated: list[str] = []
    for name, value in params:
        if name in values:
            repeated.append(name)
        else:
            values[name] = value
    flaw, problem = _flaw(values, repeated)
    return ParsedCallback(tuple(params), values, problem, flaw)


def _flaw(values: dict[str, str], repeated: list[str]) -> tuple[CheckResult | None, str]:
    """What makes a callback untrustworthy before its control is looked at, and why."""
    if repeated:
        return CheckResult.MALFORMED, f"repeated parameter {', '.join(sorted(set(repeated)))}"
    orderid = values.get("orderid", "")
    if orderid and not (orderid.isascii() and orderid.isdigit()):
        return CheckResult.MALFORMED, "orderid is not digits"
    missing = missing_control_fields(values)
    if missing:
        return CheckResult.INCOMPLETE, f"no {', '.join(missing)}"
    if not is_status_value(values["status"]):
        return CheckResult.BAD_STATUS, "status is not a transaction status value"
    return None, ""


def check_control(parsed: ParsedCallback, secret: str | None) -> CheckResult:
    """Check a parsed callback and its ``control`` against the merchant control secret."""
    if parsed.flaw is not None:
        return parsed.flaw
    if not secret:
        return CheckResult.UNVERIFIED
    given = parsed.values.get("control", "").strip().lower()
    if not given:
        return CheckResult.MISSING
    status, orderid, client_orderid = (parsed.values.get(name, "") for name in CONTROL_FIELDS)
    expected = control_code(status, orderid, client_orderid, secret)
    return CheckResult.OK if hmac.compare_digest(given, expected) else CheckResult.MISMATCH


class CallbackRecorder:
    """Records callbacks of one environment into the journal, which applies the trusted ones.

    Args:
        history: this console's own journal, where every callback is kept.
        journal: the journal this console's sends are written to, where a callback's order
            is found and its final status set; in team mode the team's shared journal
            (``console.core.team.TeamJournal``), so every console sees the status a
            callback to this one brought. Default: ``history``.
    """

    def __init__(
        self,
        history: History,
        environment: str,
        merchant_control: str | None,
        *,
        journal: Orders | None = None,
    ) -> None:
        self.history = history
        self.journal = journal
        self.environment = environment
        self.merchant_control = merchant_control
        self._listeners: list[Callable[[CallbackEvent], None]] = []

    def subscribe(self, listener: Callable[[CallbackEvent], None]) -> Callable[[], None]:
        """Call ``listener(event)`` for every callback recorded; returns an unsubscriber."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def record(
        self, method: str, params: Sequence[tuple[str, str]], remote: str = ""
    ) -> CallbackEvent:
        """Parse, check, store, de-duplicate, link and apply one callback."""
        parsed = parse_callback(params)
        # a callback is an answer from the gateway: card data masked in every free-text value
        shown = tuple((n, "***" if n == "control" else v) for n, v in mask_answer(params))
        event = self.history.record_callback(
            CallbackEvent(
                id=0,
                received=datetime.fromtimestamp(timestamp_now(), UTC),
                environment=self.environment,
                method=method,
                remote=remote,
                params=shown,
                status=parsed.get("status"),
                type=parsed.get("type"),
                orderid=parsed.get("orderid"),
                client_orderid=parsed.get("client_orderid"),
                check=check_control(parsed, self.merchant_control),
                duplicate_of=None,
                request_id=None,
                control=parsed.get("control"),
            ),
            self.journal,
        )
        for listener in list(self._listeners):
            listener(event)
        return event


class CallbackListenerError(Exception):
    """The listener could not start; the message says what to change."""


class CallbackListener:
    """An HTTP server on ``host:port`` that hands every callback to a recorder.

    Answers 200 once a callback is recorded (the gateway retries otherwise), 500 when it
    could not be recorded (so the gateway tries again later), 413 for bodies over
    :data:`MAX_BODY`. At most :data:`MAX_CONNECTIONS` connections are open at once: a new
    one closes the one that has gone longest without a whole request (idle, or trickling
    one in), so slow or idle clients never keep a callback out; only when every connection
    has a callback being recorded is the new one closed without an answer.
    """

    def __init__(self, recorder: CallbackRecorder, host: str = "127.0.0.1", port: int = 0):
        self.recorder = recorder
        self.host = host
        self.port = port
        self._server: HttpService | None = None

    @classmethod
    def for_environment(
        cls,
        env: Environment,
        history: History,
        merchant_control: str | None,
        *,
        journal: Orders | None = None,
    ) -> CallbackListener:
        """A listener (not started) on the environment's callback settings (``journal``:
        see :class:`CallbackRecorder`)."""
        recorder = CallbackRecorder(history, env.name, merchant_control, journal=journal)
        return cls(recorder, env.callback.host, env.callback.port)

    @property
    def url(self) -> str:
        """The address to give as ``server_callback_url``/``notify_url`` (from this machine)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host  # noqa: S104
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/callback"

    @property
    def running(self) -> bool:
        return self._server is not None

    def start(self) -> CallbackListener:
        """Start listening. Raises CallbackListenerError (port in use, not allowed, or
        reachable from other computers without a merchant control secret)."""
        if not self.recorder.merchant_control and not is_loopback_host(self.host):
            raise CallbackListenerError(
                f"Will not listen for callbacks on {self.host or 'every address'} without the "
                "merchant control secret: anyone who reaches this computer could change order "
                "statuses. Set the environment's merchant control secret, or listen on "
                "127.0.0.1 only."
            )
        # the server library is loaded here, not with the window: most sessions never listen
        from console.core.http_service import HttpService, Limits

        # At the cap the connection that has gone longest without a whole request (idle,
        # or trickling one in) is closed for the new one: a callback arrives whole at once,
        # so slow or silent connections can never keep it out.
        limits = Limits(
            max_connections=MAX_CONNECTIONS,
            request_deadline=IDLE_TIMEOUT,
            idle_timeout=IDLE_TIMEOUT,
            slow_makes_room=True,
            refusal=b"",  # closed without an answer
        )
        try:
            server = HttpService(
                _app(self.recorder),
                (self.host, self.port),
                limits,
                name=f"callbacks-{self.recorder.environment}",
                log=log,
                server_header=b"GatewayConsoleCallbacks",
            )
            server.start()
        except OSError as exc:
            raise CallbackListenerError(
                f"Cannot listen for callbacks on {self.host}:{self.port} ({exc.strerror or exc}). "
                "Choose another port or address in the environment's callback settings; ports "
                "below 1024 need administrator rights."
            ) from exc
        self._server = server
        self.port = int(server.server_address[1])
        return self

    def ask_to_stop(self) -> None:
        """Begin stopping without waiting (:meth:`stop` waits)."""
        if self._server is not None:
            self._server.ask_to_stop()

    def stop(self) -> None:
        """Stop listening and wait for the server thread."""
        if self._server is None:
            return
        self._server.stop()
        self._server = None

    def __enter__(self) -> CallbackListener:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _app(recorder: CallbackRecorder) -> App:
    """The listener's ASGI app: every callback to the recorder, on a worker thread (the
    journal may be a database on the network: the server's loop never waits for it)."""

    async def answer(send: Send, status: int, text: str) -> None:
        body = text.encode()
        headers = [
            (b"Content-Type", b"text/plain; charset=utf-8"),
            (b"Content-Length", str(len(body)).encode()),
        ]
        if status == 413:
            headers.append((b"Connection", b"close"))  # the body is not read
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    from console.core.http_service import read_body  # the server library: with the listener

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        method: str = scope["method"]
        params = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
        if method == "POST":
            length = next((int(v) for n, v in scope["headers"] if n == b"content-length"), 0)
            if length > MAX_BODY:
                await answer(send, 413, "too large\n")
                return
            body = await read_body(receive)
            if body is None:  # the gateway hung up: nothing to answer
                return
            params += parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
        elif method != "GET":
            await answer(send, 405, "GET or POST\n")
            return
        client = scope.get("client")
        remote = client[0] if client else ""
        try:
            await asyncio.to_thread(recorder.record, method, params, remote)
        except Exception as exc:  # recorded nowhere: make the gateway try again
            await answer(send, 500, f"not recorded: {type(exc).__name__}\n")
            return
        await answer(send, 200, "OK\n")

    return app
