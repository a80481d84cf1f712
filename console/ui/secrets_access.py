"""Where the window finds environments and their secrets: the store and the vault.

The vault is the OS keyring. When there is none, nothing falls back silently: the key
dialog shows the core's plain message (what to install) and offers an explicit choice to
keep keys in memory for this session only; only that choice makes :meth:`vault` return a
:class:`~console.core.vault.SessionVault`.

Opening the vault and everything done with it may wait on the OS keyring (a D-Bus Secret
Service, a locked keychain asking for a password): :meth:`vault`, :meth:`store` and
:meth:`connection` belong on a worker. :meth:`environments_file` never touches the keyring and
is what the GUI thread lists and chooses environments with.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from console.core.environments import (
    Connection,
    Environment,
    EnvironmentNotReadyError,
    EnvironmentStore,
)

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

    from console.core.paths import AppPaths
    from console.core.team.storage.journal import TeamJournal
    from console.core.vault import Vault


class SecretsAccess:
    """The environment store and the vault, opened on first use and shared by the dialogs.

    Args:
        paths: the profile (tests point it at a temporary folder).
    """

    def __init__(self, paths: AppPaths) -> None:
        self.paths = paths
        self._vault: Vault | None = None
        self._store: EnvironmentStore | None = None
        self.local_environment: Environment | None = None
        self.local_key: RSAPrivateKey | None = None
        # The local sandbox signs its callbacks with this; it lives as long as the window.
        # (os.urandom is what the secrets module draws on, without its imports at start-up.)
        self.local_control = os.urandom(16).hex()
        self._lock = threading.Lock()  # workers open the vault and the store; held briefly
        # The team's journal once open (team mode): where a team sender serves an
        # environment, it holds the key, and this profile needs none.
        self.team_journal: TeamJournal | None = None

    @property
    def session_only(self) -> bool:
        """True once keys are kept in memory for this session only."""
        return self._vault is not None and not self._vault.persistent

    def vault(self) -> Vault:
        """The OS keyring vault (a worker's call: it may wait on the keyring).

        Raises:
            KeyringUnavailableError: with what to install.
        """
        if self._vault is not None:
            return self._vault
        from console.core.vault import Vault  # boundary: the keyring loads on a worker

        opened = Vault()  # outside the lock: it may wait on the keyring
        with self._lock:
            if self._vault is None:
                self._vault = opened
            return self._vault

    def keep_in_memory(self) -> Vault:
        """The person chose: keys in memory, forgotten when the console closes."""
        from console.core.vault import SessionVault  # boundary: the keyring module

        with self._lock:
            if not self.session_only:
                self._vault = SessionVault()
            assert self._vault is not None
            return self._vault

    def environments_file(self) -> EnvironmentStore:
        """The environments file, to list and choose environments: the keyring is not opened.

        Adding, editing, renaming and removing go through :meth:`store` instead.
        """
        with self._lock:
            if self._store is None:
                self._store = EnvironmentStore(self.paths)
            return self._store

    def store(self) -> EnvironmentStore:
        """The environments file with the vault attached, so renames and removals move the
        secrets too (a worker's call: opening the vault may wait on the keyring)."""
        store = self.environments_file()
        if store.vault is None:
            try:
                store.vault = self.vault()
            except Exception:  # no keyring: the store still works, secrets are not moved
                store.vault = None
        return store

    def remember_local(self, env: Environment, key: RSAPrivateKey | None) -> None:
        """The running local sandbox and its demo key (memory only)."""
        self.local_environment = env
        if key is not None:
            self.local_key = key

    def connection(self, name: str) -> Connection:
        """Environment, key and merchant control secret for ``name``.

        Raises:
            EnvironmentStoreError / VaultError subclasses with plain messages.
        """
        local = self.local_environment
        if local is not None and name == local.name:
            if self.local_key is None:
                raise EnvironmentNotReadyError("The local sandbox is not running yet.")
            return Connection(local, self.local_key, self.local_control)
        env = self.store().get(name)
        if env.builtin:
            raise EnvironmentNotReadyError("The local sandbox is not running yet.")
        if self.team_journal is not None:
            # boundary: team mode only (psycopg)
            from console.core.team.approvals.via_sender import placeholder_key, serving

            if serving(self.team_journal, name) is not None:  # the sender signs, not us
                return Connection(env, placeholder_key())
        vault = self.vault()
        return Connection(env, vault.private_key(name), vault.merchant_control(name))
