"""Checking the team's audit trail: every entry carries the hash of the entry before it
(schema 4, :mod:`console.core.team.schema_v4`), and this module recomputes the chain here, in
the console, so a function replaced in the database cannot vouch for itself.

What it finds: an entry changed after it was written (by the table's owner or a superuser,
for example with ``session_replication_role = replica``, which turns the append-only
triggers off), an entry removed or inserted in the middle, the newest entries removed. What
it cannot find: a database administrator who rewrites every entry from some point on and
recomputes their hashes, and the head with them. Against that, keep the head :func:`verify`
reports somewhere the administrator cannot write, and compare it later (``expect``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from console.core.team.schema_v4 import GENESIS

if TYPE_CHECKING:
    from console.core.team.journal import TeamJournal

_COLUMNS = "id, seq, at, actor, role, action, submission_id, request_id, environment, detail"
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
    """The hash of one entry (its columns in the order of ``_COLUMNS``) after ``prev_hash``:
    the database's ``gateway.audit_hash``."""
    text = prev_hash + "".join(_field(v) for v in content)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """The result of checking the chain.

    Attributes:
        entries: how many entries were checked.
        head: the newest entry's position and hash ("SEQ:HASH"), to keep elsewhere.
        broken: the first broken entry's id (None: intact, or only the newest are missing).
        problem: what is wrong, in a person's words ("" when the chain is intact).
    """

    entries: int
    head: str
    broken: int | None = None
    problem: str = ""

    @property
    def intact(self) -> bool:
        return not self.problem


def _rows(journal: TeamJournal) -> Iterator[tuple[Any, ...]]:
    after = 0
    while True:
        with journal.reading() as db:
            page = db.execute(
                f"SELECT {_COLUMNS}, prev_hash, hash FROM gateway.audit"  # noqa: S608 (constant)
                " WHERE seq > %s ORDER BY seq LIMIT %s",
                (after, _PAGE),
            ).fetchall()
        yield from (tuple(r) for r in page)
        if len(page) < _PAGE:
            return
        after = page[-1][1]


def verify(journal: TeamJournal, expect: str | None = None) -> ChainCheck:
    """Recompute the audit chain from its first entry; stop at the first broken one.

    Args:
        expect: a head noted earlier ("SEQ:HASH"): the entry at SEQ must still have HASH.
    """
    with journal.reading() as db:
        outside = db.execute(
            "SELECT id FROM gateway.audit WHERE seq IS NULL OR hash IS NULL OR prev_hash IS NULL"
            " ORDER BY id LIMIT 1"
        ).fetchone()
        head = db.execute("SELECT seq, hash FROM gateway.audit_head").fetchone()
    if outside is not None:
        return ChainCheck(0, "", outside[0], f"entry {outside[0]} was written outside the chain")
    want_seq, want_hash = _expected(expect)
    previous, count, last = GENESIS, 0, "0:" + GENESIS
    for *content, prev_hash, stored in _rows(journal):
        entry, seq = content[0], content[1]
        if seq != count + 1:
            return _broken(
                count, last, entry, f"entries {count + 1} to {seq - 1} before it are missing"
            )
        if prev_hash != previous:
            return _broken(
                count,
                last,
                entry,
                "it does not follow the entry before it (that entry was changed or replaced)",
            )
        if entry_hash(previous, tuple(content)) != stored:
            return _broken(
                count,
                last,
                entry,
                "its content does not match its hash: it was changed after it was written",
            )
        if seq == want_seq and stored != want_hash:
            return _broken(
                count,
                last,
                entry,
                f"it is not the entry {seq} noted earlier: the chain was rewritten up to here",
            )
        previous, count, last = stored, seq, f"{seq}:{stored}"
    if head is None or (head[0], head[1]) != (count, previous):
        problem = (
            f"the newest entries after {count} are missing (the chain's head says "
            f"{head[0] if head else 'nothing'})"
        )
        return ChainCheck(count, last, None, problem)
    if want_seq is not None and want_seq > count:
        return ChainCheck(count, last, None, f"entry {want_seq} noted earlier is missing")
    return ChainCheck(count, last)


def _broken(count: int, last: str, entry: int, why: str) -> ChainCheck:
    return ChainCheck(count, last, entry, f"entry {entry} is broken: {why}")


def _expected(expect: str | None) -> tuple[int | None, str | None]:
    """``SEQ:HASH`` as given by an earlier check."""
    from console.core.team.errors import TeamSetupError

    if not expect:
        return None, None
    seq, _, digest = expect.strip().partition(":")
    if not seq.isdigit() or len(digest) != 64 or not seq.isascii():
        raise TeamSetupError(
            f"--expect {expect!r}: give the head an earlier `team audit --verify` printed "
            "(SEQ:HASH, e.g. 42:9f86d0...)"
        )
    return int(seq), digest.lower()
