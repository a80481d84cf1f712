"""The environment model: where requests go and as whom. Secrets never live here.

An environment holds the base URL, login, endpoint ids, per-command path templates (only the
ones that differ from the contract's paths are kept: contract section 4 says paths may
change), timeouts, CA bundle, redirect placeholder and callback listener settings. Private
keys and merchant control secrets are in the OS keyring (:mod:`console.core.vault`), keyed by
the environment's name.

The built-in local sandbox (kind ``local-sandbox``, name :data:`LOCAL_SANDBOX_NAME`) is never
written to the file: it is always listed, cannot be edited or removed, and its address and
demo merchant are attached at run time by whoever starts the sandbox
(:meth:`EnvironmentStore.attach_local_sandbox`), because its port is
picked when it starts. Its callback listener is always on, on a random loopback port.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from console.core.spec import COMMANDS
from console.core.timeouts import DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT

LOCAL_SANDBOX_NAME = "local-sandbox"


class EnvKind(StrEnum):
    """What an environment talks to."""

    LOCAL_SANDBOX = "local-sandbox"
    SANDBOX = "sandbox"
    PRODUCTION = "production"


@dataclass(frozen=True, slots=True)
class CallbackListenerSettings:
    """Where the callback listener of an environment listens, when it is on.

    The field notes say deployed gateways call back only on ports 80, 8080, 443 and 8443;
    8080 is the default for that reason.
    """

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True, slots=True)
class Environment:
    """One named environment (no secrets: those are in the keyring under ``name``).

    Attributes:
        name: unique name, letters, digits, ``.``, ``_`` and ``-``.
        kind: local sandbox, sandbox or production.
        base_url: scheme, host and prefix before ``/api/v4`` (``https://HOST/paynet``).
        login: the login the gateway issued (the OAuth consumer key).
        endpoint_id: endpoint id, or empty.
        endpoint_group_id: endpoint group id, or empty.
        path_templates: per command, per form (``endpoint``/``group``), the paths that differ
            from the contract's; see :meth:`templates_for`.
        connect_timeout: seconds to wait for the connection.
        read_timeout: seconds to wait for the answer.
        ca_bundle: a CA bundle file for TLS verification, or empty for the system's.
        redirect_placeholder: the "no redirect wanted" address (contract 4.2 rule 6), or empty.
        callback: the callback listener settings.
    """

    name: str
    kind: EnvKind
    base_url: str = ""
    login: str = ""
    endpoint_id: str = ""
    endpoint_group_id: str = ""
    path_templates: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    read_timeout: float = DEFAULT_READ_TIMEOUT
    ca_bundle: str = ""
    redirect_placeholder: str = ""
    callback: CallbackListenerSettings = field(default_factory=CallbackListenerSettings)

    @property
    def builtin(self) -> bool:
        """True for the local sandbox, which is not stored and cannot be edited."""
        return self.kind is EnvKind.LOCAL_SANDBOX

    @property
    def verify(self) -> bool | str:
        """The ``verify`` argument for the transport: the CA bundle path or True."""
        return self.ca_bundle or True

    def templates_for(self, command: str) -> dict[str, str]:
        """Path templates of ``command``: the contract's, with this environment's overrides."""
        merged = dict(COMMANDS[command].path_templates)
        merged.update(self.path_templates.get(command, {}))
        return merged

    def gateway(self, command: str) -> str:
        """The identity of the gateway ``command`` goes to (what the double-payout guard is
        keyed on, :mod:`console.core.gateway_identity`); the environment's name while its
        address is not usable (nothing can be sent to it then)."""
        # boundary: the identity's IDNA tables load when a gateway is first named, which the
        # window's first picture does not need
        from console.core.gateway_identity import gateway_for

        try:
            return gateway_for(
                command,
                base_url=self.base_url,
                login=self.login,
                endpoint_id=self.endpoint_id or None,
                endpoint_group_id=self.endpoint_group_id or None,
                path_templates=self.templates_for(command),
            )
        except (KeyError, ValueError):
            return self.name

    def to_json(self) -> dict[str, Any]:
        """The file form (also what ``env show --json`` prints)."""
        return {
            "name": self.name,
            "kind": str(self.kind),
            "base_url": self.base_url,
            "login": self.login,
            "endpoint_id": self.endpoint_id,
            "endpoint_group_id": self.endpoint_group_id,
            "path_templates": {c: dict(t) for c, t in sorted(self.path_templates.items())},
            "connect_timeout": self.connect_timeout,
            "read_timeout": self.read_timeout,
            "ca_bundle": self.ca_bundle,
            "redirect_placeholder": self.redirect_placeholder,
            "callback_listener": {
                "enabled": self.callback.enabled,
                "host": self.callback.host,
                "port": self.callback.port,
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Environment:
        """Read the file form. Raises ValueError/KeyError/TypeError on a damaged entry."""
        cb = data.get("callback_listener") or {}
        templates = data.get("path_templates") or {}
        return cls(
            name=str(data["name"]),
            kind=EnvKind(data["kind"]),
            base_url=str(data.get("base_url", "")),
            login=str(data.get("login", "")),
            endpoint_id=str(data.get("endpoint_id", "")),
            endpoint_group_id=str(data.get("endpoint_group_id", "")),
            path_templates={
                str(c): {str(k): str(v) for k, v in t.items()} for c, t in templates.items()
            },
            connect_timeout=float(data.get("connect_timeout", DEFAULT_CONNECT_TIMEOUT)),
            read_timeout=float(data.get("read_timeout", DEFAULT_READ_TIMEOUT)),
            ca_bundle=str(data.get("ca_bundle", "")),
            redirect_placeholder=str(data.get("redirect_placeholder", "")),
            callback=CallbackListenerSettings(
                enabled=bool(cb.get("enabled", False)),
                host=str(cb.get("host", "127.0.0.1")),
                port=int(cb.get("port", 8080)),
            ),
        )


def local_sandbox(
    base_url: str = "", login: str = "", endpoint_id: str = "", endpoint_group_id: str = ""
) -> Environment:
    """The built-in local sandbox, with the address and merchant of a running sandbox."""
    return Environment(
        name=LOCAL_SANDBOX_NAME,
        kind=EnvKind.LOCAL_SANDBOX,
        base_url=base_url,
        login=login,
        endpoint_id=endpoint_id,
        endpoint_group_id=endpoint_group_id,
        read_timeout=30.0,
        callback=CallbackListenerSettings(enabled=True, host="127.0.0.1", port=0),
    )


def without_default_templates(env: Environment) -> Environment:
    """``env`` keeping only the path templates that differ from the contract's."""
    kept: dict[str, dict[str, str]] = {}
    for command, forms in env.path_templates.items():
        defaults = COMMANDS[command].path_templates if command in COMMANDS else {}
        changed = {f: t for f, t in forms.items() if defaults.get(f) != t}
        if changed:
            kept[command] = changed
    return replace(env, path_templates=kept, base_url=env.base_url.rstrip("/"))
