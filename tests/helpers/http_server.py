"""A tiny HTTP server on 127.0.0.1 for tests: serve a handler function in a thread.

    def handler(request: Received) -> Reply:
        return Reply(200, b"type=async-response\\n", {"Content-Type": "text/html"})

    with serve(handler) as server:
        requests.post(server.url + "/api/v4/x/1", data=b"a=1")
        assert len(server.received) == 1

A reply can also wait before answering (``delay``; stopping the server cuts the wait short),
send raw bytes instead of a well-formed answer (``raw``), or close the connection without
answering (:data:`DROP`, or :data:`RESET` for a TCP reset).
"""

from __future__ import annotations

import socket
import ssl
import struct
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    """One request as the server read it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Reply:
    """What to answer. ``Content-Length`` is added unless ``headers`` or ``raw`` set it."""

    status: int = 200
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes | None = None
    reset: bool = False


DROP = Reply(raw=b"")
RESET = Reply(raw=b"", reset=True)
Handler = Callable[[Received], Reply]


class TestServer:
    """A running server: ``url`` (no trailing slash), ``received`` requests, ``port``."""

    __test__ = False  # not a test class, whatever pytest thinks of the name

    def __init__(self, httpd: ThreadingHTTPServer, stopping: threading.Event, scheme: str) -> None:
        self.httpd = httpd
        self.port: int = httpd.server_address[1]
        self.url = f"{scheme}://127.0.0.1:{self.port}"
        self.received: list[Received] = []
        self.errors: list[BaseException] = []
        self.stopping = stopping


def _handler_class(handler: Handler, state: list[TestServer]) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        timeout = 10  # a stuck client cannot keep the server from stopping for long

        def _serve(self) -> None:
            server = state[0]
            length = int(self.headers.get("Content-Length") or 0)
            request = Received(self.command, self.path, dict(self.headers), self.rfile.read(length))
            server.received.append(request)
            try:
                reply = handler(request)
            except BaseException as exc:  # reported by serve() when the block ends
                server.errors.append(exc)
                reply = Reply(500, b"handler failed")
            if reply.delay and server.stopping.wait(reply.delay):
                reply = DROP  # stopping: give up waiting and hang up
            if reply.raw is not None:
                self.wfile.write(reply.raw)
                if reply.reset:  # linger 0, and close before the server's polite shutdown
                    self.connection.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                    )
                    self.connection.close()
                self.close_connection = True
                return
            self.send_response(reply.status)
            headers = dict(reply.headers)
            if not any(k.lower() == "content-length" for k in headers):
                headers["Content-Length"] = str(len(reply.body))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)

        def do_POST(self) -> None:
            self._serve()

        def do_GET(self) -> None:
            self._serve()

        def log_message(self, format: str, *args: object) -> None:
            pass  # keep test output clean

    return _Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # so server_close() waits for handlers to finish
    # a batch's rows connect at once (up to 16): with the default backlog of 5, a busy
    # machine drops some connections, which the client tries again only a second or more
    # later (a test waiting for all of them at once then times out)
    request_queue_size = 64

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], OSError):  # a client hanging up is no news
            super().handle_error(request, client_address)


@contextmanager
def serve(handler: Handler, *, ssl_context: ssl.SSLContext | None = None) -> Iterator[TestServer]:
    """Serve ``handler`` on 127.0.0.1 at a free port until the block ends.

    With ``ssl_context`` (a server-side context holding a certificate) it speaks HTTPS.
    Exceptions raised by the handler are re-raised when the block ends.
    """
    state: list[TestServer] = []
    httpd = _Server(("127.0.0.1", 0), _handler_class(handler, state))
    if ssl_context is not None:
        # handshake in the handler thread, so a client that fails it cannot stall the server
        httpd.socket = ssl_context.wrap_socket(
            httpd.socket, server_side=True, do_handshake_on_connect=False
        )
    stopping = threading.Event()
    server = TestServer(httpd, stopping, "https" if ssl_context else "http")
    state.append(server)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server
    finally:
        stopping.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join()
    if server.errors:
        raise server.errors[0]
