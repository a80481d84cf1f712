"""Connections of the sandbox's HTTP server, held by one selector thread; requests handled by
a fixed pool of workers.

Integrators point scripts at the sandbox that misbehave: slow clients that trickle a byte at a
time, bursts of connections, connections left open. So:

* one thread reads every connection without blocking, and a request goes to a worker only
  when it is complete (head, and the body its one Content-Length announces): a slow client
  holds a buffer, never a thread;
* a fixed number of workers answer requests (the thread count stays bounded whatever comes);
* a request must arrive whole within :data:`REQUEST_DEADLINE` seconds of its first byte,
  however it trickles (408 otherwise); an idle kept-alive connection closes after
  :data:`IDLE_TIMEOUT` seconds;
* at most :data:`MAX_CONNECTIONS` are open at once: one more gets a 503 and is closed;
* the listen backlog takes bursts.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import re
import selectors
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

log = logging.getLogger("console.sandbox")

WORKERS = 8
MAX_CONNECTIONS = 4096
REQUEST_DEADLINE = 15.0
IDLE_TIMEOUT = 65.0  # the answers say Keep-Alive: timeout=60
WRITE_TIMEOUT = 30.0
MAX_HEAD = 64 * 1024
BACKLOG = 1024
_CONTENT_LENGTH = re.compile(rb"(?im)^content-length[ \t]*:[ \t]*([^\r\n]*)")


def _plain(status: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain;charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


BUSY = _plain("503 Service Unavailable", "503: too many open connections; try again shortly.\n")
TOO_SLOW = _plain("408 Request Timeout", "408: the request did not arrive whole in time.\n")


@dataclass(eq=False)
class Connection:
    """One client connection and the bytes of its next request read so far."""

    sock: socket.socket
    address: tuple[str, int]
    buffer: bytes = b""
    started: float | None = None  # when the first byte of the request being read came
    last: float = field(default_factory=time.monotonic)


def complete_length(buffer: bytes, max_body: int) -> int | None:
    """How many bytes of ``buffer`` make its first complete request; None while it is not.

    A head without exactly one plain-number Content-Length, or announcing more than
    ``max_body``, is complete at its end: the handler refuses it and reads nothing more.
    """
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return len(buffer) if len(buffer) > MAX_HEAD else None
    lengths = _CONTENT_LENGTH.findall(buffer[:end])
    if len(lengths) != 1 or not lengths[0].strip().isdigit():
        return end + 4
    length = int(lengths[0].strip())
    if length > max_body:
        return end + 4
    total = end + 4 + length
    return total if len(buffer) >= total else None


Handle = Callable[[Connection, bytes], bool]  # answers one request; True: keep it open


class ConnectionLoop:
    """The selector thread and the worker pool of one listening socket.

    Args:
        listener: a bound, listening socket.
        handle: answers one complete request on a worker; returns whether to keep the
            connection open for the next.
        max_body: the largest body a request may announce.
    """

    def __init__(self, listener: socket.socket, handle: Handle, max_body: int) -> None:
        self.listener = listener
        self.listener.setblocking(False)
        self._handle = handle
        self._max_body = max_body
        self._selector = selectors.DefaultSelector()
        self._selector.register(listener, selectors.EVENT_READ)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._returned: queue.SimpleQueue[Connection] = queue.SimpleQueue()
        self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="sandbox-worker")
        self._open: set[Connection] = set()
        self._lock = threading.Lock()
        self.stopping = threading.Event()
        self._ended = threading.Event()
        self._next_sweep = 0.0

    # -- the selector thread ------------------------------------------------------------

    def run(self, poll_interval: float = 0.1) -> None:
        """Serve until :meth:`stop`."""
        try:
            while not self.stopping.is_set():
                for key, _ in self._selector.select(poll_interval):
                    if key.fileobj is self.listener:
                        self._accept()
                    elif key.fileobj is self._wake_r:
                        with contextlib.suppress(OSError):
                            self._wake_r.recv(4096)
                    else:
                        self._read(key.data)
                self._take_back()
                self._sweep()
        finally:
            self._ended.set()

    def _accept(self) -> None:
        for _ in range(256):  # a burst is taken in turns with the reading
            try:
                sock, address = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            with self._lock:
                full = len(self._open) >= MAX_CONNECTIONS
            if full:
                with contextlib.suppress(OSError):
                    sock.setblocking(False)
                    sock.send(BUSY)
                sock.close()
                continue
            sock.setblocking(False)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = Connection(sock, address)
            with self._lock:
                self._open.add(conn)
            self._selector.register(sock, selectors.EVENT_READ, conn)

    def _read(self, conn: Connection) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            if conn.buffer:
                log.info("a client at %s hung up in the middle of its request", conn.address[0])
            self._forget(conn)
            return
        if not data:
            if conn.buffer:  # an idle connection closing is normal; a half request is news
                log.info("a client at %s hung up in the middle of its request", conn.address[0])
            self._forget(conn)
            return
        now = time.monotonic()
        if conn.started is None:
            conn.started = now
        conn.last = now
        conn.buffer += data
        self._dispatch_if_complete(conn)

    def _dispatch_if_complete(self, conn: Connection) -> None:
        length = complete_length(conn.buffer, self._max_body)
        if length is None:
            return
        raw, conn.buffer = conn.buffer[:length], conn.buffer[length:]
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(conn.sock)
        self._pool.submit(self._work, conn, raw)

    def _take_back(self) -> None:
        while True:
            try:
                conn = self._returned.get_nowait()
            except queue.Empty:
                return
            if self.stopping.is_set():
                self._close(conn)
                continue
            try:
                self._selector.register(conn.sock, selectors.EVENT_READ, conn)
            except (ValueError, OSError):
                self._close(conn)
                continue
            self._dispatch_if_complete(conn)  # a pipelined request already read

    def _sweep(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + 0.25
        for key in list(self._selector.get_map().values()):
            conn = key.data
            if not isinstance(conn, Connection):
                continue
            if conn.started is not None and now - conn.started > REQUEST_DEADLINE:
                log.info("408: a request from %s did not arrive whole in time", conn.address[0])
                with contextlib.suppress(OSError):
                    conn.sock.send(TOO_SLOW)
                self._forget(conn)
            elif conn.started is None and now - conn.last > IDLE_TIMEOUT:
                self._forget(conn)

    def _forget(self, conn: Connection) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(conn.sock)
        self._close(conn)

    # -- workers --------------------------------------------------------------------------

    def _work(self, conn: Connection, raw: bytes) -> None:
        keep = False
        try:
            conn.sock.settimeout(WRITE_TIMEOUT)  # blocking, bounded, while the answer goes out
            keep = self._handle(conn, raw) and not self.stopping.is_set()
        except (ConnectionError, TimeoutError) as exc:  # the client's doing, not a bug here
            log.info(
                "a client at %s hung up (or stopped reading) before the answer was written (%s)",
                conn.address[0],
                type(exc).__name__,
            )
        except Exception:
            log.exception("the answer to %s could not be written", conn.address[0])
        if not keep:
            self._close(conn)
            return
        with contextlib.suppress(OSError):
            conn.sock.setblocking(False)
        conn.started = time.monotonic() if conn.buffer else None
        conn.last = time.monotonic()
        self._returned.put(conn)
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    def _close(self, conn: Connection) -> None:
        with self._lock:
            self._open.discard(conn)
        with contextlib.suppress(OSError):
            conn.sock.close()

    # -- stopping -------------------------------------------------------------------------

    def stop(self, timeout: float = 5.0) -> None:
        """Stop accepting and reading, close every connection, end the workers (bounded)."""
        self.stopping.set()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        self._ended.wait(timeout)
        with self._lock:
            conns = list(self._open)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)
            self._close(conn)
        self._pool.shutdown(wait=False, cancel_futures=True)
        for sock in (self.listener, self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                sock.close()
        with contextlib.suppress(OSError, ValueError):
            self._selector.close()
