"""Team mode: one shared journal on PostgreSQL, four-eyes approval and an audit trail.

One person needs none of this (the SQLite journal, ``console.core.history``); a team points
its consoles at a PostgreSQL database with a DSN (:mod:`.storage.dsn`). psycopg is imported
only when team mode is used.

Packages, from the bottom up (each an import-linter layer, docs/architecture.md):

- :mod:`.storage`: the database itself: the DSN, the schema and its migrations, the team
  journal the pipeline writes, the registered gateways, LISTEN/NOTIFY, card data sealed to
  the sender's key. Below the pipeline; it knows nothing of approvals.
- :mod:`.audit`: the audit trail: checking it, the audit key, signing what is new, the key
  and head a console pinned.
- :mod:`.approvals`: four-eyes above the pipeline: submit, approve or reject, the one send
  of an approved request (:class:`Approvals`), the rule every front follows to hold a
  request or a batch for approval (:func:`hold`, :func:`hold_batch`), registering gateways
  and their policies, and a maker's sends through the team sender.

Beside them, used by all three: :mod:`.errors`, :mod:`.hashing` (the keyed request hash an
approval is bound to) and :mod:`.inputs` (a team command's typed values). The team sender,
the one process holding the key that moves money, is a front of its own
(:mod:`console.sender`).
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
    from console.core.team.approvals.approval import Approvals
    from console.core.team.approvals.held import Awaiting, Held, hold
    from console.core.team.approvals.held_batch import AwaitingBatch, HeldBatch, hold_batch
    from console.core.team.approvals.submissions import (
        AuditEntry,
        Policy,
        Submission,
        Submitted,
        decision_text,
    )
    from console.core.team.hashing import content_hash
    from console.core.team.storage.dsn import configured_dsn, connect, save_dsn
    from console.core.team.storage.journal import TeamJournal
    from console.core.team.storage.live import TeamListener
    from console.core.team.storage.schema import initialise

_LAZY = {
    "Approvals": "approvals.approval",
    "AuditEntry": "approvals.submissions",
    "Policy": "approvals.submissions",
    "Submission": "approvals.submissions",
    "Submitted": "approvals.submissions",
    "content_hash": "hashing",
    "configured_dsn": "storage.dsn",
    "connect": "storage.dsn",
    "save_dsn": "storage.dsn",
    "Awaiting": "approvals.held",
    "Held": "approvals.held",
    "decision_text": "approvals.submissions",
    "hold": "approvals.held",
    "AwaitingBatch": "approvals.held_batch",
    "HeldBatch": "approvals.held_batch",
    "hold_batch": "approvals.held_batch",
    "TeamJournal": "storage.journal",
    "TeamListener": "storage.live",
    "initialise": "storage.schema",
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
