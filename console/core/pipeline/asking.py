"""The conversation around one send: the refusals and the questions a person answers, in
their one order, written once here.

:func:`steps` lists them for a checked request, lazily, first to last:

1. the request has errors (not signed): refused;
2. plain http beyond this computer: refused;
3. accepted before, or on its way right now (the double-payout guard): refused;
4. the last send's outcome is unknown: *resend with the same client_orderid?*
5. a card number fails its check digit: *send it as typed?*
6. held by the team's approval policy: *submit for approval?* (the approval is then the
   production confirmation); otherwise, on production: *send to production?*

A front implements only an :class:`Asker` (the window's dialogs, the command line's flags
and prompt, a batch row's answers from the batch's decisions); :func:`converse` asks it in
this order and stops at the first refusal or "no". :meth:`Pipeline.send` checks the same
steps against the :class:`~.check.Decision` again, inside the journal's write transaction,
with :func:`refuse_undecided`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Protocol
from urllib.parse import urlsplit

from console.core.addresses import is_local_address
from console.core.pipeline.check import Check, Decision, Refusal, RefusedError
from console.core.pipeline.guard import Verdict


class Hold(Protocol):
    """A request the team's approval policy holds back for a checker
    (``console.core.team.approvals.held.Held``; team mode sits above the pipeline, so the pipeline
    knows it only by this protocol and is given the rule, :data:`HoldRule`)."""

    ACTION: ClassVar[str]  # what a front offers instead of Send

    @property
    def text(self) -> str: ...  # why it is held, in words

    @property
    def rejection(self) -> str: ...  # the same request rejected before, in words ("": not)

    @property
    def check(self) -> Check: ...

    @property
    def approval(self) -> bool: ...  # a checker decides first (False: the team sender sends

    # it at once, so the production confirmation is the maker's, as for a send)

    def submit(self, *, waiting: bool, decision: Decision | None = None) -> Any:
        """Record it for a checker's decision (a ``console.core.team.approvals.held.Awaiting``)."""


class HoldRule(Protocol):
    """(pipeline, check) -> the hold on the request, or None: send it as usual
    (``approval``: the policy may hold it for a checker; False: a row of a batch approved as
    a whole). The pipeline is typed Any here: this module sits below it."""

    def __call__(self, pipeline: Any, check: Check, *, approval: bool = True) -> Hold | None: ...


class Question(StrEnum):
    """The questions a person answers before a send."""

    RESEND_UNKNOWN = "resend-unknown"  # the last send's outcome is unknown: resend?
    CARD_NUMBER = "card-number"  # the card number fails its check digit: send as typed?
    SUBMIT = "submit-for-approval"  # held by the team's approval policy: submit it?
    PRODUCTION = "production"  # real money: send?


class Asker(Protocol):
    """What a front answers: True goes on, False refuses (nothing is sent)."""

    def resend_unknown(self, check: Check) -> bool:
        """Resend after an unknown outcome (``check.question``), same client_orderid?"""
        ...

    def card_number(self, check: Check) -> bool:
        """Send a card number failing its check digit (``check.card_question``)?"""
        ...

    def submit_for_approval(self, held: Hold) -> bool:
        """Submit a request the team's approval policy holds back (``held.text``)?"""
        ...

    def production(self, check: Check) -> bool:
        """Send to production (``check.summary``)?"""
        ...


@dataclass(frozen=True, slots=True)
class Answered:
    """An :class:`Asker` whose answers were given up front (a batch row: the batch's
    decisions); it submits nothing for approval."""

    decision: Decision

    def resend_unknown(self, check: Check) -> bool:
        return self.decision.resend_after_unknown

    def card_number(self, check: Check) -> bool:
        return self.decision.card_number_confirmed

    def submit_for_approval(self, held: Hold) -> bool:
        return False

    def production(self, check: Check) -> bool:
        return self.decision.production_confirmed


@dataclass(frozen=True, slots=True)
class Refused:
    """Nothing was sent: why (``code``, one of :class:`~.check.Refusal`'s, and the
    message), and the question the person said no to (None: refused without asking)."""

    code: str
    message: str
    verdict: Verdict
    question: Question | None = None

    @classmethod
    def of(cls, exc: RefusedError) -> Refused:
        return cls(exc.code, exc.message, exc.verdict)


@dataclass(frozen=True, slots=True)
class Ready:
    """A request the conversation let through, with the answers given: sent with
    ``decision``, or, where the team's approval policy holds it (``held``), submitted."""

    check: Check
    decision: Decision
    held: Hold | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the conversation: refused unless ``question`` is answered yes (a step
    without a question is refused whatever anyone says)."""

    code: str
    message: str
    question: Question | None = None


def steps(check: Check, *, held: bool = False) -> Iterator[Step]:
    """The refusals and questions of ``check``, in their order; ``held``: the team's
    approval policy holds it (the submission replaces the production confirmation)."""
    if not check.signed:
        yield Step(check.block_code, check.blocked)  # invalid: it has errors
    url = check.prepared.url
    if urlsplit(url).scheme.lower() != "https" and not is_local_address(url):
        yield Step(
            Refusal.PLAIN_HTTP,
            f"Not sent: {url} is plain http, so card data and the signature would travel "
            "unencrypted. Use an https address (plain http is allowed only for this "
            "computer: localhost, 127.0.0.1, ::1).",
        )
    if check.block_code:
        yield Step(check.block_code, check.blocked)
    if check.question:
        yield Step(Refusal.UNKNOWN_OUTCOME, check.question, Question.RESEND_UNKNOWN)
    if check.card_question:
        yield Step(Refusal.CARD_NUMBER, check.card_question, Question.CARD_NUMBER)
    if held:
        yield Step(Refusal.NOT_SUBMITTED, "Not submitted: nothing was sent.", Question.SUBMIT)
    elif check.needs_confirmation:
        yield Step(
            Refusal.NOT_CONFIRMED,
            "Not sent: this is a production environment and the send was not confirmed.",
            Question.PRODUCTION,
        )


def converse(check: Check, asker: Asker, held: Hold | None = None) -> Ready | Refused:
    """Ask ``asker`` the questions of ``check`` in their order; stop at the first refusal."""
    said: set[Question] = set()
    for step in steps(check, held=held is not None and held.approval):
        if step.question is None:
            return Refused(step.code, step.message, check.verdict)
        if not _ask(asker, step.question, check, held):
            return Refused(step.code, step.message, check.verdict, step.question)
        said.add(step.question)
    decision = Decision(
        production_confirmed=Question.PRODUCTION in said,
        resend_after_unknown=Question.RESEND_UNKNOWN in said,
        card_number_confirmed=Question.CARD_NUMBER in said,
        # the submit question, asked with the earlier rejection shown, said yes to it
        after_rejection=held is not None and bool(held.rejection) and Question.SUBMIT in said,
    )
    return Ready(check, decision, held)


def _ask(asker: Asker, question: Question, check: Check, held: Hold | None) -> bool:
    if question is Question.RESEND_UNKNOWN:
        return asker.resend_unknown(check)
    if question is Question.CARD_NUMBER:
        return asker.card_number(check)
    if question is Question.SUBMIT:
        assert held is not None  # asked only of a held request
        return asker.submit_for_approval(held)
    return asker.production(check)


def refuse_undecided(check: Check, decision: Decision) -> None:
    """Raise :class:`~.check.RefusedError` at the first step ``decision`` does not answer
    yes (the send's own check: whatever a front asked, this is what goes)."""
    answered = {
        Question.RESEND_UNKNOWN: decision.resend_after_unknown,
        Question.CARD_NUMBER: decision.card_number_confirmed,
        Question.PRODUCTION: decision.production_confirmed,
    }
    for step in steps(check):
        if step.question is None or not answered[step.question]:
            raise RefusedError(step.code, step.message, check.verdict)
