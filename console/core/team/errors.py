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
