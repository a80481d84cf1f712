"""The callback listener: receives the gateway's order callbacks for one environment.

Callbacks are outside the contract's detail ("not shown"); what is done here follows the
field notes: a GET with query parameters (a POST form is accepted too) carrying ``status``,
``orderid``, ``client_orderid``, ``type`` and ``control``, where ``control`` is the lower-case
hex SHA-1 of ``status + orderid + client_orderid + merchant_control``.

Every callback is recorded in the history database (table ``callbacks``), also those that
fail the check or repeat an earlier one:

* check: ``ok``, ``mismatch`` (flagged, never trusted), ``missing`` (a secret is set but the
  callback has no ``control``: not trusted either) or ``not-checked`` (no secret set);
* de-duplication on (``status``, ``type``, ``orderid``, ``client_orderid``) among trusted
  callbacks of the environment: a repeat is recorded with ``duplicate_of``;
* linking to the request row by ``client_orderid`` or ``orderid``; a trusted, new callback
  sets that row's final status.

Listeners (:meth:`CallbackRecorder.subscribe`) are plain callables run on the server's
thread; the UI turns them into signals. The ``control`` value itself is not stored: with the
public parts of the callback it would allow guessing the secret offline.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

from console.core.environments import Environment
from console.core.history import History, timestamp_now
from console.core.masking import mask_params

MAX_BODY = 256 * 1024  # merchant_data may be 64k; more than this is not a callback
_KEY = ("status", "type", "orderid", "client_orderid")


class CheckResult(StrEnum):
    """What the ``control`` check found."""

    OK = "ok"
    MISMATCH = "mismatch"
    MISSING = "missing"
    NOT_CHECKED = "not-checked"

    @property
    def trusted(self) -> bool:
        """Whether the callback may change a final status."""
        return self in (CheckResult.OK, CheckResult.NOT_CHECKED)


def control_code(status: str, orderid: str, client_orderid: str, secret: str) -> str:
    """``control`` as the gateway computes it (field notes)."""
    text = status + orderid + client_orderid + secret
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def check_control(params: Sequence[tuple[str, str]], secret: str | None) -> CheckResult:
    """Check the ``control`` parameter of a callback against the merchant control secret."""
    if not secret:
        return CheckResult.NOT_CHECKED
    got = dict(params)
    given = got.get("control", "").strip().lower()
    if not given:
        return CheckResult.MISSING
    expected = control_code(
        got.get("status", ""), got.get("orderid", ""), got.get("client_orderid", ""), secret
    )
    return CheckResult.OK if hmac.compare_digest(given, expected) else CheckResult.MISMATCH


@dataclass(frozen=True, slots=True)
class CallbackEvent:
    """One recorded callback, as the callbacks list shows it.

    Attributes:
        params: the parameters, masked, without the ``control`` value.
        check: the ``control`` check result.
        duplicate_of: the id of the earlier identical callback, or None.
        request_id: the history row it belongs to, or None when none matched.
        updated: history rows whose final status this callback set.
    """

    id: int
    received: datetime
    environment: str
    method: str
    remote: str
    params: tuple[tuple[str, str], ...]
    status: str | None
    type: str | None
    orderid: str | None
    client_orderid: str | None
    check: CheckResult
    duplicate_of: int | None
    request_id: int | None
    updated: tuple[int, ...] = ()


class CallbackRecorder:
    """Records callbacks of one environment into the history and applies the trusted ones."""

    def __init__(self, history: History, environment: str, merchant_control: str | None) -> None:
        self.history = history
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
        """Check, store, de-duplicate, link and apply one callback."""
        check = check_control(params, self.merchant_control)
        got = {n: v.strip() for n, v in params if v.strip()}
        key = [got.get(k) for k in _KEY]
        shown = tuple((n, "***" if n == "control" else v) for n, v in mask_params(params))
        received = timestamp_now()
        with self.history.writing() as db:
            duplicate_of = None
            if check.trusted:
                found = db.execute(
                    "SELECT min(id) FROM callbacks WHERE environment = ? AND status IS ?"
                    " AND type IS ? AND orderid IS ? AND client_orderid IS ?"
                    " AND check_result IN ('ok', 'not-checked')",
                    (self.environment, *key),
                ).fetchone()
                duplicate_of = found[0]
            request = db.execute(
                "SELECT id, client_orderid FROM requests WHERE environment = ?"
                " AND command != 'status' AND (client_orderid = ? OR gateway_order_id = ?)"
                " ORDER BY created DESC LIMIT 1",
                (self.environment, got.get("client_orderid"), got.get("orderid")),
            ).fetchone()
            cur = db.execute(
                "INSERT INTO callbacks (received, environment, method, remote, params_json,"
                " status, type, orderid, client_orderid, check_result, duplicate_of, request_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    received,
                    self.environment,
                    method,
                    remote,
                    json.dumps(shown),
                    *key,
                    str(check),
                    duplicate_of,
                    request[0] if request else None,
                ),
            )
            callback_id = int(cur.lastrowid or 0)
        updated: list[int] = []
        status = got.get("status")
        if check.trusted and duplicate_of is None and request and status:
            client_orderid = got.get("client_orderid") or request[1]
            updated = self.history.set_final_status(
                self.environment,
                client_orderid,
                status,
                orderid=got.get("orderid"),
                source="callback",
            )
        event = CallbackEvent(
            id=callback_id,
            received=datetime.fromtimestamp(received, UTC),
            environment=self.environment,
            method=method,
            remote=remote,
            params=shown,
            status=status,
            type=got.get("type"),
            orderid=got.get("orderid"),
            client_orderid=got.get("client_orderid"),
            check=check,
            duplicate_of=duplicate_of,
            request_id=request[0] if request else None,
            updated=tuple(updated),
        )
        self.history.notify("callback", callback_id)
        for listener in list(self._listeners):
            listener(event)
        return event


class CallbackListenerError(Exception):
    """The listener could not start; the message says what to change."""


class CallbackListener:
    """An HTTP server on ``host:port`` that hands every callback to a recorder.

    Answers 200 once a callback is recorded (the gateway retries otherwise), 500 when it
    could not be recorded (so the gateway tries again later), 413 for oversized bodies.
    """

    def __init__(self, recorder: CallbackRecorder, host: str = "127.0.0.1", port: int = 0):
        self.recorder = recorder
        self.host = host
        self.port = port
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def for_environment(
        cls, env: Environment, history: History, merchant_control: str | None
    ) -> CallbackListener:
        """A listener (not started) on the environment's callback settings."""
        recorder = CallbackRecorder(history, env.name, merchant_control)
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
        """Start listening. Raises CallbackListenerError (port in use, not allowed)."""
        try:
            server = _Server((self.host, self.port), _handler(self.recorder))
        except OSError as exc:
            raise CallbackListenerError(
                f"Cannot listen for callbacks on {self.host}:{self.port} ({exc.strerror or exc}). "
                "Choose another port or address in the environment's callback settings; ports "
                "below 1024 need administrator rights."
            ) from exc
        self._server = server
        self.port = int(server.server_address[1])
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.2},
            daemon=True,
            name=f"callbacks-{self.recorder.environment}",
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and wait for the server thread."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> CallbackListener:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def _handler(recorder: CallbackRecorder) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "GatewayConsoleCallbacks"
        timeout = 30

        def _answer(self, status: int, text: str) -> None:
            body = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _take(self, params: list[tuple[str, str]]) -> None:
            try:
                recorder.record(self.command, params, self.client_address[0])
            except Exception as exc:  # recorded nowhere: make the gateway try again
                self._answer(500, f"not recorded: {type(exc).__name__}\n")
                return
            self._answer(200, "OK\n")

        def do_GET(self) -> None:
            self._take(parse_qsl(urlsplit(self.path).query, keep_blank_values=True))

        def do_POST(self) -> None:
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if length < 0:
                self._answer(400, "bad Content-Length\n")
                return
            if length > MAX_BODY:
                self._answer(413, "too large\n")
                return
            body = self.rfile.read(length).decode("utf-8", "replace")
            query = parse_qsl(urlsplit(self.path).query, keep_blank_values=True)
            self._take(query + parse_qsl(body, keep_blank_values=True))

        def log_message(self, format: str, *args: object) -> None:
            pass  # every callback is in the history; no console noise

    return Handler
