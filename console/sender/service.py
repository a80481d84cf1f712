"""The team sender: the one process of the team that holds the key that moves money.

Makers and checkers submit (:mod:`~console.core.team.approvals.via_sender`); the sender,
connected as a ``gateway_sender`` login, takes what the policy lets go (queued at once, or
approved by a checker), signs it with the environment's key and sends it through the same
:class:`~console.core.pipeline.Pipeline` as every front: the double-payout guard, the journal's
pending row committed before the request leaves, the answer after. Consoles hear the outcome
through LISTEN/NOTIFY (the journal's triggers). Several submissions may be on their way at
once (``team sender --concurrency N``, as ``batch run``'s): each is claimed and journalled on
its own, so what follows holds for each of them.

Safety, whenever the sender is stopped (kill -9 included), then started again:

* A claim whose journal row was not written goes back to the queue (nothing left).
* A row left pending becomes "outcome unknown" (its session is gone); the sender asks its
  status (:meth:`Sender.ask_unknown`) and never sends it again: the submission is "sent"
  from the moment its row was written.
* One sender sends at a time: a session-level advisory lock (:func:`leadership`), released
  by the database when the holder's connection ends. A second sender waits for it.

It serves the environments it was started with (``team sender --env NAME``), and refuses a
submission whose request goes to any other gateway identity
(:mod:`console.core.gateway_identity`) or to a gateway the team has not registered (and not
on this computer: :func:`~console.core.team.storage.gateways.require_registered`).

Given the team's audit key, it also signs what is new in the audit trail every few seconds
(:func:`~console.core.team.audit.signing.sign_new_entries`); a trail that no longer extends
the head it signed is never signed again, and said.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from console.core.batch.limits import MAX_CONCURRENCY
from console.core.errors import ConsoleError
from console.core.pipeline import Decision, Pipeline
from console.core.prepared import PreparedRequest, prepare
from console.core.team.approvals.approval import Approvals
from console.core.team.approvals.submissions import Submission
from console.core.team.audit.key import AuditKeyError
from console.core.team.audit.signing import Checkpoint, sign_new_entries
from console.core.team.errors import AuditTamperedError, TeamPermissionError
from console.core.team.hashing import content_hash
from console.core.team.storage.dsn import connect
from console.core.team.storage.journal import TeamJournal
from console.core.team.storage.live import TeamListener
from console.core.team.storage.sealing import SealError, open_sealed, public_half
from console.sender.queue import Queue, Queued

_LEADER = 0x7365_6E64  # advisory lock key: "send"
GIVE_UP_AFTER = 3600.0  # seconds an undecided status is asked again (then: the callback)
EXPIRE_EVERY = 10.0  # seconds between two sweeps of submissions past their time
SIGN_EVERY = 5.0  # seconds between two signatures of the audit trail's new entries
_log = logging.getLogger(__name__)
Say = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Route:
    """One environment the sender serves: its pipeline and how to sign for it.

    Attributes:
        pipeline: the send pipeline of the environment, on the sender's team journal.
        settings: command -> the keyword arguments of
            :func:`console.core.prepared.prepare` (address, login, endpoint, the key).
    """

    pipeline: Pipeline
    settings: Callable[[str], dict[str, Any]]


@contextmanager
def leadership(dsn: str, say: Say, stop: threading.Event, poll: float = 1.0) -> Iterator[bool]:
    """Hold the team's one sender lock while the body runs (True); wait while another holds
    it, unless ``stop`` is set meanwhile (then False: this one never sent)."""
    conn = connect(dsn)
    try:
        told = False
        while not _locked(conn):
            if not told:
                say("Another team sender is running: this one waits, and takes over if it stops.")
                told = True
            if stop.wait(poll):
                yield False
                return
        yield True
    finally:
        conn.close()  # the lock goes with the connection


def _locked(conn: Any) -> bool:
    """Whether this connection now holds the team's one sender lock."""
    return bool(conn.execute("SELECT pg_try_advisory_lock(%s)", (_LEADER,)).fetchone()[0])


class Sender:
    """Sends what is submitted to the team sender, ``concurrency`` submissions at a time.

    Args:
        journal: the team journal, connected as the sender's login.
        routes: environment name -> its :class:`Route`.
        seal_key: the private key card data is sealed to (its public half is published).
        say: where a line about each send goes (called from the sending threads).
        ask_every: seconds between two status questions about one unknown outcome.
        audit_key: the team's audit key (None: this sender signs no audit entries).
        concurrency: submissions in flight at once, 1 to
            :data:`~console.core.batch.limits.MAX_CONCURRENCY` (as ``batch run``).

    Raises:
        ValueError: concurrency out of range.
    """

    def __init__(
        self,
        journal: TeamJournal,
        routes: Mapping[str, Route],
        seal_key: rsa.RSAPrivateKey,
        *,
        say: Say = _log.info,
        ask_every: float = 30.0,
        audit_key: Ed25519PrivateKey | None = None,
        concurrency: int = 1,
    ) -> None:
        if not 1 <= concurrency <= MAX_CONCURRENCY:
            raise ValueError(f"concurrency must be 1 to {MAX_CONCURRENCY}")
        self.concurrency = concurrency
        self.journal = journal
        self.approvals = Approvals(journal)
        self.routes = dict(routes)
        self.seal_key = seal_key
        self.say = say
        self.ask_every = ask_every
        self._asked: dict[int, float] = {}
        self._expired_at = -EXPIRE_EVERY
        self.audit_key = audit_key
        self._signed: Checkpoint | None = None
        self._signed_at = -SIGN_EVERY

    def start(self) -> None:
        """Publish the sealing key and the environments served; take over what a stopped
        sender left (claims back to the queue, pending rows to "outcome unknown")."""
        pem, fingerprint = public_half(self.seal_key)
        with self.journal.writing() as db:
            answer = str(
                db.execute(
                    "SELECT gateway.sender_start(%s, %s, %s)",
                    (pem, fingerprint, sorted(self.routes)),
                ).fetchone()[0]
            )
        if answer != "ok":
            raise TeamPermissionError(f"Refused by the team database: {answer[9:]}.")
        self.journal.recover_interrupted()

    def run(self, stop: threading.Event, poll: float = 1.0) -> None:
        """Send until ``stop`` is set; the sends on their way finish first.

        :attr:`concurrency` threads each take the oldest submission waiting and send it,
        the next one at once while any waits (woken by the team's notifications when none
        does, and every ``poll`` seconds anyway); this thread signs the audit trail,
        expires submissions past their time and, while none waits, asks the status of
        unknown outcomes. What a send raised stops the others and is raised here.
        """

        queue = Queue(self.journal, list(self.routes), 2 * self.concurrency)
        wake = threading.Condition()
        news = [False]  # heard since a thread last looked

        def heard(_kind: str, _event: str, _id: int) -> None:
            with wake:
                news[0] = True
                wake.notify_all()

        def nap() -> None:
            with wake:
                if not news[0]:
                    wake.wait(poll)
                news[0] = False

        halt = threading.Event()  # stop, or a send raised

        def work() -> None:
            try:
                while not halt.is_set():
                    queued = queue.take()
                    if queued is None:
                        nap()
                        continue
                    if queue.waiting:  # read with it: the other threads need not wait
                        heard("", "", 0)
                    try:
                        self.send(queued)
                    finally:
                        queue.done(queued)
            except BaseException:
                halt.set()
                raise

        # its own rows' notifications are not news: only other people's submissions wake it
        listener = TeamListener(self.journal.dsn, heard, skip=self.journal.backends)
        listener.start()
        try:
            with ThreadPoolExecutor(self.concurrency, thread_name_prefix="send") as pool:
                workers = [pool.submit(work) for _ in range(self.concurrency)]
                try:
                    while not (stop.is_set() or halt.is_set()):
                        self.keep_up()
                        if not (queue.idle.is_set() and self.ask_unknown()):
                            stop.wait(poll)
                finally:
                    halt.set()
                    heard("", "", 0)
        finally:
            listener.stop()
        for worker in workers:
            worker.result()  # what a send raised, if one did

    def keep_up(self) -> None:
        """Sign the audit trail's new entries, and expire submissions past their time, when
        each is due."""
        now = time.monotonic()
        if self.audit_key is not None and now - self._signed_at >= SIGN_EVERY:
            self._signed_at = now
            self.sign_audit()
        if now - self._expired_at >= EXPIRE_EVERY:
            self._expired_at = now
            with self.journal.writing() as db:
                db.execute("SELECT * FROM gateway.expire_submissions()").fetchall()

    def sign_audit(self) -> Checkpoint | None:
        """Sign what is new in the audit trail; a trail rewritten since the last signature
        is never signed (said, and signing stops until the sender starts again)."""
        if self.audit_key is None:
            return None
        try:
            signed = sign_new_entries(self.journal, self.audit_key, self._signed)
        except AuditTamperedError as exc:
            self.audit_key = None
            self.say(f"the audit trail was changed, so it is no longer signed: {exc}")
            return None
        except AuditKeyError as exc:
            self.audit_key = None
            self.say(f"the audit trail is not signed: {exc}")
            return None
        self._signed = signed or self._signed
        return signed

    def send(self, queued: Queued) -> None:
        """Sign and send one queued submission once, or refuse it (nothing sent)."""
        submission = queued.submission
        route = self.routes[submission.environment]
        try:
            prepared = self._prepared(queued, route)
            check = route.pipeline.check(prepared)
            check.refuse_if_blocked()  # accepted before, in flight
        except ConsoleError as exc:
            self._refuse(submission, exc.message)
            return
        try:
            sent = self.approvals.send_queued(
                route.pipeline, submission.id, prepared, queued.digest, check
            )
        except ConsoleError as exc:  # the claim or the pipeline refused it: audited, ended
            self.say(f"#{submission.id} not sent: {exc.message}")
            return
        self.say(
            f"#{submission.id} {submission.command} {submission.client_orderid or ''} -> "
            f"{sent.result.upper()}: {sent.outcome.summary}"
        )

    def _prepared(self, queued: Queued, route: Route) -> PreparedRequest:
        """The submission's request, signed here; refused when it is not what was submitted
        or goes to another gateway."""
        submission = queued.submission
        params = submission.params or self._unsealed(queued)
        prepared = prepare(submission.command, dict(params), **route.settings(submission.command))
        if prepared.signed is None:
            problems = "; ".join(p.message for p in prepared.errors)
            raise ConsoleError(f"its fields do not pass the checks here ({problems})")
        if submission.gateway and prepared.gateway != submission.gateway:
            raise ConsoleError(
                f"it was submitted for the gateway {submission.gateway}, and this sender sends "
                f"{submission.environment} to {prepared.gateway}"
            )
        # the team's gateways only (or this computer): the journal's row refuses any other,
        # in the transaction that writes it (the claim then ends "refused", nothing sent)
        if submission.decided_by is None:
            # Queued at once, nobody's decision: the hash binds no approval, and its maker,
            # who reads the team's hash key, could give any content its hash; the claim and
            # the row carry the submitted one, and the gateway was checked above. Not worked
            # out again here: for card data it is scrypt, slow on purpose.
            return prepared
        # approved by a checker (or a row of an approved batch): what is signed here must be
        # exactly what was approved, down to the card data sealed to this sender
        digest = content_hash(submission.environment, prepared, self.journal.hash_key)
        if digest != queued.digest:
            raise ConsoleError(
                "the request signed here is not the one approved (its sealed card data was "
                "changed, or the environment's settings differ between the maker's console "
                "and the sender)"
            )
        return prepared

    def _unsealed(self, queued: Queued) -> tuple[tuple[str, str], ...]:
        if queued.sealed is None:
            raise ConsoleError("it carries no fields and no sealed card data")
        try:
            return open_sealed(self.seal_key, queued.sealed, queued.digest)
        except SealError as exc:
            raise ConsoleError(exc.message) from exc

    def _refuse(self, submission: Submission, why: str) -> None:
        with self.journal.writing() as db:
            db.execute("SELECT gateway.refuse_queued(%s, %s)", (submission.id, why)).fetchone()
        self.say(f"#{submission.id} refused: {why}; nothing was sent")

    def ask_unknown(self) -> bool:
        """Ask the gateway the status of one of this sender's sends whose outcome is
        unknown (never sending it again); False when none is due."""
        with self.journal.reading() as db:
            rows = db.execute(
                "SELECT id, environment, client_orderid, gateway_order_id FROM gateway.requests"
                " WHERE made_by = session_user AND outcome = 'unknown'"
                " AND command <> 'status' AND client_orderid IS NOT NULL"
                " AND environment = ANY(%s) AND (final_status IS NULL"
                # not decided yet: asked again for an hour (the field notes' polling), then
                # the callback tells
                "  OR (final_status IN ('processing', 'unknown') AND created > %s))"
                " ORDER BY id",
                (sorted(self.routes), time.time() - GIVE_UP_AFTER),
            ).fetchall()
        now = time.monotonic()
        for row_id, environment, order_id, gateway_order_id in rows:
            if now - self._asked.get(int(row_id), -1e9) < self.ask_every:
                continue
            self._asked[int(row_id)] = now
            route = self.routes[environment]
            values = {"client_orderid": order_id}
            if gateway_order_id:
                values["orderid"] = gateway_order_id
            try:
                asked = prepare("status", values, **route.settings("status"))
                sent = route.pipeline.send(asked, Decision(production_confirmed=True))
            except ConsoleError as exc:
                self.say(f"row {row_id}: its status could not be asked ({exc.message})")
                return True
            self.say(f"row {row_id} {order_id}: status asked -> {sent.outcome.summary}")
            return True
        return False
