"""The environment dialog's line about the team's approval policy for the chosen environment
(read-only: an admin sets it with ``gateway-console team policy``). Shown only in team mode;
read on a worker, so choosing an environment never waits for the database."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from console.core.environments import Environment
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

    def show_for(self, environment: Environment) -> None:
        self.environment = environment.name
        self.setText(f"Approval policy (team): reading for {environment.name}…")
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


def _describe(dsn: str, environment: Environment) -> str:
    """The policy of the registered gateway the environment's payouts go to."""
    # boundary: the team database's modules load on the worker that reads the policy
    from console.core.team.approvals.registry import GatewayRegistry
    from console.core.team.storage.gateways import Target  # boundary: as above
    from console.core.team.storage.journal import TeamJournal  # boundary: as above

    command = "payout-check"
    try:
        target = Target.for_command(
            command,
            {
                "base_url": environment.base_url,
                "login": environment.login,
                "endpoint_id": environment.endpoint_id or None,
                "endpoint_group_id": environment.endpoint_group_id or None,
                "path_templates": environment.templates_for(command),
            },
        )
    except ValueError as exc:
        return f"Approval policy (team): none yet ({exc})."
    with TeamJournal(dsn) as journal:
        policy = GatewayRegistry(journal).policy_at(target)
    if policy is None:
        if target.local:
            return "Approval policy (team): none (a gateway on this computer, not registered)."
        return (
            "Approval policy (team): the team has not registered this gateway, so nothing is "
            "sent to it. An admin registers it with `gateway-console team gateway add`."
        )
    expiry = "" if policy.mode == "none" else f"; pending submissions expire after {policy.expiry}"
    return (
        f"Approval policy (team) of the gateway {policy.gateway}: {policy.describe()}{expiry}. "
        f"An admin changes it with `gateway-console team policy {policy.gateway}`."
    )


def policy_line(tasks: TaskManager | None = None) -> PolicyLine | None:
    """A policy line in team mode, None for one person."""
    try:
        dsn = team_dsn()
    except ConsoleError:
        return None
    return PolicyLine(dsn, tasks=tasks) if dsn else None
