"""Clients that hold a listener's connections without ever finishing a request."""

from __future__ import annotations

import socket
import threading


class Tricklers:
    """``count`` connections to ``port``, each sending a request a byte at a time and never
    finishing it; one that is closed connects again at once."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._trickle, daemon=True) for _ in range(count)]

    def _trickle(self) -> None:
        while not self.stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=5) as conn:
                    conn.sendall(b"GET /callback?status=appro")
                    while not self.stop.wait(0.1):
                        conn.sendall(b"v")
            except OSError:
                continue

    def __enter__(self) -> Tricklers:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for t in self.threads:
            t.join()
