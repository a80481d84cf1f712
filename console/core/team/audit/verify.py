"""Checking the team's audit trail, here in the console, so a function replaced in the
database cannot vouch for itself: the hash chain (schema 4,
:mod:`console.core.team.storage.schema_v4`), the signed checkpoints of its head (schema 7,
:mod:`console.core.team.storage.schema_v7`), the head this console verified before, and every
journal row against its ``send`` entry.

What it finds: an entry changed after it was written (by the table's owner or a superuser,
for example with ``session_replication_role = replica``, which turns the append-only
triggers off), an entry removed or inserted in the middle, the newest entries removed; a
chain rewritten from some point on with freshly computed hashes, as soon as a signed
checkpoint or the head this console kept covers the point; a checkpoint not signed with the
pinned audit key, a key in the database other than the pinned one; a journal row without
its ``send`` entry, or the reverse. What it cannot find: entries written after the last
signature and the last check, rewritten or removed before either covers them (it says how
many are not yet signed).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from console.core.team.audit.key import Verifier, fingerprint
from console.core.team.audit.rows import unmatched_rows
from console.core.team.audit.state import AuditState, Kept
from console.core.team.errors import TeamSetupError
from console.core.team.storage.schema_v4 import GENESIS

if TYPE_CHECKING:
    from console.core.team.storage.journal import TeamJournal

COLUMNS = "id, seq, at, actor, role, action, submission_id, request_id, environment, detail"
_PAGE = 1000


def _field(value: object) -> str:
    if value is None:
        return "~"
    text = (
        value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")
        if isinstance(value, datetime)
        else str(value)
    )
    return f"{len(text)}:{text}"


def entry_hash(prev_hash: str, content: tuple[Any, ...]) -> str:
    """The hash of one entry (its columns in the order of :data:`COLUMNS`) after ``prev_hash``:
    the database's ``gateway.audit_hash``."""
    text = prev_hash + "".join(_field(v) for v in content)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """The result of checking the trail.

    Attributes:
        entries: how many entries were checked.
        head: the newest entry's position and hash ("SEQ:HASH"), to keep elsewhere.
        broken: the first broken entry's id (None: intact, or the problem is not one entry).
        problem: what is wrong, in a person's words ("" when the trail is intact).
        key: the audit key's fingerprint ("" when the team has none).
        signed: how many entries the newest signed checkpoint covers.
        notes: what else a person should know (a key pinned on first use, no key at all).
    """

    entries: int
    head: str
    broken: int | None = None
    problem: str = ""
    key: str = ""
    signed: int = 0
    notes: tuple[str, ...] = ()

    @property
    def intact(self) -> bool:
        return not self.problem

    @property
    def unsigned(self) -> int:
        """Entries newer than the last signature ("not yet signed")."""
        return self.entries - self.signed


@dataclass(frozen=True, slots=True)
class _Signed:
    """The signed checkpoints, checked against the audit key."""

    key: str  # the public key ("" none)
    at: dict[int, str]  # seq -> signed hash
    newest: int


def rows(journal: TeamJournal, after: int = 0) -> Iterator[tuple[Any, ...]]:
    """The entries after position ``after``, in order: their columns, ``prev_hash``, ``hash``."""
    while True:
        with journal.reading() as db:
            page = db.execute(
                f"SELECT {COLUMNS}, prev_hash, hash FROM gateway.audit"  # noqa: S608 (constant)
                " WHERE seq > %s ORDER BY seq LIMIT %s",
                (after, _PAGE),
            ).fetchall()
        yield from (tuple(r) for r in page)
        if len(page) < _PAGE:
            return
        after = page[-1][1]


def verify(
    journal: TeamJournal, expect: str | None = None, state: AuditState | None = None
) -> ChainCheck:
    """Check the whole trail from its first entry; stop at the first problem.

    Args:
        expect: a head noted earlier ("SEQ:HASH"): the entry at SEQ must still have HASH.
        state: this console's record (the pinned key, the newest head it verified): checked
            against, and, when the trail is intact, moved on to its head (the key pinned on
            first use).
    """
    kept = state.kept() if state is not None else Kept()
    # one snapshot for the whole check: what the team writes meanwhile is for the next one
    with journal.writing() as db:
        db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        check, signed = _check(journal, db, kept, expect)
    if not check.intact:
        return check
    notes = _notes(signed, kept, check)
    if state is not None:
        state.keep(Kept(signed.key or kept.public_key, check.head))
    key = fingerprint(signed.key) if signed.key else ""
    return ChainCheck(check.entries, check.head, key=key, signed=signed.newest, notes=notes)


def _check(
    journal: TeamJournal, db: Any, kept: Kept, expect: str | None
) -> tuple[ChainCheck, _Signed]:
    """:func:`verify` inside its snapshot."""
    outside = db.execute(
        "SELECT id FROM gateway.audit WHERE seq IS NULL OR hash IS NULL OR prev_hash IS NULL"
        " ORDER BY id LIMIT 1"
    ).fetchone()
    head = db.execute("SELECT seq, hash FROM gateway.audit_head").fetchone()
    key_row = db.execute("SELECT public_key FROM gateway.audit_key").fetchone()
    checkpoints = db.execute(
        "SELECT seq, hash, signature FROM gateway.audit_checkpoints ORDER BY seq"
    ).fetchall()
    unsigned = _Signed("", {}, 0)
    if outside is not None:
        why = f"entry {outside[0]} was written outside the chain"
        return ChainCheck(0, "", outside[0], why), unsigned
    signed = _signatures(key_row[0] if key_row else "", kept, checkpoints)
    if isinstance(signed, ChainCheck):
        return signed, unsigned
    wanted = [(*_expected(expect), "noted earlier")]
    if kept.head:
        wanted.append((*_expected(kept.head), "this console verified before"))
    check = _chain(journal, head, signed, wanted)
    problem = unmatched_rows(db) if check.intact else ""
    if problem:
        check = ChainCheck(check.entries, check.head, None, problem)
    return check, signed


def _signatures(key: str, kept: Kept, checkpoints: list[Any]) -> _Signed | ChainCheck:
    """The checkpoints' signatures with the pinned key (the database's on first use).

    Each signature is checked once by a console: those after the head it verified before,
    and the newest, whose signature covers the whole chain up to it. An older one was
    checked then, and its entry is still bound to that head by the chain (about 0.1 ms a
    signature, which a trail signed every few seconds for years would make minutes).
    """
    if kept.public_key and key != kept.public_key:
        now = f"is {fingerprint(key)}" if key else "is gone"
        return ChainCheck(
            0,
            "",
            None,
            f"the audit key in the database {now}, not {fingerprint(kept.public_key)}, the "
            "one this console pinned: it was replaced, and what it signs proves nothing",
        )
    if checkpoints and not key:
        return ChainCheck(0, "", None, "entries were signed, but the audit key is gone")
    try:
        verifier = Verifier(key) if key else None
    except ValueError:
        return ChainCheck(0, "", None, "the audit key in the database is not an Ed25519 key")
    checked_before = _expected(kept.head)[0] or 0
    for n, (seq, digest, signature) in enumerate(checkpoints, 1):
        if seq <= checked_before and n < len(checkpoints):
            continue
        if verifier is not None and not verifier.holds(seq, digest, signature):
            return ChainCheck(
                0,
                "",
                None,
                f"the signature of entry {seq} does not verify with the audit key "
                f"{verifier.fingerprint}: it was not made with the team's key",
            )
    at = {int(seq): str(digest) for seq, digest, _ in checkpoints}
    return _Signed(key, at, max(at, default=0))


def _chain(
    journal: TeamJournal,
    head: tuple[int, str] | None,
    signed: _Signed,
    wanted: list[tuple[int | None, str | None, str]],
) -> ChainCheck:
    """Recompute the chain; compare it with the signed and the expected heads."""
    previous, count, last = GENESIS, 0, "0:" + GENESIS
    for *content, prev_hash, stored in rows(journal):
        entry, seq = content[0], content[1]
        why = ""
        if seq != count + 1:
            why = f"entries {count + 1} to {seq - 1} before it are missing"
        elif prev_hash != previous:
            why = "it does not follow the entry before it (that entry was changed or replaced)"
        elif entry_hash(previous, tuple(content)) != stored:
            why = "its content does not match its hash: it was changed after it was written"
        elif seq in signed.at and signed.at[seq] != stored:
            why = "it is not the entry that was signed: the chain was rewritten up to here"
        else:
            why = next(
                (
                    f"it is not the entry {seq} {what}: the chain was rewritten up to here"
                    for want_seq, want_hash, what in wanted
                    if seq == want_seq and stored != want_hash
                ),
                "",
            )
        if why:
            return _broken(count, last, entry, why)
        previous, count, last = stored, seq, f"{seq}:{stored}"
    if head is None or (head[0], head[1]) != (count, previous):
        problem = (
            f"the newest entries after {count} are missing (the chain's head says "
            f"{head[0] if head else 'nothing'})"
        )
        return ChainCheck(count, last, None, problem)
    if signed.newest > count:
        return ChainCheck(
            count,
            last,
            None,
            f"entries up to {signed.newest} were signed, but the trail ends at {count}: the "
            "newest entries were removed",
        )
    for want_seq, _, what in wanted:
        if want_seq is not None and want_seq > count:
            return ChainCheck(
                count,
                last,
                None,
                f"entry {want_seq} {what} is missing: the trail ends at {count}, so its newest "
                "entries were removed",
            )
    return ChainCheck(count, last)


def _notes(signed: _Signed, kept: Kept, check: ChainCheck) -> tuple[str, ...]:
    notes = []
    if not signed.key:
        notes.append(
            "The team has no audit key: nothing is signed, so the database's owner could "
            "rewrite entries newer than this check unseen (team audit-key create)."
        )
    elif not kept.public_key:
        notes.append(
            f"This console pinned the team's audit key {fingerprint(signed.key)} (first use): "
            "compare it with the fingerprint your admin published."
        )
    if signed.key and check.entries > signed.newest:
        notes.append(
            f"{check.entries - signed.newest} newest entries (after {signed.newest}) are not "
            "yet signed."
        )
    return tuple(notes)


def _broken(count: int, last: str, entry: int, why: str) -> ChainCheck:
    return ChainCheck(count, last, entry, f"entry {entry} is broken: {why}")


def _expected(expect: str | None) -> tuple[int | None, str | None]:
    """``SEQ:HASH`` as given by an earlier check."""
    if not expect:
        return None, None
    seq, _, digest = expect.strip().partition(":")
    if not seq.isdigit() or len(digest) != 64 or not seq.isascii():
        raise TeamSetupError(
            f"--expect {expect!r}: give the head an earlier `team audit --verify` printed "
            "(SEQ:HASH, e.g. 42:9f86d0...)"
        )
    return int(seq), digest.lower()
