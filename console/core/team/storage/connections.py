"""The team journal's connections to the database: one for each thread sending at once.

A console sends one request at a time and keeps one connection. The team sender and
``batch run`` send several at once (``--concurrency N``): with one connection their rows'
transactions (the guard's look-up, the claim, the pending row, the answer) would wait for
each other, so they are given up to N, each held by one thread at a time.

Every connection stays open until the journal closes: a pending row names the session
that wrote it (``writer_backend``), and the database takes a row whose session is gone for
an interrupted send, so a session ends only with the process (or the journal) that wrote
its rows.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from console.core.team.storage.dsn import connect


class Connections:
    """Up to ``size`` connections as the DSN's person, opened as threads need them.

    A thread holds one connection at a time; asking again while it holds one (a transaction
    that reads inside itself) gives it the same one. Thread-safe.

    Args:
        dsn: the team DSN.
        size: how many threads may use the database at once (1 or more).

    Raises:
        TeamUnavailableError: the first connection could not be opened.
    """

    def __init__(self, dsn: str, size: int = 1) -> None:
        if size < 1:
            raise ValueError("a journal needs at least one connection")
        self.dsn = dsn
        self.size = size
        self._every: list[Any] = []
        self._idle: list[Any] = []
        self._free = threading.Condition()
        self._mine = threading.local()
        # the sessions of this journal: their notifications are its own writes
        self.backends: set[int] = set()
        self.first = self._open()
        self._idle.append(self.first)

    def _open(self) -> Any:
        conn = connect(self.dsn)
        conn.execute("SET search_path = gateway, pg_temp")
        self.backends.add(int(conn.info.backend_pid))
        self._every.append(conn)
        return conn

    @contextmanager
    def held(self) -> Iterator[Any]:
        """A connection for this thread alone until the block ends."""
        mine = getattr(self._mine, "conn", None)
        if mine is not None:  # already this thread's: the same session
            yield mine
            return
        with self._free:
            while not self._idle and len(self._every) >= self.size:
                self._free.wait()
            conn = self._idle.pop() if self._idle else self._open()
        self._mine.conn = conn
        try:
            yield conn
        finally:
            self._mine.conn = None
            with self._free:
                self._idle.append(conn)
                self._free.notify()

    def close(self) -> None:
        """Close every connection (their sessions end: rows they left pending are then
        interrupted ones), once the other threads' transactions have ended."""
        mine = getattr(self._mine, "conn", None)
        with self._free:
            while len(self._idle) + (mine is not None) < len(self._every):
                self._free.wait()
            for conn in self._every:
                conn.close()
