"""The active environment and its key, for the window.

On a first run (no environment configured, so the local sandbox is active) the built-in
sandbox is started in-process and its demo merchant and key are used; that key stays in
memory only. A configured environment takes its key from the vault (the OS keyring).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from console.core.environments import Environment, EnvKind, local_sandbox, prepare_kwargs

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

    from console.core.environments import EnvironmentStore


def default_placeholder(base_url: str) -> str:
    """The redirect placeholder used when the environment sets none (contract 4.2 rule 6)."""
    return base_url.rstrip("/") + "/redirect-placeholder" if base_url else ""


@dataclass(frozen=True, slots=True)
class LaunchedSandbox:
    """A running in-process sandbox and its demo merchant's key (memory only)."""

    handle: Any
    private_key: RSAPrivateKey


def launch_sandbox(**options: Any) -> LaunchedSandbox:
    """Start the sandbox with a fresh demo key. Qt-free, so it runs on a worker thread."""
    # boundary: key generation and the sandbox load on the worker, after the first paint
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    from console.sandbox import start_sandbox

    # Generated here and handed over as PEM, so the key object need not be parsed again.
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return LaunchedSandbox(start_sandbox(demo_private_key_pem=pem, **options), key)


class Session(QObject):
    """Holds the active environment and key; owns the in-process sandbox when it started one.

    Other panes (environment manager, key dialog) call :meth:`use` to switch; ``changed``
    tells every view.
    """

    changed = Signal()

    def __init__(self, store: EnvironmentStore | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.environment: Environment | None = None
        self.private_key: RSAPrivateKey | None = None
        self.problem = ""  # why the active environment cannot send, in plain words
        self.sandbox: Any = None

    @property
    def ready(self) -> bool:
        return self.environment is not None and self.private_key is not None

    @property
    def is_production(self) -> bool:
        return self.environment is not None and self.environment.kind is EnvKind.PRODUCTION

    @property
    def redirect_placeholder(self) -> str:
        env = self.environment
        if env is None:
            return ""
        return env.redirect_placeholder or default_placeholder(env.base_url)

    def use(
        self, environment: Environment, private_key: RSAPrivateKey | None, problem: str = ""
    ) -> None:
        """Make ``environment`` (and its key, kept in memory) the active one."""
        self.environment = environment
        self.private_key = private_key
        self.problem = problem if private_key is None else ""
        self.changed.emit()

    def prepare_kwargs(self, command: str) -> dict[str, Any]:
        """Connection keyword arguments for ``console.core.client.prepare``."""
        env = self.environment
        if env is None or self.private_key is None:
            raise RuntimeError(self.problem or "No environment with a key is active.")
        return prepare_kwargs(env, self.private_key, command)

    def start_local_sandbox(self, **options: Any) -> Environment:
        """Start the built-in sandbox now (blocking) and use it; see :func:`launch_sandbox`."""
        return self.adopt_sandbox(launch_sandbox(**options))

    def adopt_sandbox(self, launched: LaunchedSandbox) -> Environment:
        """Use a sandbox started by :func:`launch_sandbox` (on a worker) as the environment."""
        self.stop_sandbox()
        self.sandbox = launched.handle
        demo = launched.handle.demo
        args = (
            str(launched.handle.base_url),
            str(demo.login),
            str(demo.endpoint_id),
            str(demo.endpoint_group_id or ""),
        )
        env = (
            self.store.attach_local_sandbox(*args, private_key=launched.private_key)
            if self.store is not None
            else local_sandbox(*args)
        )
        self.use(env, launched.private_key)
        return env

    def transport(self) -> Any:
        """A fresh transport with the active environment's timeouts and CA bundle."""
        from console.core.transport import Timeouts, Transport  # boundary: HTTP, first use

        env = self.environment
        if env is None:
            raise RuntimeError("No environment is active.")
        return Transport(
            timeouts=Timeouts(connect=env.connect_timeout, read=env.read_timeout),
            verify=env.verify,
        )

    def stop_sandbox(self) -> None:
        """Stop the in-process sandbox, if this session started one."""
        if self.sandbox is not None:
            self.sandbox.stop()
            self.sandbox = None
