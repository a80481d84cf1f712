"""The team's gateways: registered in the team database by an admin, each with its approval
policy, and the rule that a console of the team sends only to them (or to this computer).

A registered gateway is a base URL and a merchant login (with the endpoint or group id it
was registered with); a request goes to it when its URL, normalised as the double-payout
guard's (:mod:`console.core.gateway_identity`), lies under the base URL and it is signed for
the login, whatever environment or spelling named it. The database checks every journal row
again on its own (``console.core.team.storage.schema_v6``); this module is what the console asks
first, so that a person hears why before anything is asked or written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from console.core.addresses import is_local_address
from console.core.gateway_identity import ascii_url, normalised_url
from console.core.spec import command_url
from console.core.team.errors import TeamSetupError, UnregisteredGatewayError

if TYPE_CHECKING:
    from console.core.prepared import PreparedRequest

GATEWAY_SQL = (
    "SELECT name, base_url, login, endpoint_id, group_id, prefix, mode, thresholds, expiry,"
    " registered_by FROM gateway.gateways"
)


@dataclass(frozen=True, slots=True)
class Gateway:
    """A gateway the team registered, with its approval policy."""

    name: str
    base_url: str
    login: str
    endpoint_id: str | None
    group_id: str | None
    identity: str  # the base URL as the database normalised it
    mode: str
    thresholds: dict[str, str] = field(default_factory=dict)
    expiry: timedelta = timedelta(hours=24)
    registered_by: str = ""

    @property
    def endpoint(self) -> str:
        """Its endpoint or group, as the contract's URLs name them."""
        return f"endpoint {self.endpoint_id}" if self.endpoint_id else f"group {self.group_id}"


def gateway_of(row: tuple[Any, ...]) -> Gateway:
    """The :class:`Gateway` of a row selected with :data:`GATEWAY_SQL`."""
    name, base_url, login, endpoint_id, group_id, identity, mode, thresholds, expiry, by = row
    return Gateway(
        name,
        base_url,
        login,
        endpoint_id,
        group_id,
        identity,
        mode,
        dict(thresholds or {}),
        expiry,
        by,
    )


@dataclass(frozen=True, slots=True)
class Target:
    """Where a request goes: its URL (host in ASCII, as the database reads it) and login."""

    url: str
    login: str

    @classmethod
    def of(cls, prepared: PreparedRequest) -> Target:
        login = prepared.signed.oauth.get("oauth_consumer_key", "") if prepared.signed else ""
        return cls(ascii_url(prepared.url), login.strip())

    @classmethod
    def for_command(cls, command: str, connection: Mapping[str, Any]) -> Target:
        """The target of ``command`` with these connection settings (the keyword arguments
        of ``console.core.prepared.prepare``)."""
        url = command_url(
            str(connection["base_url"]),
            command,
            endpoint_id=connection.get("endpoint_id"),
            endpoint_group_id=connection.get("endpoint_group_id"),
            templates=connection.get("path_templates"),
        )
        return cls(ascii_url(url), str(connection["login"]).strip())

    @property
    def local(self) -> bool:
        """On this computer (a sandbox): allowed whether registered or not."""
        return is_local_address(self.url)


def registered(db: Any) -> list[Gateway]:
    """Every registered gateway, by name."""
    return [gateway_of(tuple(r)) for r in db.execute(f"{GATEWAY_SQL} ORDER BY name")]


def named(db: Any, name: str) -> Gateway | None:
    found = db.execute(f"{GATEWAY_SQL} WHERE name = %s", (name,)).fetchone()
    return gateway_of(tuple(found)) if found else None


def gateway_at(db: Any, target: Target) -> Gateway | None:
    """The registered gateway a request to ``target`` goes to (None: not registered)."""
    found = db.execute(
        f"{GATEWAY_SQL.replace('gateway.gateways', 'gateway.gateway_at(%s, %s)')}",
        (target.url, target.login),
    ).fetchone()
    return gateway_of(tuple(found)) if found and found[0] is not None else None


def require_registered(db: Any, target: Target, environment: str) -> Gateway | None:
    """The registered gateway of ``target``; None for this computer's gateways (a sandbox)
    that are not registered.

    Raises:
        UnregisteredGatewayError: not registered, and not on this computer: nothing is sent
            or submitted.
    """
    found = gateway_at(db, target)
    if found is not None or target.local:
        return found
    try:
        where = normalised_url(target.url)
    except ValueError:
        where = target.url
    raise UnregisteredGatewayError(
        f"Not sent: the team has not registered the gateway {where} (login {target.login}) "
        f"that {environment} reaches, and a console of the team sends only to registered "
        "gateways. An admin registers it: gateway-console team gateway add NAME --base-url "
        "URL --login LOGIN --endpoint-id N."
    )


def registration(
    name: str,
    *,
    base_url: str,
    login: str,
    endpoint_id: str | None = None,
    group_id: str | None = None,
) -> tuple[str, str, str, str | None, str | None]:
    """What ``gateway.gateway_add`` takes to register a gateway: the fields checked, the
    base URL's host in ASCII.

    Raises:
        TeamSetupError: a field missing or not usable (named, with its fix).
    """
    name, login = name.strip(), login.strip()
    endpoint_id = (endpoint_id or "").strip() or None
    group_id = (group_id or "").strip() or None
    if not name:
        raise TeamSetupError("team gateway add: the gateway needs a NAME")
    if not login:
        raise TeamSetupError("--login: the merchant login is empty")
    if (endpoint_id is None) == (group_id is None):
        raise TeamSetupError(
            "team gateway add: give one of --endpoint-id or --group-id (the endpoint or "
            "group its URLs name)"
        )
    try:
        normalised_url(base_url)
    except ValueError as exc:
        raise TeamSetupError(
            f"--base-url {base_url!r}: {exc}; write it as https://gateway.example/paynet"
        ) from exc
    return name, ascii_url(base_url), login, endpoint_id, group_id
