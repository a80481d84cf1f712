"""A batch file held for approval: where the team's approval policy applies to a batch, the
batch is approved as a whole, and this module is the one place that says so.

One submission is bound to the whole batch content: a hash over every row's request
(:func:`~console.core.team.hashing.batch_hash`, over the rows the plan would send, in order),
with the row count, the totals per currency and the largest payouts for the checker to read
(the plan's :class:`~console.core.batch.BatchSummary`). Once approved, the rows go through
the send pipeline once each, every row carrying the submission so the database lets it
through (and never twice); any change to the file changes the hash and needs a new
approval. The approval is the batch's production confirmation.

A batch needs approval when the policy holds back any of its currency totals (``all``: any
batch; ``above``: a currency's total above its threshold, or a currency without one), so
splitting a large payout into small rows does not slip past a checker.

Card rows never reach the team database, so a batch with card rows is submitted only by a
console that waits for the decision and runs the batch from memory (like a single card
payout); a batch without card data is run once approved by running the same file again,
from any console of the team.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from console.core.batch import (
    COMMAND,
    BatchDecision,
    BatchReport,
    BatchRunner,
    LeavingRows,
    Plan,
    Progress,
    RowResult,
)
from console.core.team.approvals.approval import Approvals
from console.core.team.approvals.held import require_approved
from console.core.team.approvals.registry import policy_of
from console.core.team.approvals.submissions import rejection_text
from console.core.team.errors import (
    CardDataNeedsWaitingError,
)
from console.core.team.hashing import batch_hash, carries_card_data
from console.core.team.storage.gateways import Target, require_registered

if TYPE_CHECKING:
    from console.core.pipeline import Pipeline
    from console.core.prepared import PreparedRequest
    from console.core.team.approvals.submissions import Policy, Submission
    from console.core.team.storage.journal import TeamJournal

OnRow = Callable[[RowResult, Progress], None]


def hold_batch(pipeline: Pipeline, connection: Mapping[str, Any], plan: Plan) -> HeldBatch | None:
    """The hold on ``plan``'s batch, or None: run it as usual (one person's journal, no
    policy for it, nothing to send, or a plan the runner refuses anyway).

    Raises:
        UnregisteredGatewayError: the team has not registered the gateway the batch goes to
            (and it is not on this computer): nothing is submitted or sent.
    """

    journal = pipeline.journal
    if journal is None or not journal.shared or not plan.to_send or plan.refusal() is not None:
        return None
    team = cast("TeamJournal", journal)  # the shared journal is the team's
    target = Target.for_command(COMMAND, connection)
    with team.reading() as db:
        gateway = require_registered(db, target, pipeline.environment)
    approvals = Approvals(team)
    if gateway is None or not any(
        approvals.needs_approval_of(target, COMMAND, t.total_text, t.currency or None)
        for t in plan.totals.values()
    ):
        return None
    requests = [
        pipeline.prepare(COMMAND, checked.row.values, **connection).prepared
        for checked in plan.to_send
    ]
    held = HeldBatch(
        approvals, pipeline, dict(connection), plan, policy_of(gateway), requests, target
    )
    ids = [r.value("client_orderid") for r in requests]
    return replace(held, rejected=approvals.rejected_before(held.digest(), COMMAND, ids))


@dataclass(frozen=True, slots=True)
class HeldBatch:
    """A batch the environment's approval policy holds back for one checker's decision."""

    approvals: Approvals
    pipeline: Pipeline
    connection: dict[str, Any] = field(repr=False)
    plan: Plan = field(repr=False)
    policy: Policy = field(repr=False)
    requests: list[PreparedRequest] = field(repr=False)
    target: Target = field(repr=False)
    rejected: Submission | None = None  # this batch, or one of its order ids, rejected before

    @property
    def environment(self) -> str:
        return self.pipeline.environment

    @property
    def card_data(self) -> bool:
        """Whether a row carries card data (then only this console can run it)."""

        return any(carries_card_data(p) for p in self.requests)

    @property
    def text(self) -> str:
        where = (
            " Its rows carry card data, which never goes to the team database: this console "
            "keeps them in memory and runs the batch when the approval arrives."
            if self.card_data
            else ""
        )
        again = f" {self.rejection}" if self.rejection else ""
        return (
            f"The approval policy of the gateway {self.policy.gateway} "
            f"({self.policy.describe()}) holds this batch of {len(self.requests)} payouts for "
            f"one checker's approval of the whole batch.{where}{again}"
        )

    @property
    def rejection(self) -> str:
        """This batch (or one of its order ids) rejected before, in words ("": never): a
        rejection is not undone by running the file again."""

        if self.rejected is None:
            return ""
        return (
            f"It {rejection_text(self.rejected)}. Submitting it again, after that rejection, "
            "is written in the audit trail and shown to the checkers."
        )

    @property
    def lines(self) -> list[str]:
        """What the checker reads: rows, totals per currency, largest payouts."""
        return self.plan.summary.lines()

    def digest(self) -> str:
        return batch_hash(self.environment, self.requests, self.approvals.journal.hash_key)

    def existing(self) -> Submission | None:
        """A submission of exactly this batch still pending or approved and unsent (never
        for card rows: only the console that submitted them holds them)."""
        if self.card_data:
            return None
        return self.approvals.latest_batch(self.environment, self.digest())

    def submit(self, *, waiting: bool, after_rejection: bool = False) -> AwaitingBatch:
        """Record the whole batch for one checker's decision; nothing is sent. A submission
        of exactly this batch still pending or approved is used instead of a new one
        (:attr:`AwaitingBatch.new` is then False).

        Raises:
            CardDataNeedsWaitingError: card rows, and this console does not wait.
            RejectedBeforeError: the batch, or one of its order ids, was rejected before
                and ``after_rejection`` is not set.
        """
        found = self.existing()
        if found is not None:
            return AwaitingBatch(self, found.id, new=False)
        if self.card_data and not waiting:
            raise CardDataNeedsWaitingError(
                f"The approval policy of {self.policy.gateway} needs a checker's approval of this "
                "batch, and its rows carry card data, which never goes to the team database: "
                "only the console holding them can run it, so that console must wait for the "
                "approval. Nothing was submitted."
            )
        summary = self.plan.summary
        sid = self.approvals.submit_batch(
            self.environment,
            COMMAND,
            self.digest(),
            {"source": summary.source, "rows": summary.rows, "lines": summary.lines()},
            self.requests,
            card_data=self.card_data,
            source=summary.source,
            target=self.target,
            after_rejection=after_rejection,
        )
        return AwaitingBatch(self, sid)


@dataclass(frozen=True, slots=True)
class AwaitingBatch:
    """A batch submission, with the batch (card rows included) in this console's memory."""

    held: HeldBatch
    id: int
    new: bool = True  # False: submitted before (the same file, unchanged)

    def current(self) -> Submission:
        return self.held.approvals.submission(self.id)

    def wait(self, timeout: float) -> Submission:
        """The submission once decided (or expired), or as it is after ``timeout`` s."""
        return self.held.approvals.wait_for_decision(self.id, timeout)

    def run(
        self,
        *,
        concurrency: int = 1,
        on_row: OnRow | None = None,
        on_start: Callable[[BatchRunner], None] | None = None,
        leaving: LeavingRows | None = None,
    ) -> BatchReport:
        """Run the approved batch: claim it for exactly this content, send each row once
        through the pipeline, end the claim (with where it stopped, if it did).

        ``on_start`` gets the runner before the first row (to pause or stop it);
        ``leaving`` is told of rows before they may leave (the results file).

        Raises:
            ApprovalPendingError: no decision yet; nothing was sent.
            NotApprovedError: rejected, expired, void, or run already.
            ApprovalRefusedError: the claim was refused (the content changed: void).
        """

        held = self.held
        require_approved(
            self.current(),
            what="batch ",
            until=" Once a checker approves it, run the same file again.",
        )
        plan = held.plan
        runner = BatchRunner(
            held.pipeline,
            held.connection,
            plan,
            BatchDecision(
                confirmed=plan.summary if plan.production else None,
                resend_unknown=plan.resend_unknown,
            ),
            concurrency=concurrency,
            on_row=on_row,
            leaving=leaving,
        )
        journal = held.approvals.journal
        order_ids = [c.row.client_orderid for c in plan.to_send]
        held.approvals.claim(self.id, held.digest())
        journal.bind_batch(held.environment, COMMAND, order_ids, self.id)
        stopped = "the console stopped the batch"
        try:
            if on_start is not None:
                on_start(runner)
            report = runner.run()
            stopped = report.stopped
        finally:
            for order_id in order_ids:
                journal.unbind_submission(held.environment, COMMAND, order_id)
            held.approvals.end_claim(self.id, stopped)
        return report
