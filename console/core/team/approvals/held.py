"""Held for approval: the one rule every front follows when a team's approval policy applies.

:func:`hold` answers whether a checked request goes out as usual (None) or is held for a
checker's approval (a :class:`Held`). A held request is submitted instead of sent
(:meth:`Held.submit`); the :class:`Awaiting` it gives back waits for the decision and sends
the request once approved, through the pipeline, once.

Card data never reaches the team database, so a request carrying a card number or CVV2 can
only be sent by the console that holds it in memory: it is submitted only by a console that
waits for the approval (``waiting=True``: the window keeps it until the approval arrives, the
command line waits in the process), else :class:`CardDataNeedsWaitingError`. A request
without card data can be sent by either side once approved (the checker's console prepares
it again from the stored fields; see :mod:`.approval`).

The pipeline's conversation (:meth:`~console.core.pipeline.Pipeline.ask`) calls :func:`hold`
and, for a held request, asks the front's ``Asker.submit_for_approval`` instead of the
production confirmation (the front shows :attr:`Held.text` and offers :attr:`Held.ACTION`);
:meth:`~console.core.pipeline.Pipeline.go` submits it. What a front says after waiting comes
from :func:`~console.core.team.approvals.approval.decision_text` or the errors raised by
:meth:`Awaiting.send`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, cast

from console.core.order_facts import client_orderid
from console.core.pipeline import Decision
from console.core.pipeline.asking import refuse_undecided
from console.core.team.approvals.approval import Approvals, approved_decision, approved_row
from console.core.team.approvals.registry import policy_of
from console.core.team.approvals.submissions import Policy, decision_text, rejection_text
from console.core.team.approvals.via_sender import serving, submit_to_sender, wait_for_outcome
from console.core.team.errors import (
    ApprovalPendingError,
    CardDataNeedsWaitingError,
    NotApprovedError,
)
from console.core.team.hashing import carries_card_data
from console.core.team.storage.gateways import Target, require_registered

SENDER_WAIT = 120.0  # seconds a front waits for the team sender's outcome by default
# A submission to the team sender let go (queued at once, or approved), then being sent,
# then sent: its outcome is read from the journal.
LET_GO = ("approved", "sending", "sent")

if TYPE_CHECKING:
    from console.core.pipeline import Check, Pipeline, Sent
    from console.core.prepared import PreparedRequest
    from console.core.team.approvals.submissions import Submission, Submitted
    from console.core.team.storage.journal import TeamJournal


def hold(pipeline: Pipeline, check: Check, *, approval: bool = True) -> Held | None:
    """The hold on ``check``'s request, or None: send it as usual (one person's journal, a
    policy that does not apply, or a request the pipeline refuses anyway).

    ``approval``: the policy may hold it for a checker (False: a row of a batch, approved as
    a whole; where the team sender serves the environment, it still goes through the sender).

    Raises:
        UnregisteredGatewayError: the team has not registered the gateway it goes to (and
            it is not on this computer): nothing is asked, submitted or sent, whether this
            console or the team sender would send it.
    """

    journal = pipeline.journal
    if journal is None or not journal.shared:
        return None  # one person: no team database, no approval
    if check.blocked:  # nothing to approve: the pipeline refuses it and says why
        return None
    team = cast("TeamJournal", journal)  # the shared journal is the team's
    environment = pipeline.environment
    with team.reading() as db:
        gateway = require_registered(db, Target.of(check.prepared), environment)
    approvals = Approvals(team)
    via_sender = serving(team, environment) is not None  # the team sender holds the key
    needed = approval and gateway is not None and approvals.needs_approval(check.prepared)
    if not needed and not via_sender:
        return None
    row = approved_row(environment, check.prepared, team.hash_key)
    rejected = (
        approvals.rejected_before(
            row["content_hash"], check.prepared.command, [row["client_orderid"]]
        )
        if approval
        else None  # a row of a batch: the batch was checked for rejections when submitted
    )
    policy = policy_of(gateway) if gateway is not None else Policy(environment, "none")
    return Held(approvals, pipeline, check, policy, rejected, via_sender, needed)


@dataclass(frozen=True, slots=True)
class Held:
    """A request the environment's approval policy holds back for a checker."""

    ACTION: ClassVar[str] = "Submit for approval"  # what a front offers instead of Send

    approvals: Approvals
    pipeline: Pipeline
    check: Check
    policy: Policy
    rejected: Submission | None = None  # the same request, rejected before
    via_sender: bool = False  # the team sender sends it (it holds the key), not this console
    approval: bool = True  # a checker decides first (False: the sender sends it at once)

    @property
    def environment(self) -> str:
        return self.pipeline.environment

    @property
    def rejection(self) -> str:
        """The earlier rejection of the same request, in words ("": none)."""

        if self.rejected is None:
            return ""
        return (
            f"The same request {rejection_text(self.rejected)}. Submitting it again, after "
            "that rejection, is written in the audit trail and shown to the checkers."
        )

    @property
    def prepared(self) -> PreparedRequest:
        return self.check.prepared

    @property
    def card_data(self) -> bool:
        """Whether only this console can send it (it must wait for the approval)."""

        return carries_card_data(self.prepared)

    @property
    def text(self) -> str:
        """Why it is held, in a person's words."""
        again = f" {self.rejection}" if self.rejection else ""
        if self.via_sender:
            sealed = (
                " Its card data goes sealed to the sender's key, which the database cannot open."
                if self.card_data
                else ""
            )
            if not self.approval:
                return (
                    f"The team sender, which holds the key of {self.environment}, sends it."
                    f"{sealed}{again}"
                )
            return (
                f"The approval policy of the gateway {self.policy.gateway} "
                f"({self.policy.describe()}) holds this {self.prepared.command} for a "
                f"checker's approval; then the team sender, which holds the key, sends it."
                f"{sealed}{again}"
            )
        where = (
            " It carries card data, which never goes to the team database: this console "
            "keeps it in memory and sends it when the approval arrives."
            if self.card_data
            else ""
        )
        return (
            f"The approval policy of the gateway {self.policy.gateway} "
            f"({self.policy.describe()}) holds this {self.prepared.command} for a checker's "
            f"approval.{where}{again}"
        )

    def submit(self, *, waiting: bool, decision: Decision | None = None) -> Awaiting:
        """Record it for a checker's decision; nothing is sent.

        Args:
            waiting: this console waits for the decision and sends once approved (needed
                for card data).
            decision: the maker's answers to the pipeline's questions (a resend after an
                unknown outcome, a card number failing its check), used when this console
                sends it; the production confirmation is the approval's.

        Raises:
            CardDataNeedsWaitingError: card data, and this console does not wait.
            RefusedError: the pipeline would refuse it when approved (an unknown earlier
                outcome, or a card number failing its check, not decided).
            RejectedBeforeError: rejected before, and ``decision`` does not say to submit
                it again after that rejection.
        """

        decided = decision or Decision()
        # what the pipeline would refuse once approved (the approval is the production
        # confirmation): refused now, so nobody approves what cannot be sent
        refuse_undecided(self.check, approved_decision(decided))
        if self.via_sender:  # card data sealed to the sender: nobody needs to wait
            prepared = self.prepared
            batch = self.approvals.journal.bound_to(  # a row of a batch claimed here
                self.environment, prepared.command, client_orderid(prepared.params)
            )
            submitted = submit_to_sender(
                self.approvals,
                self.environment,
                prepared,
                batch,
                after_rejection=decided.after_rejection,
            )
            return Awaiting(self.approvals, self.pipeline, submitted, decided, via_sender=True)
        if self.card_data and not waiting:
            raise CardDataNeedsWaitingError(
                f"The approval policy of {self.policy.gateway} needs a checker's approval, and "
                "this request carries card data, which never goes to the team database: only "
                "the console holding it can send it, so that console must wait for the "
                "approval. Nothing was submitted."
            )
        submitted = self.approvals.submit(
            self.environment, self.prepared, after_rejection=decided.after_rejection
        )
        return Awaiting(self.approvals, self.pipeline, submitted, decided)


@dataclass(frozen=True, slots=True)
class Awaiting:
    """A submission made by this console, with the request (card data included) in memory."""

    approvals: Approvals
    pipeline: Pipeline
    submitted: Submitted = field(repr=False)
    decision: Decision = field(repr=False)
    via_sender: bool = False  # the team sender sends it: this console waits for its outcome

    @property
    def id(self) -> int:
        return self.submitted.id

    def goes_on(self, found: Submission) -> bool:
        """Whether the send goes on after ``found``, as a front waiting for a decision
        sees it: approved; through the team sender also already being sent or sent (a quick
        sender may be done before the front looks), whose outcome it then reads."""
        return found.state in (LET_GO if self.via_sender else ("approved",))

    @property
    def submitted_text(self) -> str:
        """What submitting did: a new submission, or the identical one found waiting (then
        nothing new was submitted)."""
        earlier = self.submitted.earlier
        if earlier is None:
            if self.via_sender and self.goes_on(self.current()):
                return f"Submitted to the team sender as #{self.id}"
            return f"Submitted for approval as #{self.id}"
        how = (
            f"approved by {earlier.decided_by} and waits to be sent"
            if earlier.state == "approved"
            else "waiting for a checker's decision"
        )
        return (
            f"An identical {earlier.command} is already {how} as #{earlier.id} (submitted by "
            f"{earlier.maker}); nothing new was submitted"
        )

    def current(self) -> Submission:
        """The submission as the team database has it now."""
        return self.approvals.submission(self.id)

    def wait(self, timeout: float) -> Submission:
        """The submission once decided (or expired), or as it is after ``timeout`` s."""
        return self.approvals.wait_for_decision(self.id, timeout)

    def send(self) -> Sent:
        """Send the approved request once, through the pipeline.

        Raises:
            ApprovalPendingError: no decision yet; nothing was sent.
            NotApprovedError: rejected, expired, void, or sent already.
            ApprovalRefusedError, SendRefusedError: the claim or the pipeline refused it
                (the submission then ends "refused", with the reason in the audit trail).
        """
        if self.via_sender:
            return self.outcome(SENDER_WAIT)
        require_approved(self.current())
        submitted = self.submitted
        return self.approvals.send_approved(
            self.pipeline, submitted.id, submitted.prepared, self.decision
        )

    def outcome(self, timeout: float) -> Sent:
        """The team sender's outcome, waited for up to ``timeout`` seconds (a request this
        console sends itself: :meth:`send`).

        Raises:
            ApprovalPendingError: no decision, or no outcome, yet; nothing was sent by here.
            NotApprovedError: rejected, expired, void, or refused by the sender.
        """
        if not self.via_sender:
            return self.send()
        return wait_for_outcome(self.approvals, self.id, self.submitted.prepared, timeout)


def require_approved(found: Submission, *, what: str = "", until: str = "") -> None:
    """Go on only with an approved submission.

    Args:
        what: how to name it ("batch "), before its number.
        until: what to do once approved, when its card data is not held here.

    Raises:
        ApprovalPendingError: no decision yet; nothing was sent.
        NotApprovedError: rejected, expired, void, refused, or sent already.
    """
    if found.state == "pending":
        card = (
            " Its card data is only in this console's memory: if this console stops "
            "waiting, submit it again."
            if found.card_data
            else until
        )
        raise ApprovalPendingError(
            f"No decision on {what}#{found.id} yet; nothing was sent.{card}", found.id
        )
    if found.state != "approved":
        raise NotApprovedError(decision_text(found), found.state)
