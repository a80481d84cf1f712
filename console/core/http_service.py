"""A small HTTP/1.1 server for an ASGI app: uvicorn with the httptools (llhttp) parser, run
in its own thread with its own asyncio loop, with limits that hold from accept on.

The parser is strict: two Content-Lengths, a Content-Length beside Transfer-Encoding, a bare
CR or LF as a line end are answered 400 and the connection is closed. On top of uvicorn:

* at most ``max_connections`` are open at once. When a new one comes and the server is full,
  the connection idle the longest is closed to make room (an idle socket holds nothing, so
  idle sockets can never shut out a client). With ``slow_makes_room`` a request still
  arriving may make room too: the connection that has gone the longest without a whole
  request (idle or trickling one in) is closed, a trickling one with a 408, so slow clients
  can never shut out a client that sends its request at once. Only when every connection
  has a whole request being answered does the new one get a 503 and is closed;
* a request must arrive whole within ``request_deadline`` seconds of its first byte, however
  it trickles (408 otherwise); a connection without a request in progress closes after
  ``idle_timeout`` seconds, counted from accept or from its last answer.

The app finds a :class:`Link` to its connection in ``scope["extensions"]["console"]``: it may
close the connection without an answer (the sandbox's injected faults do).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import resource
import socket
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
LINGER = 1.0  # seconds a refused connection stays open after its refusal was sent
FD_RESERVE = 64  # descriptors kept free for files, the journal, outgoing callbacks


async def read_body(receive: Receive) -> bytes | None:
    """The whole body of the request an ASGI app is answering (None: the client hung up)."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def _plain(status: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain;charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


BUSY = _plain("503 Service Unavailable", "503: too many open connections; try again shortly.\n")
TOO_SLOW = _plain("408 Request Timeout", "408: the request did not arrive whole in time.\n")
NOT_HTTP = _plain(
    "400 Bad Request",
    "400 Bad Request: this is not a valid HTTP request (for example two Content-Lengths, "
    "a Content-Length beside Transfer-Encoding, or a line not ended by CRLF).\n",
)


@dataclass(frozen=True, slots=True)
class Limits:
    """How much a server takes: connections at once, how long a request and a silence may be."""

    max_connections: int
    request_deadline: float
    idle_timeout: float
    backlog: int = 1024
    idle_makes_room: bool = True  # False: at the cap, every new connection is refused
    # True: a request still arriving makes room as well (the oldest first; see the module)
    slow_makes_room: bool = False
    refusal: bytes = BUSY  # written to a refused connection before it is closed


class Link:
    """One connection as its app sees it: its peer, and a way to close it unanswered."""

    def __init__(self, transport: asyncio.Transport, peer: str) -> None:
        self._transport = transport
        self.peer = peer
        self.timed_out = False  # closed by the request deadline (408 already sent)
        self.started = time.perf_counter()  # the first byte of the current request

    def close(self) -> None:
        """Close the connection at once (nothing more is written)."""
        self._transport.close()


class _Room:
    """The connections of one server that hold a slot without a whole request, oldest first:
    ``idle`` (no request in progress) and ``waiting`` (idle, or a request still arriving),
    each ordered by when the connection was accepted or last answered."""

    def __init__(self, limits: Limits, log: logging.Logger) -> None:
        self.limits = limits
        self.log = log
        self.idle: dict[asyncio.Protocol, None] = {}
        self.waiting: dict[asyncio.Protocol, None] = {}

    def victim(self) -> asyncio.Protocol | None:
        """The connection to close for a new one (None: the new one is refused)."""
        if self.limits.slow_makes_room:
            return next(iter(self.waiting), None)
        if self.limits.idle_makes_room:
            return next(iter(self.idle), None)
        return None

    def forget(self, conn: asyncio.Protocol) -> None:
        self.idle.pop(conn, None)
        self.waiting.pop(conn, None)


def _protocol(room: _Room) -> type[HttpToolsProtocol]:
    limits, log = room.limits, room.log

    class Guarded(HttpToolsProtocol):
        """uvicorn's httptools protocol with the limits above."""

        link: Link
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.link = Link(transport, self.client[0] if self.client else "?")
            if len(self.connections) > limits.max_connections:
                victim = room.victim()
                if victim is None:
                    log.info("refused: %d connections are open", len(self.connections) - 1)
                    if limits.refusal:
                        transport.write(limits.refusal)
                    # nothing more is read; the end is sent at once, the socket closed a
                    # moment later, so that what the client sent meanwhile does not turn
                    # the refusal into a reset it may read before the answer
                    transport.pause_reading()
                    transport.write_eof()
                    self.loop.call_later(LINGER, transport.close)
                    return
                arriving = victim not in room.idle
                room.forget(victim)
                if arriving:  # a request that trickled in slower than the new one
                    victim.too_slow()  # type: ignore[attr-defined]
                else:
                    victim.transport.close()  # type: ignore[attr-defined]
            self._rest()

        def _rest(self) -> None:
            room.idle[self] = None
            room.waiting.pop(self, None)  # to the end: its wait starts now
            room.waiting[self] = None
            self._arm(limits.idle_timeout, self._quiet_too_long)

        def _arm(self, seconds: float, then: Callable[[], None]) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self.loop.call_later(seconds, then)

        def _quiet_too_long(self) -> None:
            self.transport.close()

        def too_slow(self) -> None:
            if self.transport.is_closing():
                return
            log.info("408: a request from %s did not arrive whole in time", self.link.peer)
            self.link.timed_out = True
            self.transport.write(TOO_SLOW)
            self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            room.idle.pop(self, None)
            room.waiting.setdefault(self, None)  # a request pipelined behind an answer
            self.link.started = time.perf_counter()
            self._arm(limits.request_deadline, self.too_slow)
            self.scope["extensions"] = {"console": {"link": self.link}}

        def on_message_complete(self) -> None:
            super().on_message_complete()
            room.waiting.pop(self, None)  # being answered: it holds its slot to the end
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self._timer is None:
                self._rest()

        def connection_lost(self, exc: Exception | None) -> None:
            room.forget(self)
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            log.info("400: a request from %s is not valid HTTP/1.1 (%s)", self.link.peer, msg)
            self.transport.write(NOT_HTTP)
            self.transport.close()

    return Guarded


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; the new soft limit.

    Every connection is a descriptor: the default soft limit (often 1,024) would refuse
    connections long before :attr:`Limits.max_connections`.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class HttpService:
    """An ASGI app served on ``address`` by a thread of its own until :meth:`stop`.

    The socket is bound here, so a port in use raises ``OSError`` in the caller's thread.
    """

    def __init__(
        self,
        app: App,
        address: tuple[str, int],
        limits: Limits,
        *,
        name: str,
        log: logging.Logger,
        server_header: bytes = b"",
    ) -> None:
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        # IPPROTO_TCP named: asyncio turns Nagle's algorithm off only for sockets that say
        # so, and with it on every answer (head, then body) waits ~40 ms for a delayed ACK
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(limits.backlog)
        except OSError:
            sock.close()
            raise
        self._sock = sock
        self.server_address: tuple[str, int] = sock.getsockname()[:2]
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        fits = limits.max_connections if soft < 0 else max(1, soft - FD_RESERVE)
        room = _Room(
            dataclasses.replace(limits, max_connections=min(limits.max_connections, fits)),
            log,
        )
        config = uvicorn.Config(
            app,
            http=_protocol(room),
            loop="asyncio",
            lifespan="off",
            ws="none",
            log_config=None,
            access_log=False,
            proxy_headers=False,  # no proxy in front: the client address is the peer
            server_header=False,
            headers=[("Server", server_header.decode())] if server_header else None,
            timeout_keep_alive=int(limits.idle_timeout) or 1,
            timeout_graceful_shutdown=3,
            backlog=limits.backlog,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.stopping = threading.Event()
        self.stop_event: asyncio.Event | None = None  # the same, for the app on the loop

    def _run(self) -> None:
        async def serve() -> None:
            self._loop = asyncio.get_running_loop()
            self.stop_event = asyncio.Event()
            await self._server.serve(sockets=[self._sock])

        asyncio.run(serve())

    def start(self, timeout: float = 10.0) -> None:
        """Serve in the background; returns once the server takes connections."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started and self._thread.is_alive():
            if time.monotonic() > deadline:
                raise OSError("the HTTP server did not start in time")
            time.sleep(0.005)
        if not self._server.started:
            raise OSError("the HTTP server could not start")

    def ask_to_stop(self) -> None:
        """Begin stopping and return at once (:meth:`stop` waits for the end). The server
        takes a few tenths of a second to wind down: servers asked together end together."""
        self.stopping.set()
        if self._loop is not None and self.stop_event is not None:
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                self._loop.call_soon_threadsafe(self.stop_event.set)
        self._server.should_exit = True

    def stop(self, timeout: float = 5.0) -> None:
        """Stop accepting, close idle connections, let answers in progress end (bounded)."""
        self.ask_to_stop()
        if self._thread.is_alive():
            self._thread.join(timeout)
        with contextlib.suppress(OSError):
            self._sock.close()
