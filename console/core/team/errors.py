"""Errors of team mode, in the core's error tree (``console.core.errors``)."""

from __future__ import annotations

from console.core.errors import ConsoleError, InputError, JournalUnavailableError, SendRefusedError


class TeamUnavailableError(JournalUnavailableError):
    """The team database cannot be reached or used; nothing was sent."""


class TeamSetupError(InputError):
    """A team setting is wrong (a DSN with a password in it, an unknown role...)."""


class ApprovalRefusedError(SendRefusedError):
    """The database refused an approval step (self-approval, expired, changed, not yours...).

    The refusal is in the audit trail; nothing was decided or sent.
    """


class TeamPermissionError(ConsoleError):
    """The database refused an action to this person's role."""


class AuditTamperedError(ConsoleError):
    """The audit trail does not extend the head signed or verified before: it was rewritten
    or shortened (``team audit --verify`` says where). Nothing was signed."""


class CardDataNeedsWaitingError(InputError):
    """A held request carries card data, which never goes to the team database: only the
    console holding it can send it, so it must wait for the approval. Nothing was stored."""


class ApprovalPendingError(ConsoleError):
    """Submitted, and no checker has decided yet: nothing was sent (yet).

    Attributes:
        submission_id: the submission waiting.
    """

    def __init__(self, message: str, submission_id: int) -> None:
        super().__init__(message)
        self.submission_id = submission_id


class NotApprovedError(ApprovalRefusedError):
    """A checker rejected the submission, or it expired or was voided: nothing was sent.

    Attributes:
        state: rejected, expired, void, sent, refused...
    """

    def __init__(self, message: str, state: str) -> None:
        super().__init__(message)
        self.state = state


class UnregisteredGatewayError(SendRefusedError):
    """A console of the team was asked to send to a gateway the team has not registered
    (and not on this computer): nothing was sent or submitted.

    Attributes:
        code: the pipeline's refusal code for it (a refusal before anything is asked).
    """

    code = "unregistered-gateway"


class RejectedBeforeError(ApprovalRefusedError):
    """The same request (its hash or its client_orderid) was rejected by a checker before,
    and the maker did not say to submit it again after that rejection: nothing was
    submitted."""
