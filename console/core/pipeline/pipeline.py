"""The one send pipeline every front uses (window, command line, batches, team mode):

prepare (validate, sign) -> guard verdict -> confirmation summary -> the conversation (the
refusals and questions of :mod:`.asking`, asked of the front's :class:`~.asking.Asker`) ->
journal row "pending" -> send once -> decode -> masked outcome -> journal answer ->
after-answer effects.

:meth:`Pipeline.run` is all of it; a front that sends on a worker asks first
(:meth:`Pipeline.ask`, on its own thread) and goes later (:meth:`Pipeline.go`).
:meth:`Pipeline.send` refuses (with :class:`~console.core.errors.SendRefusedError`) whatever
the :class:`~.check.Decision` it is given does not answer. Nothing is sent without a journal
(:class:`~console.core.errors.JournalUnavailableError`), and nothing is retried.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from console.core.client import Admit, BlockJournalHooks, Client, JournalHooks, Outcome, Result
from console.core.errors import JournalUnavailableError, SendRefusedError
from console.core.journals import Journal
from console.core.order_facts import (
    NEW_ORDER_COMMANDS,
    answer_order_id,
    client_orderid,
    requested_order_id,
)
from console.core.outcome_view import masked_outcome
from console.core.pipeline.asking import (
    Asker,
    HoldRule,
    Ready,
    Refused,
    converse,
    refuse_undecided,
)
from console.core.pipeline.check import Check, Decision, Refusal, RefusedError
from console.core.pipeline.guard import (
    NEW,
    SentRow,
    Verdict,
    judge,
    resend_note,
    verdict_for,
)
from console.core.pipeline.summary import SendSummary
from console.core.prepared import PreparedRequest, prepare

if TYPE_CHECKING:  # made by the caller's factory: checking alone needs no HTTP client
    from console.core.transport import Transport


@dataclass(frozen=True, slots=True)
class Sent:
    """One send through the pipeline.

    Attributes:
        outcome: the answer with card data masked: what every front shows.
        revealed: the answer as it came, for a deliberate reveal only.
        verdict: what the journal said of the order id before it went.
        note: a sentence worth adding to the result (a resend after a rejection...).
        journal_error: the answer could not be stored (the row stays pending, to be reported
            as "outcome unknown" at the next start).
    """

    outcome: Outcome
    revealed: Outcome
    verdict: Verdict
    note: str = ""
    journal_error: Exception | None = None

    @property
    def result(self) -> Result:
        return self.outcome.result


@dataclass(frozen=True, slots=True)
class Claimed:
    """A request whose pending row is on disk (:meth:`Pipeline.claim_each`), not sent yet:
    sent with :meth:`Pipeline.send_claimed`, or withdrawn with :meth:`Pipeline.withdraw`."""

    prepared: PreparedRequest
    verdict: Verdict
    hooks: BlockJournalHooks
    record: object


_NOT_WRITTEN = "Not sent: the journal could not write every row of its block."


def reported_status(outcome: Outcome) -> str | None:
    """The transaction status a status answer reports (a declined order is a status too),
    or None when ``outcome`` is not a status answer."""
    response = outcome.response
    if outcome.prepared.command != "status" or response is None:
        return None
    if response.type != "status-response" or not response.status:
        return None
    return response.status


class Pipeline:
    """Sends for one environment through its journal.

    Args:
        environment: the environment's name (what journal rows are labelled with).
        gateway: the identity of the gateway a command goes to
            (:func:`console.core.gateway_identity.gateway_for`): the double-payout guard's
            key, so that another name or spelling of the same gateway is the same gateway.
            None when the address is not at hand (``batch status`` of a results file): the
            look-ups before sending then read the environment's rows; a send always uses
            its own request's gateway.
        production: real money: a send needs the person's confirmation.
        journal: the history journal; None when it cannot be opened (then nothing is sent).
        transport: makes the transport for each send.
        close_transport: close it after each send (False: the caller owns and closes it).
        journal_error: why the journal is None, for the refusal's message.
        holds: the team's approval rule (``console.core.team.approvals.held.hold``), given where the
            journal is the team's; None: nothing is held back for approval.
    """

    def __init__(
        self,
        environment: str,
        *,
        gateway: Callable[[str], str | None],
        production: bool,
        journal: Journal | None,
        transport: Callable[[], Transport],
        close_transport: bool = True,
        connect_timeout: float = 10.0,
        read_timeout: float = 60.0,
        journal_error: JournalUnavailableError | None = None,
        holds: HoldRule | None = None,
    ) -> None:
        self.environment = environment
        self.gateway = gateway
        self.production = production
        self.journal = journal
        self._transport = transport
        self._close_transport = close_transport
        self._timeouts = (connect_timeout, read_timeout)
        self._journal_error = journal_error
        self._holds = holds

    # -- before sending ---------------------------------------------------------------

    def verdict(self, command: str, order_id: str, gateway: str | None = None) -> Verdict:
        """What the journal says now of sending ``order_id`` with ``command`` again (to
        ``gateway``; by default the one this pipeline's settings reach)."""
        if self.journal is None or command not in NEW_ORDER_COMMANDS:
            return NEW
        where = gateway if gateway is not None else self.gateway(command)
        return verdict_for(self.journal, where, command, order_id, self.environment)

    def verdicts(self, command: str, order_ids: Iterable[str]) -> Callable[[str], Verdict]:
        """:meth:`verdict` of many order ids (a batch file's), looked up together: the
        verdict of each of them (stripped; any other id: :meth:`verdict`)."""
        if self.journal is None or command not in NEW_ORDER_COMMANDS:
            return lambda _order_id: NEW
        gateway = self.gateway(command)
        wanted = {order_id.strip() for order_id in order_ids}
        sent = self.journal.sent_before_each(gateway, command, wanted, self.environment)
        found = {order_id: judge(order_id, rows) for order_id, rows in sent.items()}

        def verdict(order_id: str) -> Verdict:
            key = order_id.strip()
            if key in found or (key and key in wanted):
                return found.get(key) or judge(key, [])
            return self.verdict(command, order_id, gateway)

        return verdict

    def check(self, prepared: PreparedRequest, verdict: Verdict | None = None) -> Check:
        """The guard's verdict and the confirmation summary of a prepared request.

        ``verdict``: the journal's verdict of its order id looked up just before (a batch
        looks up its file's ids together); the deciding look-up is the journal's own, in
        the transaction that writes the pending row, either way.
        """
        order_id = client_orderid(prepared.params)
        guarded = prepared.command in NEW_ORDER_COMMANDS and prepared.signed is not None
        if not guarded:
            verdict = NEW
        elif verdict is None:
            verdict = self.verdict(prepared.command, order_id, prepared.gateway)
        return Check(prepared, verdict, self._summary(prepared))

    def _summary(self, prepared: PreparedRequest) -> SendSummary:
        return SendSummary.of(self.environment, self.production, prepared.command, prepared.params)

    def prepare(
        self,
        command: str,
        values: Mapping[str, str],
        *,
        verdict: Verdict | None = None,
        **connection: Any,
    ) -> Check:
        """Validate and sign (``console.core.prepared.prepare``), then :meth:`check` (with
        ``verdict``, when the journal was asked just before)."""
        return self.check(prepare(command, values, **connection), verdict)

    # -- the conversation, then the send ----------------------------------------------

    def ask(self, check: Check, asker: Asker, *, approval: bool = True) -> Ready | Refused:
        """The refusals and questions before sending ``check``'s request, in their one
        order (:mod:`.asking`), asked of ``asker``; nothing is sent.

        Args:
            approval: the team's approval policy may hold it back (False: a row of a batch,
                approved as a whole).
        """
        try:
            held = self._holds(self, check, approval=approval) if self._holds is not None else None
        except SendRefusedError as exc:  # the team's rule refused it: nothing is asked
            code = str(getattr(exc, "code", Refusal.NOT_SUBMITTED))
            return Refused(code, exc.message, check.verdict)
        return converse(check, asker, held)

    def go(self, ready: Ready, *, waiting: bool = False) -> Sent | Refused | Any:
        """Send what the conversation let through, once; or submit it for approval where
        the team's policy holds it (``waiting``: this console waits for the decision and
        sends it then, needed for card data), giving the submission
        (``console.core.team.approvals.held.Awaiting``, known here only as the hold's result).

        Raises:
            JournalUnavailableError: no journal: nothing may be sent unjournaled.
            CardDataNeedsWaitingError: held, with card data, and this console does not wait.
        """
        if ready.held is not None:
            return ready.held.submit(waiting=waiting, decision=ready.decision)
        try:
            return self.send(ready.check.prepared, ready.decision, check=ready.check)
        except RefusedError as exc:  # decided again in the journal: on its way, accepted
            return Refused.of(exc)

    def run(
        self,
        command: str,
        values: Mapping[str, str],
        asker: Asker,
        *,
        waiting: bool = False,
        approval: bool = True,
        **connection: Any,
    ) -> Sent | Refused | Any:
        """Prepare, ask (:meth:`ask`) and go (:meth:`go`): one request, start to end."""
        ready = self.ask(self.prepare(command, values, **connection), asker, approval=approval)
        return ready if isinstance(ready, Refused) else self.go(ready, waiting=waiting)

    def send(
        self,
        prepared: PreparedRequest,
        decision: Decision,
        *,
        check: Check | None = None,
    ) -> Sent:
        """Send once, if the guard and the person's decision allow it.

        ``check``: this request's :meth:`check` made just before (the look-up before the
        journal's lock is not repeated; the deciding one is inside it either way).

        Raises:
            RefusedError: invalid, plain http beyond this computer, accepted before, on its
                way right now (another process), unknown outcome not decided, not confirmed.
            JournalUnavailableError: no journal: nothing may be sent unjournaled.
        """
        hooks = self._hooks()
        admit, decided = self._admission(prepared, decision, check)
        record = hooks.before_send(prepared, admit)  # checked and committed before it leaves
        return self._transmit(prepared, hooks, record, decided[-1] if decided else NEW)

    @property
    def claims_in_blocks(self) -> bool:
        """Whether :meth:`claim_each` may be used: the journal writes many pending rows in
        one transaction, and no approval policy holds rows back."""
        return self.journal is not None and self.journal.claims_in_blocks and not self._holds

    def claim_each(self, readies: Sequence[Ready]) -> list[Claimed | Refused]:
        """The journal's pending rows of several requests the conversation let through
        (a batch's next rows), in one transaction and one sync, each checked by the guard
        as :meth:`send` checks it; nothing is sent. Each is then sent with
        :meth:`send_claimed`, or withdrawn (:meth:`withdraw`) if it is not.

        Raises:
            JournalUnavailableError: no journal, or the rows could not be written: none
                of them may be sent (any that were written are withdrawn).
        """
        hooks = cast(BlockJournalHooks, self._hooks())
        made: list[Claimed | Refused | None] = []  # None: its row is being written
        asked: list[tuple[int, PreparedRequest, Admit, list[Verdict]]] = []
        for ready in readies:
            prepared = ready.check.prepared
            try:
                admit, decided = self._admission(prepared, ready.decision, ready.check)
            except RefusedError as exc:
                made.append(Refused.of(exc))
                continue
            asked.append((len(made), prepared, admit, decided))
            made.append(None)
        rows = hooks.before_send_each([(prepared, admit) for _i, prepared, admit, _d in asked])
        claimed: list[Claimed] = []
        failed: BaseException | None = None
        for (index, prepared, _admit, decided), row in zip(asked, rows, strict=True):
            if isinstance(row, RefusedError):  # decided again in the journal
                made[index] = Refused.of(row)
            elif isinstance(row, BaseException):
                failed = failed or row
            else:
                claim = Claimed(prepared, decided[-1] if decided else NEW, hooks, row)
                made[index] = claim
                claimed.append(claim)
        if failed is not None:
            self.withdraw(claimed, _NOT_WRITTEN)
            raise failed
        return [entry for entry in made if entry is not None]

    def send_claimed(self, claimed: Claimed) -> Sent:
        """Send a request claimed with :meth:`claim_each`, once."""
        return self._transmit(claimed.prepared, claimed.hooks, claimed.record, claimed.verdict)

    def withdraw(self, claimed: Sequence[Claimed], summary: str) -> None:
        """Requests claimed with :meth:`claim_each` that will not be sent: their rows are
        "not sent", with ``summary`` saying why."""
        if claimed:
            claimed[0].hooks.withdraw([c.record for c in claimed], summary)

    def _hooks(self) -> JournalHooks:
        if self.journal is None:
            raise self._journal_error or JournalUnavailableError(
                "The history journal is not available, so nothing is sent (every send is "
                "journalled first)."
            )
        return self.journal.journal(
            self.environment, connect_timeout=self._timeouts[0], read_timeout=self._timeouts[1]
        )

    def _admission(
        self, prepared: PreparedRequest, decision: Decision, check: Check | None
    ) -> tuple[Admit, list[Verdict]]:
        """Refuse what ``decision`` does not answer, before the journal's lock; then the
        guard's check inside the journal's write transaction (``admit``), which leaves its
        verdict in the list."""
        decided: list[Verdict] = []
        before = check if check is not None and check.prepared is prepared else None
        before = before or self.check(prepared)
        refuse_undecided(before, decision)  # before the journal lock
        order_id = client_orderid(prepared.params)
        guarded = prepared.command in NEW_ORDER_COMMANDS and order_id

        def admit(rows: Sequence[SentRow]) -> None:
            # Inside the journal's write transaction: the deciding look-up and the pending
            # row are one step, so of two processes sending one id, exactly one sends.
            verdict = judge(order_id, rows) if guarded else NEW
            refuse_undecided(Check(prepared, verdict, before.summary), decision)
            decided.append(verdict)

        return admit, decided

    def _transmit(
        self, prepared: PreparedRequest, hooks: JournalHooks, record: object, verdict: Verdict
    ) -> Sent:
        """Send the request whose pending row is ``record``, once; journal its answer."""
        transport = self._transport()
        try:
            revealed = Client(transport).send(prepared)
        finally:
            if self._close_transport:
                transport.close()
        outcome = masked_outcome(revealed)
        hooks.after_answer(record, outcome)
        self._after_answer(outcome)
        return Sent(
            outcome,
            revealed,
            verdict,
            resend_note(verdict),
            getattr(hooks, "last_error", None),
        )

    def _after_answer(self, outcome: Outcome) -> None:
        """Effects of an answer, whichever front asked: a status answer sets the order's
        final status in the journal."""
        prepared, response, status = outcome.prepared, outcome.response, reported_status(outcome)
        if status is None or response is None or self.journal is None:
            return
        order_id = client_orderid(prepared.params)
        if order_id:
            self.journal.set_final_status(
                self.environment,
                order_id,
                status,
                orderid=answer_order_id(response.fields) or requested_order_id(prepared.params),
                source="status",
            )
