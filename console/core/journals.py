"""Which journal a console writes to: the team's PostgreSQL database when this profile has
a team DSN (``GATEWAY_CONSOLE_TEAM_DSN``, or the one ``team init`` saved), else the
embedded SQLite journal. Both offer the methods the send pipeline, the history pane and
the command line use (``console.core.history.History``, ``console.core.team.TeamJournal``).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from console.core.errors import JournalUnavailableError

if TYPE_CHECKING:
    from console.core.history import History
    from console.core.team.journal import TeamJournal


def team_dsn() -> str | None:
    """This profile's team DSN, or None: one person, the SQLite journal."""
    from console.core.team.dsn import configured_dsn

    return configured_dsn()


def open_journal() -> History | TeamJournal:
    """The journal every send is written to (pending before it leaves).

    Raises:
        JournalUnavailableError: it cannot be opened; nothing may be sent.
    """
    dsn = team_dsn()
    if dsn:
        from console.core.team.journal import TeamJournal

        return TeamJournal(dsn)  # raises TeamUnavailableError, a JournalUnavailableError
    from console.core.history import History
    from console.core.history_schema import HistoryDatabaseError

    try:
        return History()
    except (OSError, sqlite3.Error, HistoryDatabaseError) as exc:
        raise JournalUnavailableError(
            f"The history journal cannot be opened ({exc}); nothing was sent, because every "
            "send is journalled first."
        ) from exc
