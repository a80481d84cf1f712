"""What the pipeline knows of a prepared request before it asks anyone: the guard's verdict,
the confirmation summary, the questions it raises; the refusal codes and the decisions a
person (or a flag, or a batch) gives back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from console.core.errors import SendRefusedError
from console.core.masking import mask_pan
from console.core.pipeline.guard import NEW, Seen, Verdict, blocked_text, unknown_question
from console.core.pipeline.summary import SendSummary
from console.core.spec.codes import Code
from console.core.spec.model import Problem

if TYPE_CHECKING:
    from console.core.prepared import PreparedRequest

# Commands that only read: no confirmation needed, even on production.
READ_ONLY_COMMANDS = frozenset({"status"})


class Refusal:
    """Why the pipeline refused: stable codes the fronts map to their words."""

    INVALID = "invalid"  # the request has errors and was not signed
    ACCEPTED_BEFORE = "accepted-before"  # double-payout guard
    DECLINED_BEFORE = "declined-before"  # double-payout guard: the gateway settled the id
    UNKNOWN_OUTCOME = "unknown-outcome"  # the last send's outcome is unknown: decide first
    NOT_CONFIRMED = "not-confirmed"  # production, and the person did not confirm
    PLAIN_HTTP = "plain-http"  # the address would carry card data and signatures in clear
    CARD_NUMBER = "card-number"  # the card number fails the Luhn check and was not confirmed
    IN_FLIGHT = "in-flight"  # a send of this order id is on its way right now
    NOT_SUBMITTED = "not-submitted"  # held for approval, and the person did not submit it
    # team mode: a gateway the team has not registered (and not on this computer)
    UNREGISTERED_GATEWAY = "unregistered-gateway"


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
    # team mode: submit a request a checker rejected before, after that rejection
    after_rejection: bool = False


def card_question(problems: Iterable[Problem], params: Iterable[tuple[str, str]]) -> str:
    """The question a card number failing the Luhn check raises (empty: none). A typo in a
    card number sends the money to a stranger, so it goes only on purpose."""
    for problem in problems:
        if problem.code == Code.LUHN:
            pan = next((v for n, v in params if n in problem.fields), "")
            return (
                f"The card number {mask_pan(pan)} fails the card number check digit "
                "(Luhn): it is probably mistyped, and a mistyped number can pay a "
                "stranger. Send it only if you have checked every digit."
            )
    return ""


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
        if self.verdict.seen is Seen.SETTLED:
            return Refusal.DECLINED_BEFORE
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
        """The question a card number failing the Luhn check raises (empty: none)."""
        return card_question(self.prepared.problems, self.prepared.params)
