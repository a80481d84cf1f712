"""Signing what is new in the team's audit trail, with the audit key the database does not
hold: the team sender calls :func:`sign_new_entries` in its loop (``team audit-key sign``
does it once, for an admin holding the key).

One signature per pass covers the chain's head, the newest entry, whose hash covers every
entry before it (a signed tree head, as in Certificate Transparency). Entries are written by
the database's triggers inside every member's own transaction, where no key may be, so
signing each entry as it is written is not possible; signing the head afterwards gives the
same guarantee for every entry up to it, with one signature per pass instead of one per
entry. Before signing, the signer checks that the chain still extends the last head signed
(the entries after it chain from it, each matching its hash), so it never signs a trail the
database's owner rewrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from console.core.team.audit.key import (
    AuditKeyError,
    fingerprint,
    public_text,
    sign,
    signature_holds,
)
from console.core.team.audit.verify import entry_hash, rows
from console.core.team.errors import AuditTamperedError, TeamPermissionError
from console.core.team.storage.schema_v4 import GENESIS

if TYPE_CHECKING:
    from console.core.team.storage.journal import TeamJournal


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A signed head: the position and hash of the newest entry it covers."""

    seq: int
    hash: str

    @property
    def head(self) -> str:
        return f"{self.seq}:{self.hash}"


def publish_key(journal: TeamJournal, key: Ed25519PrivateKey) -> str:
    """Give the team database the audit key's public half (an admin, once); its fingerprint.

    Raises:
        TeamPermissionError: the database refused (not an admin, a key set already).
    """
    public = public_text(key)
    print_ = fingerprint(public)
    with journal.writing() as db:
        answer = str(
            db.execute("SELECT gateway.set_audit_key(%s, %s)", (public, print_)).fetchone()[0]
        )
    _refused_unless_ok(answer)
    return print_


def sign_new_entries(
    journal: TeamJournal, key: Ed25519PrivateKey, after: Checkpoint | None = None
) -> Checkpoint | None:
    """Sign the trail's head if it is newer than the last head signed.

    Args:
        after: the checkpoint this signer returned last (a long-running signer passes it
            back): the database's newest must be it or newer.

    Returns:
        The new checkpoint, or None when nothing was written since the last one.

    Raises:
        AuditKeyError: ``key`` is not the team's audit key.
        AuditTamperedError: the trail or its checkpoints were changed since the last
            signature (nothing is signed; ``team audit --verify`` says more).
    """
    public = public_text(key)
    with journal.reading() as db:
        row = db.execute("SELECT public_key FROM gateway.audit_key").fetchone()
        last = db.execute(
            "SELECT seq, hash, signature FROM gateway.audit_checkpoints ORDER BY seq DESC LIMIT 1"
        ).fetchone()
    if row is None or row[0] != public:
        team = f"has {fingerprint(row[0])}" if row else "has none (team audit-key create)"
        raise AuditKeyError(
            f"The key {fingerprint(public)} is not the team's audit key: the database {team}."
        )
    start = Checkpoint(0, GENESIS)
    if last is not None:
        if not signature_holds(public, *last):
            raise AuditTamperedError(
                f"The checkpoint of entry {last[0]} was not signed with the audit key: the "
                "checkpoints were changed. Nothing was signed; run `team audit --verify`."
            )
        start = Checkpoint(int(last[0]), str(last[1]))
    if after is not None and start.seq < after.seq:
        raise AuditTamperedError(
            f"The checkpoint of entry {after.seq} signed before is gone. Nothing was signed; "
            "run `team audit --verify`."
        )
    head = _extension(journal, start)
    if head.seq == start.seq:
        return None
    with journal.writing() as db:
        answer = str(
            db.execute(
                "SELECT gateway.sign_audit(%s, %s, %s)",
                (head.seq, head.hash, sign(key, head.seq, head.hash)),
            ).fetchone()[0]
        )
    _refused_unless_ok(answer)
    return head


def _extension(journal: TeamJournal, start: Checkpoint) -> Checkpoint:
    """The newest entry, once the entries after ``start`` are checked to chain from it."""
    previous, count = start.hash, start.seq
    if start.seq:
        with journal.reading() as db:
            found = db.execute(
                "SELECT hash FROM gateway.audit WHERE seq = %s", (start.seq,)
            ).fetchone()
        if found is None or found[0] != start.hash:
            raise AuditTamperedError(
                f"Entry {start.seq} is not the one signed last: the trail was rewritten or "
                "shortened. Nothing was signed; run `team audit --verify`."
            )
    for *content, prev_hash, stored in rows(journal, start.seq):
        seq = content[1]
        chained = seq == count + 1 and prev_hash == previous
        if not chained or entry_hash(previous, tuple(content)) != stored:
            raise AuditTamperedError(
                f"Entry {seq} does not extend the trail signed up to entry {start.seq}. "
                "Nothing was signed; run `team audit --verify`."
            )
        previous, count = stored, seq
    return Checkpoint(count, previous)


def _refused_unless_ok(answer: str) -> None:
    """The database answers "ok" or "refused: why"."""
    if answer != "ok":
        why = answer.removeprefix("refused: ")
        raise TeamPermissionError(f"Refused by the team database: {why}.")
