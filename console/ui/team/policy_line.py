"""The environment dialog's line about the team's approval policy for the chosen environment
(read-only: an admin sets it with ``gateway-console team policy``). Shown only in team mode;
read on a worker, so choosing an environment never waits for the database."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from console.core.errors import ConsoleError
from console.core.journals import team_dsn
from console.ui.tasks import TaskManager


class PolicyLine(QLabel):
    def __init__(
        self, dsn: str, parent: QWidget | None = None, tasks: TaskManager | None = None
    ) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAccessibleName("Approval policy")
        self.dsn = dsn
        self.tasks = tasks if tasks is not None else TaskManager(self)
        self.environment = ""

    def show_for(self, environment: str) -> None:
        self.environment = environment
        self.setText(f"Approval policy (team): reading for {environment}…")
        self.tasks.run(
            lambda: _describe(self.dsn, environment), self._shown, self._failed, owner=self
        )

    def _shown(self, text: str) -> None:
        self.setText(text)

    def _failed(self, exc: BaseException, _tb: str) -> None:
        self.setText(
            "Approval policy (team): "
            + (exc.message if isinstance(exc, ConsoleError) else type(exc).__name__)
        )


def _describe(dsn: str, environment: str) -> str:
    # boundary: the team database's modules load on the worker that reads the policy
    from console.core.team.approval import Approvals
    from console.core.team.journal import TeamJournal

    with TeamJournal(dsn) as journal:
        policy = Approvals(journal).policy(environment)
    expiry = "" if policy.mode == "none" else f"; pending submissions expire after {policy.expiry}"
    return (
        f"Approval policy (team): {policy.describe()}{expiry}. An admin changes it with "
        f"`gateway-console team policy {environment}`."
    )


def policy_line(tasks: TaskManager | None = None) -> PolicyLine | None:
    """A policy line in team mode, None for one person."""
    try:
        dsn = team_dsn()
    except ConsoleError:
        return None
    return PolicyLine(dsn, tasks=tasks) if dsn else None
