"""The one send pipeline every front uses (window, command line, status checks):

prepare (validate, sign) -> guard verdict -> confirmation summary -> journal row "pending"
-> send once -> decode -> masked outcome -> journal answer -> after-answer effects.

Fronts only show what :meth:`Pipeline.check` found and ask the person; what the person
decided comes back as a :class:`Decision`, and :meth:`Pipeline.send` refuses (with
:class:`~console.core.errors.SendRefusedError`) whatever was not decided. Nothing is sent
without a journal (:class:`~console.core.errors.JournalUnavailableError`), and nothing is
retried.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from console.core.addresses import is_local_address
from console.core.client import Client, Outcome, PreparedRequest, Result, prepare
from console.core.errors import JournalUnavailableError, SendRefusedError
from console.core.journals import Journal
from console.core.masking import mask_pan
from console.core.order_facts import answer_order_id, client_orderid, requested_order_id
from console.core.pipeline.guard import (
    NEW,
    NEW_ORDER_COMMANDS,
    Seen,
    SentRow,
    Verdict,
    blocked_text,
    judge,
    resend_note,
    unknown_question,
    verdict_for,
)
from console.core.pipeline.summary import SendSummary
from console.core.pipeline.view import masked_outcome
from console.core.transport import Transport

# Commands that only read: no confirmation needed, even on production.
READ_ONLY_COMMANDS = frozenset({"status"})


class Refusal:
    """Why :meth:`Pipeline.send` refused: stable codes the fronts map to their words."""

    INVALID = "invalid"  # the request has errors and was not signed
    ACCEPTED_BEFORE = "accepted-before"  # double-payout guard
    UNKNOWN_OUTCOME = "unknown-outcome"  # the last send's outcome is unknown: decide first
    NOT_CONFIRMED = "not-confirmed"  # production, and the person did not confirm
    PLAIN_HTTP = "plain-http"  # the address would carry card data and signatures in clear
    CARD_NUMBER = "card-number"  # the card number fails the Luhn check and was not confirmed
    IN_FLIGHT = "in-flight"  # a send of this order id is on its way right now


class RefusedError(SendRefusedError):
    """A send the pipeline refused; ``code`` is one of :class:`Refusal`'s."""

    def __init__(self, code: str, message: str, verdict: Verdict = NEW) -> None:
        super().__init__(message)
        self.code = code
        self.verdict = verdict


@dataclass(frozen=True, slots=True)
class Decision:
    """What the person decided when asked (or said up front on the command line)."""

    production_confirmed: bool = False
    resend_after_unknown: bool = False
    card_number_confirmed: bool = False


@dataclass(frozen=True, slots=True)
class Check:
    """A prepared request with everything a front shows before asking the person."""

    prepared: PreparedRequest
    verdict: Verdict
    summary: SendSummary

    @property
    def signed(self) -> bool:
        return self.prepared.signed is not None

    @property
    def needs_confirmation(self) -> bool:
        """Production sends are confirmed by the person; a status look-up changes nothing."""
        return self.summary.production and self.prepared.command not in READ_ONLY_COMMANDS

    @property
    def blocked(self) -> str:
        """Why it cannot be sent at all (empty when it can)."""
        if not self.signed:
            return "Not sent: the request has errors. Fix them and send again."
        if self.verdict.blocks:
            return blocked_text(self.verdict, self.prepared.command)
        return ""

    @property
    def block_code(self) -> str:
        """The :class:`Refusal` code of :attr:`blocked` (empty when it can be sent)."""
        if not self.signed:
            return Refusal.INVALID
        if self.verdict.seen is Seen.SENDING:
            return Refusal.IN_FLIGHT
        return Refusal.ACCEPTED_BEFORE if self.verdict.blocks else ""

    def refuse_if_blocked(self) -> None:
        """Raise :class:`RefusedError` when it cannot be sent at all."""
        if self.block_code:
            raise RefusedError(self.block_code, self.blocked, self.verdict)

    @property
    def question(self) -> str:
        """The question an unknown earlier outcome raises (empty when there is none)."""
        return unknown_question(self.verdict) if self.verdict.asks else ""

    @property
    def card_question(self) -> str:
        """The question a card number failing the Luhn check raises (empty: none). A typo
        in a card number sends the money to a stranger, so it goes only on purpose."""
        for problem in self.prepared.problems:
            if problem.code == "luhn":
                pan = next((v for n, v in self.prepared.params if n in problem.fields), "")
                return (
                    f"The card number {mask_pan(pan)} fails the card number check digit "
                    "(Luhn): it is probably mistyped, and a mistyped number can pay a "
                    "stranger. Send it only if you have checked every digit."
                )
        return ""


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
    ) -> None:
        self.environment = environment
        self.gateway = gateway
        self.production = production
        self.journal = journal
        self._transport = transport
        self._close_transport = close_transport
        self._timeouts = (connect_timeout, read_timeout)
        self._journal_error = journal_error

    # -- before sending ---------------------------------------------------------------

    def verdict(self, command: str, order_id: str, gateway: str | None = None) -> Verdict:
        """What the journal says now of sending ``order_id`` with ``command`` again (to
        ``gateway``; by default the one this pipeline's settings reach)."""
        if self.journal is None or command not in NEW_ORDER_COMMANDS:
            return NEW
        where = gateway if gateway is not None else self.gateway(command)
        return verdict_for(self.journal, where, command, order_id, self.environment)

    def check(self, prepared: PreparedRequest) -> Check:
        """The guard's verdict and the confirmation summary of a prepared request."""
        order_id = client_orderid(prepared.params)
        guarded = prepared.command in NEW_ORDER_COMMANDS and prepared.signed is not None
        return Check(
            prepared,
            self.verdict(prepared.command, order_id, prepared.gateway) if guarded else NEW,
            self._summary(prepared),
        )

    def _summary(self, prepared: PreparedRequest) -> SendSummary:
        return SendSummary.of(self.environment, self.production, prepared.command, prepared.params)

    def prepare(self, command: str, values: Mapping[str, str], **connection: Any) -> Check:
        """Validate and sign (``console.core.client.prepare``), then :meth:`check`."""
        return self.check(prepare(command, values, **connection))

    # -- sending ----------------------------------------------------------------------

    def send(self, prepared: PreparedRequest, decision: Decision) -> Sent:
        """Send once, if the guard and the person's decision allow it.

        Raises:
            RefusedError: invalid, plain http beyond this computer, accepted before, on its
                way right now (another process), unknown outcome not decided, not confirmed.
            JournalUnavailableError: no journal: nothing may be sent unjournaled.
        """
        if self.journal is None:
            raise self._journal_error or JournalUnavailableError(
                "The history journal is not available, so nothing is sent (every send is "
                "journalled first)."
            )
        decided: list[Verdict] = []

        def admit(rows: Sequence[SentRow]) -> None:
            # Inside the journal's write transaction: the deciding look-up and the pending
            # row are one step, so of two processes sending one id, exactly one sends.
            order_id = client_orderid(prepared.params)
            guarded = prepared.command in NEW_ORDER_COMMANDS and order_id
            verdict = judge(order_id, rows) if guarded else NEW
            self._refuse_unless_decided(Check(prepared, verdict, self._summary(prepared)), decision)
            decided.append(verdict)

        self._refuse_unless_decided(self.check(prepared), decision)  # before the journal lock
        hooks = self.journal.journal(
            self.environment, connect_timeout=self._timeouts[0], read_timeout=self._timeouts[1]
        )
        record = hooks.before_send(prepared, admit)  # checked and committed before it leaves
        verdict = decided[-1] if decided else NEW
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

    def _refuse_unless_decided(self, check: Check, decision: Decision) -> None:
        verdict = check.verdict
        if not check.signed:
            check.refuse_if_blocked()
        url = check.prepared.url
        if urlsplit(url).scheme.lower() != "https" and not is_local_address(url):
            raise RefusedError(
                Refusal.PLAIN_HTTP,
                f"Not sent: {url} is plain http, so card data and the signature would travel "
                "unencrypted. Use an https address (plain http is allowed only for this "
                "computer: localhost, 127.0.0.1, ::1).",
                verdict,
            )
        check.refuse_if_blocked()
        if verdict.asks and not decision.resend_after_unknown:
            raise RefusedError(Refusal.UNKNOWN_OUTCOME, check.question, verdict)
        if check.card_question and not decision.card_number_confirmed:
            raise RefusedError(Refusal.CARD_NUMBER, check.card_question, verdict)
        if check.needs_confirmation and not decision.production_confirmed:
            raise RefusedError(
                Refusal.NOT_CONFIRMED,
                "Not sent: this is a production environment and the send was not confirmed.",
                verdict,
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
