"""The submissions queued for the team sender, handed to its sending threads one each.

A few are read at a time, oldest first, in one query with what sending them needs (the
content hash they were submitted with, their sealed card data), so a row costs no look-up of
its own before its claim. A submission handed out is never handed out again while its send
runs; the database's claim refuses it anyway (one send, whatever this process does).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from console.core.team.approvals.submissions import SUBMISSION_COLUMNS, Submission, submission_of
from console.core.team.storage.journal import TeamJournal

_QUEUED_SQL = (
    f"SELECT {SUBMISSION_COLUMNS}, content_hash, x.ciphertext FROM gateway.submissions"  # noqa: S608 (our column names)
    " LEFT JOIN gateway.sealed x ON x.submission_id = id"
    " WHERE via_sender AND state = 'approved' AND environment = ANY(%s)"
    " AND NOT (id = ANY(%s)) ORDER BY id LIMIT %s"
)
_COLUMNS = len(SUBMISSION_COLUMNS.split(","))


@dataclass(frozen=True, slots=True)
class Queued:
    """A submission waiting for the sender, with what sending it needs.

    Attributes:
        submission: the submission as the database keeps it.
        digest: the content hash it was submitted (and approved) with.
        sealed: its card data sealed to the sender (None: its fields are in ``submission``).
    """

    submission: Submission
    digest: str
    sealed: bytes | None


class Queue:
    """The queue of ``environments``, read ``page`` submissions at a time.

    Thread-safe: :meth:`take` hands each submission to one caller; :meth:`done` when its
    send has ended (sent, refused, or not sent).
    """

    def __init__(self, journal: TeamJournal, environments: Sequence[str], page: int) -> None:
        self.journal = journal
        self.environments = sorted(environments)
        self.page = page
        self._lock = threading.Lock()
        self._ready: deque[Queued] = deque()
        self._taken: set[int] = set()
        self.idle = threading.Event()  # set: the last look found nothing waiting

    def take(self) -> Queued | None:
        """The oldest submission waiting that no one else took (None: none waits)."""
        with self._lock:
            if not self._ready:
                self._ready.extend(self._read())
            if not self._ready:
                self.idle.set()
                return None
            self.idle.clear()
            queued = self._ready.popleft()
            self._taken.add(queued.submission.id)
            return queued

    @property
    def waiting(self) -> bool:
        """Whether submissions read are still to be handed out."""
        with self._lock:
            return bool(self._ready)

    def done(self, queued: Queued) -> None:
        with self._lock:
            self._taken.discard(queued.submission.id)

    def _read(self) -> list[Queued]:
        with self.journal.reading() as db:
            rows = db.execute(
                _QUEUED_SQL, (self.environments, sorted(self._taken), self.page)
            ).fetchall()
        return [
            Queued(
                submission_of(tuple(r[:_COLUMNS])),
                str(r[_COLUMNS]),
                bytes(r[_COLUMNS + 1]) if r[_COLUMNS + 1] is not None else None,
            )
            for r in rows
        ]
