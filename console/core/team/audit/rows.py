"""Every journal row against its ``send`` entry in the audit trail.

Each row written to ``gateway.requests`` writes a ``send`` entry in the same transaction (a
trigger), so a row without one had its entry removed (or was written with the triggers off),
and an entry without its row had the row removed. The check runs in the caller's snapshot,
after the chain itself was checked.
"""

from __future__ import annotations

from typing import Any

_NAMED = 10  # rows named at most


def unmatched_rows(db: Any) -> str:
    """What does not match, in a person's words ("" when every row has its entry)."""
    unaudited = [
        r[0]
        for r in db.execute(
            "SELECT r.id FROM gateway.requests r WHERE NOT EXISTS (SELECT 1 FROM"
            " gateway.audit a WHERE a.request_id = r.id AND a.action = 'send')"
            " ORDER BY r.id LIMIT %s",
            (_NAMED + 1,),
        )
    ]
    if unaudited:
        return (
            f"journal rows {_listed(unaudited)} were sent but have no audit entry: their "
            "entries were removed (or the rows were written with the triggers off)"
        )
    gone = [
        r[0]
        for r in db.execute(
            "SELECT a.request_id FROM gateway.audit a WHERE a.action = 'send'"
            " AND a.request_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM"
            " gateway.requests r WHERE r.id = a.request_id) ORDER BY 1 LIMIT %s",
            (_NAMED + 1,),
        )
    ]
    if gone:
        return f"the journal rows {_listed(gone)} of audited sends are missing: they were removed"
    return ""


def _listed(ids: list[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:_NAMED])
    return shown + (" and more" if len(ids) > _NAMED else "")
