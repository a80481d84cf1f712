"""The team's gateways as an admin keeps them: register one, list them, show or set the
approval policy of each (:class:`GatewayRegistry`). The database checks the caller and
audits every step; :mod:`console.core.team.storage.gateways` says what a registered gateway is.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING

from console.core.team import inputs
from console.core.team.approvals.approval import admin_step
from console.core.team.approvals.submissions import MODES, Policy
from console.core.team.errors import TeamSetupError
from console.core.team.storage import gateways
from console.core.team.storage.gateways import Gateway, Target

if TYPE_CHECKING:
    from console.core.team.storage.journal import TeamJournal


def policy_of(found: Gateway) -> Policy:
    """The :class:`Policy` of a registered gateway."""
    return Policy(found.name, found.mode, found.thresholds, found.expiry)


class GatewayRegistry:
    """The team's registered gateways and their policies, as the connected person."""

    def __init__(self, journal: TeamJournal) -> None:
        self.journal = journal

    def add(
        self,
        name: str,
        *,
        base_url: str,
        login: str,
        endpoint_id: str | None = None,
        group_id: str | None = None,
    ) -> Gateway:
        """Register a gateway of the team (admin), with the policy of an environment of the
        same name from before schema 6, else ``all`` until its policy is set.

        Raises:
            TeamSetupError: a field missing or not usable.
            TeamPermissionError: not an admin, the name or the gateway registered already.
        """
        fields = gateways.registration(
            name, base_url=base_url, login=login, endpoint_id=endpoint_id, group_id=group_id
        )
        admin_step(self.journal, "SELECT gateway.gateway_add(%s, %s, %s, %s, %s)", fields)
        with self.journal.reading() as db:
            found = gateways.named(db, fields[0])
        assert found is not None  # registered just now, and never removed
        return found

    def listed(self) -> list[Gateway]:
        """The team's registered gateways, by name."""
        with self.journal.reading() as db:
            return gateways.registered(db)

    def policy(self, name: str) -> Policy:
        """The approval policy of the gateway registered as ``name``.

        Raises:
            TeamSetupError: no gateway is registered under that name.
        """
        with self.journal.reading() as db:
            found = gateways.named(db, name)
        if found is None:
            raise TeamSetupError(
                f"No gateway is registered as {name!r}: `gateway-console team gateway list` "
                "names them; an admin registers one with `team gateway add`."
            )
        return policy_of(found)

    def policy_at(self, target: Target) -> Policy | None:
        """The policy of the registered gateway ``target`` goes to (None: not registered)."""
        with self.journal.reading() as db:
            found = gateways.gateway_at(db, target)
        return policy_of(found) if found is not None else None

    def set_policy(
        self,
        name: str,
        mode: str,
        thresholds: dict[str, str] | None = None,
        expiry: timedelta = timedelta(hours=24),
    ) -> Policy:
        """Set the policy of the gateway registered as ``name`` (admin)."""
        if mode not in MODES:
            raise TeamSetupError(f"policy: mode must be one of {', '.join(MODES)}, not {mode!r}")
        limits = {
            c.strip().upper(): inputs.threshold(c.strip().upper(), a.strip())
            for c, a in (thresholds or {}).items()
        }
        inputs.expiry(expiry / timedelta(hours=1))
        admin_step(
            self.journal,
            "SELECT gateway.set_policy(%s, %s, %s::jsonb, %s)",
            (name, mode, json.dumps(limits), expiry),
        )
        return self.policy(name)
