"""Team mode: one shared journal on PostgreSQL, four-eyes approval and an audit trail.

One person needs none of this (the SQLite journal, ``console.core.history``); a team points
its consoles at a PostgreSQL database with a DSN (:mod:`.dsn`). psycopg is imported only
when team mode is used.

Modules: :mod:`.dsn` (DSN, password from PGPASSWORD, ~/.pgpass or the keyring),
:mod:`.schema_sql` and :mod:`.schema` (roles, row-level security, append-only audit,
versioned migrations), :mod:`.journal` (:class:`TeamJournal`, the journal the pipeline and the
history pane use), :mod:`.approval` (:class:`Approvals`: policy, submit, approve/reject, the
one send of an approved request), :mod:`.live` (LISTEN/NOTIFY), :mod:`.errors`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.lazy import lazy_exports
from console.core.team.errors import (
    ApprovalRefusedError,
    TeamPermissionError,
    TeamSetupError,
    TeamUnavailableError,
)

if TYPE_CHECKING:
    from console.core.team.approval import (
        Approvals,
        AuditEntry,
        Policy,
        Submission,
        Submitted,
        content_hash,
    )
    from console.core.team.dsn import configured_dsn, connect, save_dsn
    from console.core.team.journal import TeamJournal
    from console.core.team.live import TeamListener
    from console.core.team.schema import initialise

_LAZY = {
    "Approvals": "approval",
    "AuditEntry": "approval",
    "Policy": "approval",
    "Submission": "approval",
    "Submitted": "approval",
    "content_hash": "approval",
    "configured_dsn": "dsn",
    "connect": "dsn",
    "save_dsn": "dsn",
    "TeamJournal": "journal",
    "TeamListener": "live",
    "initialise": "schema",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "ApprovalRefusedError",
    "Approvals",
    "AuditEntry",
    "Policy",
    "Submission",
    "Submitted",
    "TeamJournal",
    "TeamListener",
    "TeamPermissionError",
    "TeamSetupError",
    "TeamUnavailableError",
    "configured_dsn",
    "connect",
    "content_hash",
    "initialise",
    "save_dsn",
]
