"""The sandbox's HTTP server on loopback with keep-alive: connections held by one selector
thread, complete requests answered by a fixed pool of workers (see ``connections``).

Contract paths live under ``/paynet`` (``POST`` only: other methods get 405, unknown paths
404); control paths under ``/_sandbox``. Injected faults are applied here, while the answer
is written: latency, a dropped connection, a truncated or a garbage body.
"""

from __future__ import annotations

import io
import logging
import socket
import time
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import urlsplit

from console.sandbox.app import BASE_PATH, COMMAND_NAMES, ApiRequest, Sandbox, route
from console.sandbox.connections import BACKLOG, Connection, ConnectionLoop
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


class SandboxServer:
    """The sandbox's HTTP server: a listening socket whose connections a
    :class:`~console.sandbox.connections.ConnectionLoop` holds, and whose complete requests
    :class:`SandboxHandler` answers on a fixed pool of workers."""

    def __init__(self, address: tuple[str, int], sandbox: Sandbox) -> None:
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(address)
            listener.listen(BACKLOG)
        except OSError:
            listener.close()
            raise
        self.server_address: tuple[str, int] = listener.getsockname()[:2]
        self.sandbox = sandbox
        self.loop = ConnectionLoop(listener, self._answer, MAX_BODY)
        self.stopping = self.loop.stopping
        self.origin = origin_for(address[0], self.server_address[1])
        self.control = Control(sandbox, self.origin + BASE_PATH)

    def _answer(self, conn: Connection, raw: bytes) -> bool:
        handler = SandboxHandler(conn, raw, self)
        return not handler.close_connection

    def serve_forever(self, poll_interval: float = 0.1) -> None:
        self.loop.run(poll_interval)

    def shutdown(self) -> None:
        """Stop serving: close every connection, end the workers (bounded)."""
        self.loop.stop()


class _Writer:
    """What the handler writes its answer to: the connection, blocking with a timeout."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def write(self, data: bytes) -> int:
        self._sock.sendall(data)
        return len(data)

    def flush(self) -> None:
        pass


class SandboxHandler(BaseHTTPRequestHandler):
    """Answers one complete request (read whole by the connection loop) on its connection."""

    protocol_version = "HTTP/1.1"
    server_version = "gateway-console-sandbox"
    sys_version = ""
    server: SandboxServer  # type: ignore[assignment]

    def __init__(self, conn: Connection, raw: bytes, server: SandboxServer) -> None:
        self._raw = raw
        super().__init__(conn.sock, conn.address, server)  # type: ignore[arg-type]

    def setup(self) -> None:
        self.connection = self.request
        self.rfile = io.BytesIO(self._raw)
        self.wfile = _Writer(self.connection)  # type: ignore[assignment]

    def handle(self) -> None:
        self.close_connection = True
        self.handle_one_request()  # exactly one: the loop reads the next one

    def finish(self) -> None:
        pass

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
