"""Four-eyes approval: the core's one place for submitting, deciding and sending approved
requests (fronts call it; the database enforces every rule again on its own).

A submission records the exact request content as a keyed hash (the environment, command,
URL and every field: :mod:`console.core.team.hashing`), the maker and the time. A checker
other than the maker approves or rejects with a reason; an approval is bound to that hash,
so the request sent must be the one approved: any change voids the approval. The approved request
is sent once through the :class:`~console.core.pipeline.Pipeline` with the
:data:`APPROVED` decision (the approval is the second person's confirmation), claimed under
a row lock first, so two people pressing Send at the same moment make one send.

Card data never reaches the shared database: a submission carrying a card number or CVV2
stores the fields masked and no params, so only the maker's console, which still has the card
data, can send it when the approval arrives (the hash of card data is slow on purpose: see
:mod:`console.core.team.hashing`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from console.core.errors import ConsoleError
from console.core.history.rows import request_columns
from console.core.masking import mask_params
from console.core.order_facts import amount, client_orderid
from console.core.pipeline import Decision
from console.core.team import inputs
from console.core.team.approvals.submissions import (
    ROLES,
    SUBMISSION_SQL,
    AuditEntry,
    RoleChange,
    Submission,
    Submitted,
    decision_text,
    rejection_text,
    resubmitted_text,
    submission_of,
    waiting,
)
from console.core.team.errors import (
    ApprovalRefusedError,
    RejectedBeforeError,
    TeamPermissionError,
    TeamSetupError,
    UnregisteredGatewayError,
)
from console.core.team.hashing import carries_card_data, content_hash
from console.core.team.storage import gateways
from console.core.team.storage.gateways import Target
from console.core.team.storage.live import TeamListener

if TYPE_CHECKING:
    from console.core.pipeline import Check, Pipeline, Sent
    from console.core.prepared import PreparedRequest
    from console.core.team.storage.journal import TeamJournal


# Entries `team audit` reads at a time, oldest first (it says so when more may follow).
AUDIT_PAGE = 1000
LOOK_EVERY = 1.0  # seconds between two looks at a submission waited for (notices wake it sooner)


def approved_decision(maker: Decision | None = None) -> Decision:
    """What an approval decides: the production confirmation is the checker's; the maker's
    answers to the pipeline's other questions (``maker``) stay the maker's."""

    return Decision(
        production_confirmed=True,
        resend_after_unknown=bool(maker and maker.resend_after_unknown),
        card_number_confirmed=bool(maker and maker.card_number_confirmed),
    )


def recorded(
    environment: str, prepared: PreparedRequest, row: dict[str, Any], card: bool
) -> tuple[Any, ...]:
    """What every submission of one request records, in the database functions' order: the
    environment, command, order id, amount, currency, masked receiver, hash, masked
    parameters, and the parameters themselves only without card data."""
    return (
        environment,
        prepared.command,
        row["client_orderid"],
        row["amount"],
        row["currency"],
        row["receiver"],
        row["content_hash"],
        json.dumps(mask_params(prepared.params)),
        None if card else json.dumps([list(p) for p in prepared.params]),
    )


def approved_row(environment: str, prepared: PreparedRequest, key: str) -> dict[str, Any]:
    """What the database compares a sent row with: its amount, currency, receiver (masked,
    as the journal keeps them) and request hash."""
    columns = request_columns(environment, prepared)
    return {
        "client_orderid": columns["client_orderid"],
        "amount": columns["amount"],
        "currency": columns["currency"],
        "receiver": columns["receiver"],
        "content_hash": content_hash(environment, prepared, key),
    }


class Approvals:
    """Approval steps on the team database, as the connected person."""

    def __init__(self, journal: TeamJournal) -> None:
        self.journal = journal

    # -- people --------------------------------------------------------------------------

    def add_user(self, name: str, role: str) -> RoleChange:
        """Give login ``name`` (made when missing) the team ``role``; say what changed."""
        if role not in ROLES:
            raise TeamSetupError(f"--role must be one of {', '.join(ROLES)}, not {role!r}")
        before = self._roles(name)
        self._call("SELECT gateway.add_user(%s, %s)", (name, role))
        return RoleChange(name, role, before, self._roles(name) or ())

    def _roles(self, name: str) -> tuple[str, ...] | None:
        """The team roles of login ``name`` (None: no such login)."""
        with self.journal.reading() as db:
            found = db.execute(
                "SELECT gateway.team_role(rolname) FROM pg_roles WHERE rolname = %s", (name,)
            ).fetchone()
        if found is None:
            return None
        return tuple(r for r in str(found[0]).split(",") if r != "none")

    def set_callback_secret(self, environment: str, secret: str) -> None:
        """Let the database verify ``environment``'s callbacks (admin): with the merchant
        control secret it checks a callback's code before it settles other people's rows."""
        self._call("SELECT gateway.set_callback_secret(%s, %s)", (environment, secret))

    def _call(self, sql: str, args: tuple[Any, ...]) -> None:
        admin_step(self.journal, sql, args)

    # -- submitting -----------------------------------------------------------------------

    def needs_approval(self, prepared: PreparedRequest) -> bool:
        """Whether the policy of the gateway ``prepared`` goes to holds it back for a
        checker (whatever environment or spelling named the gateway)."""
        money = amount(prepared.params)
        currency = prepared.value("currency")
        return self.needs_approval_of(Target.of(prepared), prepared.command, money, currency)

    def needs_approval_of(
        self, target: Target, command: str, amount: str | None, currency: str | None
    ) -> bool:
        """Whether the policy of ``target``'s gateway holds back ``command`` for ``amount``
        ``currency`` (the strictest, where several registered gateways match)."""
        with self.journal.reading() as db:
            return bool(
                db.execute(
                    "SELECT gateway.needs_approval_at(%s, %s, %s, %s, %s)",
                    (target.url, target.login, command, amount, currency),
                ).fetchone()[0]
            )

    def rejected_before(
        self, digest: str, command: str, order_ids: Sequence[str | None]
    ) -> Submission | None:
        """The newest rejected submission of the same request (its hash, or one of its
        client_orderids): a rejection is not undone by asking again."""
        wanted = [o for o in order_ids if o]
        with self.journal.reading() as db:
            found = db.execute(
                "SELECT gateway.rejected_before(%s, %s, %s)", (digest, command, wanted)
            ).fetchone()[0]
        return self.submission(int(found)) if found is not None else None

    def rejection(self, s: Submission) -> Submission | None:
        """The rejected submission ``s`` was submitted again after (None: none)."""
        return self.submission(s.after_rejection_of) if s.after_rejection_of else None

    def pending_with_rejections(self) -> list[tuple[Submission, str]]:
        """:meth:`pending`, each with what a checker reads of the rejection it was submitted
        again after ("": none)."""
        said = []
        for s in self.pending():
            earlier = self.rejection(s)
            said.append((s, resubmitted_text(s, earlier) if earlier is not None else ""))
        return said

    def submit_batch(
        self,
        environment: str,
        command: str,
        digest: str,
        summary: dict[str, Any],
        requests: Sequence[PreparedRequest],
        *,
        card_data: bool,
        source: str,
        target: Target,
        after_rejection: bool = False,
    ) -> int:
        """Record a whole batch (its hash, its summary, and each row's order id, amount,
        currency, receiver and hash, which the database holds its rows to) for one
        decision.

        Raises:
            RejectedBeforeError: the same batch, or one of its order ids, was rejected
                before and ``after_rejection`` is not set.
        """
        key = self.journal.hash_key
        rows = [approved_row(environment, prepared, key) for prepared in requests]
        self.refuse_after_rejection(
            digest, command, [r["client_orderid"] for r in rows], after_rejection
        )
        with self.refusals(), self.journal.writing() as db:
            sid = db.execute(
                "SELECT gateway.submit_batch(%s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s, %s)",
                (
                    environment,
                    command,
                    digest,
                    json.dumps(summary, ensure_ascii=False),
                    json.dumps(rows, ensure_ascii=False),
                    card_data,
                    source,
                    target.url,
                    target.login,
                    after_rejection,
                ),
            ).fetchone()[0]
        if sid is None:
            raise TeamPermissionError(
                f"Not submitted: {self.journal.user} is not a maker in the team database."
            )
        return int(sid)

    def latest_batch(self, environment: str, digest: str) -> Submission | None:
        """The newest batch submission of exactly this content that is still waiting for a
        decision or approved and unsent (None: submit it)."""
        with self.journal.reading() as db:
            return waiting(db, environment, digest, batch=True)

    def submit(
        self, environment: str, prepared: PreparedRequest, *, after_rejection: bool = False
    ) -> Submitted:
        """Record ``prepared`` (signed: a request with errors is never held, see
        :func:`~console.core.team.approvals.held.hold`) for a checker's decision; card data stays in
        this process.

        Raises:
            RejectedBeforeError: the same request (its hash or its client_orderid) was
                rejected before and ``after_rejection`` is not set; nothing was submitted.
        """
        card = carries_card_data(prepared)
        row = approved_row(environment, prepared, self.journal.hash_key)
        target = Target.of(prepared)
        with self.submitting(environment, row["content_hash"]) as (db, earlier):
            if earlier is not None:
                return Submitted(earlier.id, environment, prepared, earlier)
            self.refuse_after_rejection(
                row["content_hash"], prepared.command, [row["client_orderid"]], after_rejection
            )
            sid = db.execute(
                "SELECT gateway.submit(%s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s)",
                (
                    *recorded(environment, prepared, row, card),
                    card,
                    target.url,
                    target.login,
                    after_rejection,
                ),
            ).fetchone()[0]
        return self.made(sid, environment, prepared)

    @contextmanager
    def submitting(self, environment: str, digest: str) -> Iterator[tuple[Any, Submission | None]]:
        """The write transaction of one submission of the request ``digest`` (its refusals
        in words): one submitter at a time per content, so a second of the same request
        finds the first, given here while it still waits (None: submit it)."""
        with self.refusals(), self.journal.writing() as db:
            db.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (digest,))
            yield db, waiting(db, environment, digest, batch=False)

    def made(self, sid: int | None, environment: str, prepared: PreparedRequest) -> Submitted:
        """The submission the database numbered ``sid`` (None: the caller is no maker)."""
        if sid is None:
            raise TeamPermissionError(
                f"Not submitted: {self.journal.user} is not a maker in the team database."
            )
        return Submitted(int(sid), environment, prepared)

    def refuse_after_rejection(
        self, digest: str, command: str, order_ids: Sequence[str | None], after_rejection: bool
    ) -> None:
        """Refuse a request rejected before unless the maker said to submit it again (the
        database refuses it too, and audits the submission made after a rejection)."""
        earlier = self.rejected_before(digest, command, order_ids)
        if earlier is not None and not after_rejection:
            raise RejectedBeforeError(
                f"Not submitted: the same request {rejection_text(earlier)}. Submit it again "
                "only after that rejection, on purpose (--after-rejection; in the window, the "
                "box under the question)."
            )

    @contextmanager
    def refusals(self) -> Iterator[None]:
        """A refusal by the team database (a gateway not registered, a rejection not
        acknowledged) in the person's words."""
        try:
            yield
        except _privilege() as exc:
            text = _message(exc)
            if "not registered" in text:
                raise UnregisteredGatewayError(f"Not submitted: {text}.") from exc
            raise ApprovalRefusedError(f"Refused by the team database: {text}.") from exc

    # -- deciding -------------------------------------------------------------------------

    def approve(self, sid: int) -> Submission:
        return self._decide(sid, True, "")

    def reject(self, sid: int, reason: str) -> Submission:
        return self._decide(sid, False, inputs.reason(reason))

    def _decide(self, sid: int, approve: bool, reason: str) -> Submission:
        with self.journal.writing() as db:
            answer = str(
                db.execute("SELECT gateway.decide(%s, %s, %s)", (sid, approve, reason)).fetchone()[
                    0
                ]
            )
        if answer.startswith("refused:"):
            raise ApprovalRefusedError(f"Refused by the team database: {answer[9:]}.")
        return self.submission(sid)

    # -- reading --------------------------------------------------------------------------

    def submission(self, sid: int) -> Submission:
        with self.journal.reading() as db:
            row = db.execute(f"{SUBMISSION_SQL} WHERE id = %s", (sid,)).fetchone()
        if row is None:
            raise TeamSetupError(f"There is no submission {sid}.")
        return submission_of(tuple(row))

    def pending(self) -> list[Submission]:
        """Submissions waiting for a decision (not expired), oldest first."""
        with self.journal.reading() as db:
            rows = db.execute(
                f"{SUBMISSION_SQL} WHERE state = 'pending' AND expires > now() ORDER BY id"
            ).fetchall()
        return [submission_of(tuple(r)) for r in rows]

    def audit(self, since: datetime | None = None, limit: int = AUDIT_PAGE) -> list[AuditEntry]:
        """The audit trail from ``since`` on, oldest first: at most ``limit`` entries."""
        with self.journal.reading() as db:
            rows = db.execute(
                "SELECT id, at, actor, role, action, submission_id, request_id, environment,"
                " detail FROM gateway.audit WHERE at >= coalesce(%s, '-infinity'::timestamptz)"
                " ORDER BY id LIMIT %s",
                (since, limit),
            ).fetchall()
        return [AuditEntry(*r) for r in rows]

    # -- sending --------------------------------------------------------------------------

    def send_approved(
        self,
        pipeline: Pipeline,
        sid: int,
        prepared: PreparedRequest,
        decision: Decision | None = None,
    ) -> Sent:
        """Claim approved submission ``sid`` for exactly ``prepared`` and send it once.

        ``decision``: the maker's answers to the pipeline's questions (a resend after an
        unknown outcome, a card number failing its check); the production confirmation is
        the approval's. A send the pipeline then refuses ends the submission "refused", with
        the reason in the audit trail: nothing was sent, and nobody waits on it.

        Raises:
            UnregisteredGatewayError: ``prepared`` goes to a gateway the team has not
                registered (the approval stays as it was).
            ApprovalRefusedError: not approved, already sent or being sent, expired, or not
                the request approved (then the approval is void).
            SendRefusedError: the pipeline refused it (the submission is then "refused").
        """
        found = self.submission(sid)
        if found.state == "approved":
            # before claiming: a refused send must not use up the approval
            with self.journal.reading() as db:
                gateways.require_registered(db, Target.of(prepared), pipeline.environment)
            pipeline.check(prepared).refuse_if_blocked()
        digest = content_hash(pipeline.environment, prepared, self.journal.hash_key)
        try:  # anything else is refused by the database, which audits the refusal
            self.claim(sid, digest)
        except ApprovalRefusedError as exc:
            if found.state == "approved":
                raise
            raise ApprovalRefusedError(decision_text(found)) from exc
        return self._send_claimed(pipeline, sid, prepared, digest, approved_decision(decision))

    def send_queued(
        self, pipeline: Pipeline, sid: int, prepared: PreparedRequest, digest: str, check: Check
    ) -> Sent:
        """The team sender's send of queued submission ``sid``: claimed for exactly
        ``prepared`` and sent once, as :meth:`send_approved` does, with what the sender
        found just before: ``digest``, the request's content hash (the submission's: slow
        for card data, so worked out once a send), and ``check``, the guard's verdict
        (refused if blocked) after the registered gateway was checked.

        Raises:
            ApprovalRefusedError: not queued any more, or not the request submitted.
            SendRefusedError: the pipeline refused it (the submission is then "refused").
        """
        self.claim(sid, digest)
        return self._send_claimed(pipeline, sid, prepared, digest, approved_decision(), check)

    def _send_claimed(
        self,
        pipeline: Pipeline,
        sid: int,
        prepared: PreparedRequest,
        digest: str,
        decision: Decision,
        check: Check | None = None,
    ) -> Sent:
        """Send claimed submission ``sid`` once, its journal row carrying it."""
        order_id = client_orderid(prepared.params)
        self.journal.bind_submission(pipeline.environment, prepared, order_id, sid, digest)
        try:
            return pipeline.send(prepared, decision, check=check)
        except ConsoleError as exc:  # refused before its row was written: nothing left
            self.end_claim(sid, exc.message)
            raise
        finally:
            self.journal.unbind_submission(pipeline.environment, prepared.command, order_id)

    def claim(self, sid: int, digest: str) -> None:
        """Take approved submission ``sid`` for sending the content hashed as ``digest``.

        Raises:
            ApprovalRefusedError: not approved and waiting, expired, or another content
                (then the approval is void); the refusal is in the audit trail.
        """
        with self.journal.reading() as db:  # one statement: a transaction of its own
            answer = str(db.execute("SELECT gateway.claim(%s, %s)", (sid, digest)).fetchone()[0])
        if answer != "ok":
            raise ApprovalRefusedError(f"Not sent: {answer[9:]}.")

    def end_claim(self, sid: int, why: str) -> str:
        """End this person's claim on ``sid``: "refused" when nothing was sent (``why`` in
        the audit trail), "sent" for a batch that sent rows; returns the state."""
        with self.journal.writing() as db:
            return str(db.execute("SELECT gateway.end_claim(%s, %s)", (sid, why)).fetchone()[0])

    def wait_for_decision(self, sid: int, timeout: float) -> Submission:
        """The submission once a checker decided it (or it expired), or as it is after
        ``timeout`` seconds; woken by LISTEN/NOTIFY, checked every :data:`LOOK_EVERY`
        seconds anyway (an expiry sends no notice)."""

        heard = threading.Event()
        listener = TeamListener(
            self.journal.dsn, lambda kind, _e, i: heard.set() if i == sid else None
        )
        listener.start()
        try:
            end = time.monotonic() + timeout
            while True:
                found = self.submission(sid)
                left = end - time.monotonic()
                if found.state != "pending" or found.expires <= _now(self.journal) or left <= 0:
                    return found
                heard.wait(min(LOOK_EVERY, left))
                heard.clear()
        finally:
            listener.stop()


def _now(journal: TeamJournal) -> datetime:
    with journal.reading() as db:
        now: datetime = db.execute("SELECT now()").fetchone()[0]
    return now


def admin_step(journal: TeamJournal, sql: str, args: tuple[Any, ...]) -> None:
    """An admin step; the database answers "ok" or "refused: ..." (audited).

    Raises:
        TeamPermissionError: refused (not an admin, or what the database says).
    """
    try:
        with journal.writing() as db:
            answer = str(db.execute(sql, args).fetchall()[0][0])
    except _privilege() as exc:
        raise TeamPermissionError(f"Refused by the team database: {_message(exc)}.") from exc
    if answer != "ok":
        raise TeamPermissionError(f"Refused by the team database: {answer[9:]}.")


def _privilege() -> type[Exception]:
    import psycopg  # boundary: psycopg (the team extra), with the team database

    refused: type[Exception] = psycopg.errors.InsufficientPrivilege
    return refused


def _message(exc: Exception) -> str:
    diag = getattr(exc, "diag", None)
    return str(getattr(diag, "message_primary", None) or exc).strip().rstrip(".")
