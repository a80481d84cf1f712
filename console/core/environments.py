"""Named environments: the store, the rules and the connection built from one.

This is the public surface: the model (:mod:`console.core.env_model`) and the rules
(:mod:`console.core.env_rules`) are re-exported here. The file is readable JSON under the
config directory (``paths.environments_file``) with a ``schema`` version; it never holds a
secret (keys and control secrets are in the OS keyring, see :mod:`console.core.vault`).

Errors (all :class:`EnvironmentStoreError`): :class:`InvalidEnvironmentError` (``problems``
name each field), :class:`ConfirmationRequiredError` (a production address changes: ask,
then pass ``confirm=True``), :class:`UnknownEnvironmentError`, :class:`BuiltinEnvironmentError`
(the local sandbox cannot be edited), :class:`EnvironmentFileError` (damaged or newer file,
left untouched), :class:`EnvironmentNotReadyError` (local sandbox not running here).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

from console.core import paths as app_paths
from console.core.env_errors import (
    BuiltinEnvironmentError,
    ConfirmationRequiredError,
    EnvironmentFileError,
    EnvironmentNotReadyError,
    InvalidEnvironmentError,
    UnknownEnvironmentError,
)
from console.core.env_model import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_READ_TIMEOUT,
    LOCAL_SANDBOX_NAME,
    CallbackListenerSettings,
    Environment,
    EnvKind,
    local_sandbox,
    without_default_templates,
)
from console.core.env_rules import FieldProblem, is_loopback_host, problems
from console.core.errors import EnvironmentStoreError
from console.core.vault import Vault

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_READ_TIMEOUT",
    "LOCAL_SANDBOX_NAME",
    "SCHEMA_VERSION",
    "BuiltinEnvironmentError",
    "CallbackListenerSettings",
    "ConfirmationRequiredError",
    "Connection",
    "EnvKind",
    "Environment",
    "EnvironmentFileError",
    "EnvironmentNotReadyError",
    "EnvironmentStore",
    "EnvironmentStoreError",
    "FieldProblem",
    "InvalidEnvironmentError",
    "UnknownEnvironmentError",
    "connect",
    "is_loopback_host",
    "local_sandbox",
    "problems",
]

SCHEMA_VERSION = 1


class EnvironmentStore:
    """Environments in ``paths.environments_file`` (readable JSON, never a secret in it).

    Every call re-reads the file, so the window and the command line see each other's
    changes; every change is written atomically (temporary file, fsync, rename).

    Args:
        paths: where the file lives; decided at start-up (``paths.resolve()`` by default).
        vault: when given, renaming or removing an environment moves or deletes its secrets.
    """

    def __init__(self, paths: app_paths.AppPaths | None = None, vault: Vault | None = None):
        self.paths = paths or app_paths.resolve()
        self.vault = vault
        self._local = local_sandbox()
        self._local_key: RSAPrivateKey | None = None

    @property
    def path(self) -> Path:
        return self.paths.environments_file

    # -- reading --------------------------------------------------------------------------

    def _load(self) -> tuple[str | None, list[Environment]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None, []
        except OSError as exc:
            raise EnvironmentFileError(f"Cannot read {self.path}: {exc.strerror}.") from exc
        try:
            data = json.loads(text)
            schema = int(data.get("schema", 0))
            if schema > SCHEMA_VERSION:
                raise EnvironmentFileError(
                    f"{self.path} was written by a newer Gateway Console (schema {schema}); "
                    "update the console. The file was left as it is."
                )
            envs = [Environment.from_json(e) for e in data.get("environments", [])]
            active = data.get("active")
        except EnvironmentFileError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise EnvironmentFileError(
                f"{self.path} is damaged ({exc}). Fix it in a text editor or move it away; "
                "nothing was changed."
            ) from exc
        return (str(active) if active else None), envs

    def environments(self) -> list[Environment]:
        """The local sandbox first, then the stored environments by name."""
        return [self._local, *sorted(self._load()[1], key=lambda e: e.name.lower())]

    def names(self) -> list[str]:
        return [e.name for e in self.environments()]

    def get(self, name: str) -> Environment:
        """The environment called ``name``. Raises UnknownEnvironmentError."""
        for env in self.environments():
            if env.name == name:
                return env
        raise UnknownEnvironmentError(
            f"No environment is called {name!r}. Known: {', '.join(self.names())}."
        )

    def active(self) -> Environment:
        """The environment chosen last; the local sandbox when none (or it was removed)."""
        name = self._load()[0]
        envs = {e.name: e for e in self.environments()}
        return envs.get(name or "", self._local)

    # -- changing -------------------------------------------------------------------------

    def _save(self, active: str | None, envs: list[Environment]) -> None:
        data = {
            "schema": SCHEMA_VERSION,
            "note": "No secrets here: keys and control secrets are kept in the OS keyring.",
            "active": active,
            "environments": [e.to_json() for e in sorted(envs, key=lambda e: e.name.lower())],
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".environments-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2)
                fh.write("\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _checked(self, env: Environment) -> Environment:
        if env.builtin:
            raise BuiltinEnvironmentError(
                "The local sandbox is built in: its address is set when it starts. "
                "Add a sandbox environment for a sandbox you run yourself."
            )
        found = problems(env)
        if found:
            raise InvalidEnvironmentError(found)
        return without_default_templates(env)

    def add(self, env: Environment) -> Environment:
        """Store a new environment. Raises InvalidEnvironmentError or BuiltinEnvironmentError."""
        env = self._checked(env)
        active, envs = self._load()
        if any(e.name == env.name for e in envs):
            raise InvalidEnvironmentError(
                [FieldProblem("name", f"{env.name!r} exists already; choose another name.")]
            )
        self._save(active, [*envs, env])
        return env

    def update(self, name: str, env: Environment, *, confirm: bool = False) -> Environment:
        """Replace environment ``name`` with ``env`` (a different ``env.name`` renames it).

        Raises:
            ConfirmationRequiredError: ``env`` is production and its base URL (or kind) changes,
                and ``confirm`` is False.
        """
        if name == LOCAL_SANDBOX_NAME:
            self._checked(self._local)  # raises BuiltinEnvironmentError
        env = self._checked(env)
        active, envs = self._load()
        old = next((e for e in envs if e.name == name), None)
        if old is None:
            raise UnknownEnvironmentError(f"No stored environment is called {name!r}.")
        if env.name != name and any(e.name == env.name for e in envs):
            raise InvalidEnvironmentError(
                [FieldProblem("name", f"{env.name!r} exists already; choose another name.")]
            )
        moved = env.kind is EnvKind.PRODUCTION and (
            old.kind is not EnvKind.PRODUCTION or old.base_url != env.base_url
        )
        if moved and not confirm:
            raise ConfirmationRequiredError(
                env.name,
                old.base_url,
                env.base_url,
                becomes_production=old.kind is not EnvKind.PRODUCTION,
            )
        if env.name != name and self.vault is not None:
            self.vault.rename_environment(name, env.name)
        self._save(
            env.name if active == name else active, [env if e.name == name else e for e in envs]
        )
        return env

    def remove(self, name: str) -> None:
        """Forget an environment (and its secrets, when the store has a vault)."""
        if name == LOCAL_SANDBOX_NAME:
            self._checked(self._local)
        active, envs = self._load()
        if not any(e.name == name for e in envs):
            raise UnknownEnvironmentError(f"No stored environment is called {name!r}.")
        if self.vault is not None:
            self.vault.forget_environment(name)
        self._save(None if active == name else active, [e for e in envs if e.name != name])

    def set_active(self, name: str) -> Environment:
        """Remember ``name`` as the environment to open with."""
        env = self.get(name)
        _, envs = self._load()
        self._save(name, envs)
        return env

    def attach_local_sandbox(
        self,
        base_url: str,
        login: str,
        endpoint_id: str,
        endpoint_group_id: str = "",
        private_key: RSAPrivateKey | None = None,
    ) -> Environment:
        """Fill in the running local sandbox (in memory only, for this process)."""
        self._local = local_sandbox(base_url, login, endpoint_id, endpoint_group_id)
        self._local_key = private_key
        return self._local


@dataclass(frozen=True, slots=True)
class Connection:
    """Everything needed to sign and send for one environment, secrets included (memory only)."""

    environment: Environment
    private_key: RSAPrivateKey
    merchant_control: str | None = None

    @property
    def timeouts(self) -> tuple[float, float]:
        """(connect, read) seconds."""
        return self.environment.connect_timeout, self.environment.read_timeout

    def prepare_kwargs(self, command: str) -> dict[str, Any]:
        """Keyword arguments for ``console.core.client.prepare`` for ``command``."""
        return prepare_kwargs(self.environment, self.private_key, command)


def prepare_kwargs(env: Environment, private_key: RSAPrivateKey, command: str) -> dict[str, Any]:
    """Keyword arguments for ``console.core.client.prepare``: ``env``'s address, login, ids and
    path templates for ``command``, signed with ``private_key``."""
    return {
        "base_url": env.base_url,
        "login": env.login,
        "private_key": private_key,
        "endpoint_id": env.endpoint_id or None,
        "endpoint_group_id": env.endpoint_group_id or None,
        "path_templates": env.templates_for(command),
    }


def connect(
    name: str | None = None, *, store: EnvironmentStore | None = None, vault: Vault | None = None
) -> Connection:
    """Turn an environment name (the active one when None) into a :class:`Connection`.

    Raises:
        UnknownEnvironmentError, EnvironmentNotReadyError, console.core.vault.NoKeyError,
        console.core.vault.KeyringUnavailableError (no vault given and no OS keyring).
    """
    store = store or EnvironmentStore()
    env = store.get(name) if name else store.active()
    if env.builtin:
        if not env.base_url or store._local_key is None:
            raise EnvironmentNotReadyError(
                "The local sandbox runs inside the window. From the command line, start it "
                "with `gateway-console sandbox` and use the address, login and key it prints."
            )
        return Connection(env, store._local_key)
    vault = vault or Vault()
    return Connection(env, vault.private_key(env.name), vault.merchant_control(env.name))
