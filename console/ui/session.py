"""The active environment and its key, for the window.

On a first run (no environment configured) the built-in local sandbox is started in-process
and its demo merchant and key are used; the key stays in memory only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey
from PySide6.QtCore import QObject, Signal

LOCAL_SANDBOX = "local-sandbox"
SANDBOX = "sandbox"
PRODUCTION = "production"


@dataclass(frozen=True, slots=True)
class Connection:
    """What the window needs to know about the active environment."""

    name: str
    kind: str  # LOCAL_SANDBOX, SANDBOX or PRODUCTION
    base_url: str
    login: str
    endpoint_id: str | None = None
    endpoint_group_id: str | None = None
    path_templates: Mapping[str, str] | None = None
    redirect_placeholder: str = ""
    connect_timeout: float = 10.0
    read_timeout: float = 60.0
    ca_bundle: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_production(self) -> bool:
        return self.kind == PRODUCTION

    @classmethod
    def from_environment(cls, env: Any) -> Connection:
        """Adapt a ``console.core.environments.Environment`` (read by attribute)."""
        kind = getattr(env, "kind", SANDBOX)
        return cls(
            name=str(env.name),
            kind=str(getattr(kind, "value", kind)),
            base_url=str(env.base_url),
            login=str(env.login),
            endpoint_id=getattr(env, "endpoint_id", None) or None,
            endpoint_group_id=getattr(env, "endpoint_group_id", None) or None,
            path_templates=getattr(env, "path_templates", None) or None,
            redirect_placeholder=getattr(env, "redirect_placeholder", None) or "",
            connect_timeout=float(getattr(env, "connect_timeout", 10.0) or 10.0),
            read_timeout=float(getattr(env, "read_timeout", 60.0) or 60.0),
            ca_bundle=getattr(env, "ca_bundle", None) or None,
        )


def default_placeholder(base_url: str) -> str:
    """The redirect placeholder used when the environment sets none (contract 4.2 rule 6)."""
    return base_url.rstrip("/") + "/redirect-placeholder"


class Session(QObject):
    """Holds the active connection and key; owns the in-process sandbox when it started one."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.connection: Connection | None = None
        self.private_key: RSAPrivateKey | None = None
        self.sandbox: Any = None

    @property
    def ready(self) -> bool:
        return self.connection is not None and self.private_key is not None

    def use(self, connection: Connection, private_key: RSAPrivateKey | None) -> None:
        """Make ``connection`` (and its key, kept in memory) the active environment."""
        self.connection = connection
        self.private_key = private_key
        self.changed.emit()

    def start_local_sandbox(self, **options: Any) -> Connection:
        """Start the built-in sandbox in this process and use its demo merchant and key."""
        from console.core.keys import load_private_key
        from console.sandbox import start_sandbox

        self.stop_sandbox()
        read_timeout = float(options.pop("read_timeout", 60.0))
        handle = start_sandbox(**options)
        self.sandbox = handle
        demo = handle.demo
        conn = Connection(
            name="Local sandbox",
            kind=LOCAL_SANDBOX,
            base_url=str(handle.base_url),
            login=str(demo.login),
            endpoint_id=str(demo.endpoint_id),
            endpoint_group_id=str(demo.endpoint_group_id) if demo.endpoint_group_id else None,
            redirect_placeholder=default_placeholder(str(handle.base_url)),
            read_timeout=read_timeout,
        )
        self.use(conn, load_private_key(demo.private_key_pem).private_key)
        return conn

    def transport(self) -> Any:
        """A fresh transport with the active environment's timeouts and CA bundle."""
        from console.core.transport import Timeouts, Transport

        conn = self.connection
        if conn is None:
            raise RuntimeError("No environment is active.")
        verify: bool | str = conn.ca_bundle or True
        return Transport(
            timeouts=Timeouts(connect=conn.connect_timeout, read=conn.read_timeout),
            verify=verify,
        )

    def stop_sandbox(self) -> None:
        """Stop the in-process sandbox, if this session started one."""
        if self.sandbox is not None:
            self.sandbox.stop()
            self.sandbox = None
