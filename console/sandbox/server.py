"""The sandbox's HTTP server: a threaded ``http.server`` on loopback with keep-alive.

Contract paths live under ``/paynet`` (``POST`` only: other methods get 405, unknown paths
404); control paths under ``/_sandbox``. Injected faults are applied here, while the answer
is written: latency, a dropped connection, a truncated or a garbage body.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from console.sandbox.app import BASE_PATH, COMMAND_NAMES, ApiRequest, Sandbox, route
from console.sandbox.control import PREFIX, Control
from console.sandbox.wire import CONTRACT_HEADERS, FORM_CONTENT_TYPE, Reply, internal_error, plain

log = logging.getLogger("console.sandbox")
MAX_BODY = 1024 * 1024
# Bytes that are no form data at all: what a broken proxy or a crashed backend might send.
GARBAGE = b"\xff\xfe\x00\x01<\x8f\x90garbage\x00\xc3\x28\xa0\xa1 not form data \xe2\x82\n"


_NOT_FOUND = (
    "404 Not Found: {path} is not a path of this sandbox. Command paths are "
    f"{BASE_PATH}/api/v4/<command>/<endpoint_id> and "
    f"{BASE_PATH}/api/v4/<command>/group/<endpoint_group_id> (no group form for "
    f"create-recurring-payment); commands: {', '.join(COMMAND_NAMES)}. "
    f"Sandbox controls: GET {PREFIX}."
)


def origin_for(host: str, port: int) -> str:
    """The address people and clients on this machine use to reach a server bound to ``host``.

    A wildcard bind (``0.0.0.0``, ``::``) is reached locally through loopback; the printed
    base URL must be one a client can actually send to (and sign: the whole URL is signed).
    """
    shown = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # noqa: S104
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


class SandboxServer(ThreadingHTTPServer):
    """A threaded HTTP server that knows its sandbox and closes every connection on stop."""

    daemon_threads = False
    block_on_close = True
    request_queue_size = 128
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], sandbox: Sandbox) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, SandboxHandler)
        self.sandbox = sandbox
        self.stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._conn_lock = threading.Lock()
        self.origin = origin_for(address[0], self.server_address[1])
        self.control = Control(sandbox, self.origin + BASE_PATH)

    def track(self, conn: socket.socket, add: bool) -> None:
        with self._conn_lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def close_connections(self) -> None:
        """Wake every handler waiting on a kept-alive connection so that it can end."""
        self.stopping.set()
        with self._conn_lock:
            for conn in list(self._connections):
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)


class SandboxHandler(BaseHTTPRequestHandler):
    """One connection: reads requests and writes the sandbox's answers."""

    protocol_version = "HTTP/1.1"
    server_version = "gateway-console-sandbox"
    sys_version = ""
    timeout = 65  # an idle kept-alive connection is closed (the answers say timeout=60)
    disable_nagle_algorithm = True  # headers and body go out at once, no delayed-ACK stalls
    server: SandboxServer

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, True)
        if self.server.stopping.is_set():  # accepted while stopping: do not wait for a request
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.track(self.connection, False)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)

    def do_POST(self) -> None:
        self._dispatch()

    # Every method goes through one dispatcher, which answers 405 where POST is needed.
    do_GET = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_POST  # noqa: N815

    def parse_request(self) -> bool:
        self._started = time.perf_counter()  # from the request line on: headers count too
        return super().parse_request()

    def _dispatch(self) -> None:
        started = getattr(self, "_started", time.perf_counter())
        method = self.command
        parts = urlsplit(self.path)
        path = parts.path
        body = self._read_body()
        if body is None:
            return
        if path == PREFIX or path.startswith(PREFIX + "/"):
            try:
                reply = self.server.control.handle(
                    method,
                    path,
                    parts.query.encode("latin-1"),
                    body,
                    self.headers.get("Content-Type", "").lower(),
                )
            except Exception:
                reply, error_id = internal_error()
                log.exception("internal error on control path %s [%s]", path, error_id)
            self._write(reply)
            return
        api_route = route(path)
        if api_route is None:
            self._write(plain(404, _NOT_FOUND.format(path=path)))
            return
        if method != "POST":
            self._write(
                plain(
                    405, f"405 Method Not Allowed: {path} answers POST only.", (("Allow", "POST"),)
                )
            )
            return
        request = ApiRequest(
            api_route,
            method,
            "http",
            self.headers.get("Host") or self.server.origin.split("//", 1)[1],
            path,
            parts.query.encode("latin-1"),
            {name: self.headers.get(name, "") for name in ("Content-Type", "Authorization")},
            body,
        )
        try:
            result = self.server.sandbox.handle(request)
        except Exception:  # every request gets an answer, also when the sandbox has a bug
            reply, error_id = internal_error()
            log.exception("internal error while handling %s [%s]", path, error_id)
            self._write(reply)
            return
        latency = result.faults.latency or 0.0
        if latency:
            self.server.stopping.wait(latency)
        self._write(result.reply, result.faults.answer)
        self.server.sandbox.stats.add(time.perf_counter() - started - latency)

    def _read_body(self) -> bytes | None:
        lengths = self.headers.get_all("Content-Length") or []
        if len(lengths) > 1 or (lengths and not lengths[0].strip().isdigit()):
            # two lengths (or a length that is not a plain number) is how request smuggling
            # starts: refuse it and read nothing more from this connection
            self.close_connection = True
            self._write(plain(400, "400 Bad Request: give exactly one Content-Length, a number."))
            return None
        length_text = lengths[0] if lengths else None
        if length_text is None:
            if self.headers.get("Transfer-Encoding"):
                self._write(plain(411, "411 Length Required: send a Content-Length."))
                return None
            return b""
        try:
            length = int(length_text)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            self._write(plain(413, f"413: the body must be 0 to {MAX_BODY} bytes."))
            return None
        return self.rfile.read(length)

    def _write(self, reply: Reply, fault: str | None = None) -> None:
        if fault == "drop":
            log.info("fault drop: connection closed without an answer")
            self.close_connection = True
            return
        body, status, content_type = reply.body, reply.status, reply.content_type
        if fault == "garbage":
            body, status, content_type = GARBAGE, 200, FORM_CONTENT_TYPE
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (*CONTRACT_HEADERS, *reply.headers):
            self.send_header(name, value)
        if fault == "truncate":
            self.close_connection = True
            body = body[: len(body) // 2]
        if self.close_connection or self.server.stopping.is_set():
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()
