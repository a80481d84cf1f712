"""Team mode: one shared journal on PostgreSQL, four-eyes approval and an audit trail.

One person needs none of this (the SQLite journal, ``console.core.history``); a team points
its consoles at a PostgreSQL database with a DSN (:mod:`.dsn`). psycopg is imported only
when team mode is used.

Modules: :mod:`.dsn` (DSN, password from PGPASSWORD, ~/.pgpass or the keyring),
:mod:`.schema_sql` and :mod:`.schema` (roles, row-level security, append-only audit,
versioned migrations; one module per later version, :mod:`.schema_v4` on), :mod:`.gateways`
(the team's registered gateways and their policies: a console of the team sends only to
them, or to this computer), :mod:`.registry` (registering them and setting their policies),
:mod:`.journal` (:class:`TeamJournal`, the journal the pipeline and the history pane use),
:mod:`.hashing` (the keyed request hash an approval is bound to),
:mod:`.approval` (:class:`Approvals`: submit, approve/reject, the
one send of an approved request), :mod:`.submissions` (what the database keeps of them:
policies, submissions, decisions in words, audit entries), :mod:`.held` (the rule every
front follows: :func:`hold` a request for approval, submit it, wait, send it once approved),
:mod:`.held_batch` (the same for a whole batch file: :func:`hold_batch`), :mod:`.live`
(LISTEN/NOTIFY), :mod:`.audit` (checking the audit trail), :mod:`.audit_signing`
(signing what is new in it: :func:`~.audit_signing.sign_new_entries`), :mod:`.audit_key`
(the audit key) and :mod:`.audit_state` (the key and head a console pinned),
:mod:`.via_sender` (a maker's sends through the team sender),
:mod:`.sealing` (card data sealed to the sender's key), :mod:`.sender` (the team sender, the
one process holding the key that moves money; its schema: :mod:`.schema_v8`),
:mod:`.errors`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.lazy import lazy_exports
from console.core.team.errors import (
    ApprovalPendingError,
    ApprovalRefusedError,
    CardDataNeedsWaitingError,
    NotApprovedError,
    TeamPermissionError,
    TeamSetupError,
    TeamUnavailableError,
)

if TYPE_CHECKING:
    from console.core.team.approval import Approvals
    from console.core.team.dsn import configured_dsn, connect, save_dsn
    from console.core.team.hashing import content_hash
    from console.core.team.held import Awaiting, Held, hold
    from console.core.team.held_batch import AwaitingBatch, HeldBatch, hold_batch
    from console.core.team.journal import TeamJournal
    from console.core.team.live import TeamListener
    from console.core.team.schema import initialise
    from console.core.team.submissions import (
        AuditEntry,
        Policy,
        Submission,
        Submitted,
        decision_text,
    )

_LAZY = {
    "Approvals": "approval",
    "AuditEntry": "submissions",
    "Policy": "submissions",
    "Submission": "submissions",
    "Submitted": "submissions",
    "content_hash": "hashing",
    "configured_dsn": "dsn",
    "connect": "dsn",
    "save_dsn": "dsn",
    "Awaiting": "held",
    "Held": "held",
    "decision_text": "submissions",
    "hold": "held",
    "AwaitingBatch": "held_batch",
    "HeldBatch": "held_batch",
    "hold_batch": "held_batch",
    "TeamJournal": "journal",
    "TeamListener": "live",
    "initialise": "schema",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "ApprovalPendingError",
    "ApprovalRefusedError",
    "Approvals",
    "AuditEntry",
    "Awaiting",
    "AwaitingBatch",
    "CardDataNeedsWaitingError",
    "Held",
    "HeldBatch",
    "NotApprovedError",
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
    "decision_text",
    "hold",
    "hold_batch",
    "initialise",
    "save_dsn",
]
