"""LISTEN/NOTIFY: every console hears the team's sends and decisions within a second.

The database announces on channel ``gateway_team`` (triggers and the approval functions):
``{"kind": "request"|"audit", "event": ..., "id": ...}``. A :class:`TeamListener` keeps its
own connection and calls back from its thread; fronts turn the calls into their own events.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Container

from console.core.team.storage.dsn import connect
from console.core.team.storage.schema_sql import CHANNEL

Heard = Callable[[str, str, int], None]  # kind, event, id


class TeamListener:
    """Listens on the team channel in a daemon thread until :meth:`stop`.

    Args:
        dsn: the team DSN.
        heard: called with (kind, event, id) for each notification.
        skip: backends whose own notifications are not passed on (the caller's
            connections: it already told its listeners).
    """

    def __init__(self, dsn: str, heard: Heard, *, skip: Container[int] = ()) -> None:
        self._conn = connect(dsn)
        self._conn.execute(f"LISTEN {CHANNEL}")
        self._heard = heard
        self._skip = skip
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="team-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=2.0)
        self._conn.close()

    def _run(self) -> None:
        import psycopg  # boundary: psycopg (the team extra), with the team database

        try:
            while not self._stopping.is_set():
                for note in self._conn.notifies(timeout=0.2):
                    if note.pid in self._skip:
                        continue
                    try:
                        data = json.loads(note.payload)
                        self._heard(str(data["kind"]), str(data["event"]), int(data["id"] or 0))
                    except (ValueError, KeyError, TypeError):
                        continue  # not one of ours
        except psycopg.Error:
            return  # the connection closed (stop, or the server went away)
