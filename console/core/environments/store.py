"""The environment store: the file's environments plus the built-in local sandbox."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from console.core import paths as app_paths
from console.core.environments import storage
from console.core.environments.errors import (
    BuiltinEnvironmentError,
    ConfirmationRequiredError,
    InvalidEnvironmentError,
    UnknownEnvironmentError,
)
from console.core.environments.model import (
    LOCAL_SANDBOX_NAME,
    Environment,
    EnvKind,
    local_sandbox,
    without_default_templates,
)
from console.core.environments.rules import FieldProblem, problems

if TYPE_CHECKING:  # the keyring is imported only when secrets are needed
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

    from console.core.vault import Vault


class EnvironmentStore:
    """Environments in ``paths.environments_file`` (readable JSON, never a secret in it).

    Every call re-reads the file, so the window and the command line see each other's
    changes. Every change is made under the file's lock, on the file as it is then, and
    written atomically (:mod:`console.core.environments.storage`). An environment that breaks
    a rule (the file was edited by hand) is still listed; it cannot be used to send
    (:func:`console.core.environments.connect` says which field and how to fix it).

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

    @property
    def local_key(self) -> RSAPrivateKey | None:
        """The running local sandbox's demo key (memory only), or None when it is not running."""
        return self._local_key

    # -- reading --------------------------------------------------------------------------

    def _load(self) -> storage.Contents:
        return storage.read(self.path)

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
        storage.write(self.path, active, envs)

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
        with storage.locked(self.path):
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
        with storage.locked(self.path):
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
        with storage.locked(self.path):
            active, envs = self._load()
            if not any(e.name == name for e in envs):
                raise UnknownEnvironmentError(f"No stored environment is called {name!r}.")
            if self.vault is not None:
                self.vault.forget_environment(name)
            self._save(None if active == name else active, [e for e in envs if e.name != name])

    def set_active(self, name: str) -> Environment:
        """Remember ``name`` as the environment to open with."""
        with storage.locked(self.path):
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
