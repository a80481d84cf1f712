"""The errors of the environments package, all :class:`EnvironmentStoreError`.

See the package docstring for when each is raised.
"""

from __future__ import annotations

from console.core.environments.rules import FieldProblem
from console.core.errors import EnvironmentStoreError


class InvalidEnvironmentError(EnvironmentStoreError, ValueError):
    """Settings that break a rule; ``problems`` names each field and its fix."""

    def __init__(self, found: list[FieldProblem]) -> None:
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in found))
        self.problems = found


class UnusableEnvironmentError(InvalidEnvironmentError):
    """A stored environment breaks a rule (a hand-edited file): it is listed, never sent to.

    ``environment`` is its name; ``problems`` name each field and its fix.
    """

    def __init__(self, environment: str, found: list[FieldProblem], where: str) -> None:
        super().__init__(found)
        self.environment = environment
        fixes = "; ".join(f"{p.field}: {p.message}" for p in found)
        self.message = (
            f"Environment {environment!r} cannot be used to send until it is fixed: {fixes} "
            f"Fix it with `gateway-console env edit {environment}` or in the window's "
            f"Environments dialog (it is stored in {where})."
        )
        self.args = (self.message,)


class ConfirmationRequiredError(EnvironmentStoreError):
    """A production environment would point somewhere new: ask, then pass ``confirm=True``."""

    def __init__(self, name: str, old_url: str, new_url: str, *, becomes_production: bool):
        if becomes_production:
            text = (
                f"Environment {name!r} becomes production: requests with real money will go "
                f"to {new_url}."
            )
        else:
            text = (
                f"Environment {name!r} is production: requests with real money would now go "
                f"to {new_url} instead of {old_url}."
            )
        super().__init__(text + " Confirm the change to save it.")
        self.name, self.old_url, self.new_url = name, old_url, new_url
        self.becomes_production = becomes_production


class UnknownEnvironmentError(EnvironmentStoreError, LookupError):
    """No environment has that name."""


class BuiltinEnvironmentError(EnvironmentStoreError):
    """The local sandbox is built in: it cannot be edited, renamed or removed."""


class EnvironmentFileError(EnvironmentStoreError):
    """The environments file cannot be read; it is left untouched."""


class EnvironmentNotReadyError(EnvironmentStoreError):
    """The environment cannot be used yet (the local sandbox is not running here)."""
