"""From an environment to what signs and sends: its key, its address, checked every time.

The rules are checked here again, not only when an environment is added or edited: the file
can be edited by hand (a production address turned to ``http://`` would send card data in
clear text). A :class:`Connection` cannot be made for an environment that breaks a rule,
and :func:`prepare_kwargs` refuses one too, so nothing is sent to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from console.core.environments.errors import EnvironmentNotReadyError, UnusableEnvironmentError
from console.core.environments.model import Environment
from console.core.environments.rules import problems
from console.core.environments.store import EnvironmentStore

if TYPE_CHECKING:  # the keyring is imported only when a connection needs it
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

    from console.core.vault import Vault


def ensure_usable(env: Environment, where: str = "environments.json") -> None:
    """Refuse ``env`` for sending when it breaks a rule.

    Raises:
        UnusableEnvironmentError: names each field, its fix and where the file is.
    """
    found = problems(env)
    if found:
        raise UnusableEnvironmentError(env.name, found, where)


@dataclass(frozen=True, slots=True)
class Connection:
    """Everything needed to sign and send for one environment, secrets included (memory only).

    Raises:
        UnusableEnvironmentError: (when made) the environment breaks a rule.
    """

    environment: Environment
    private_key: RSAPrivateKey
    merchant_control: str | None = None

    def __post_init__(self) -> None:
        ensure_usable(self.environment)

    @property
    def timeouts(self) -> tuple[float, float]:
        """(connect, read) seconds."""
        return self.environment.connect_timeout, self.environment.read_timeout

    def prepare_kwargs(self, command: str) -> dict[str, Any]:
        """Keyword arguments for ``console.core.prepared.prepare`` for ``command``."""
        return prepare_kwargs(self.environment, self.private_key, command)


def prepare_kwargs(env: Environment, private_key: RSAPrivateKey, command: str) -> dict[str, Any]:
    """Keyword arguments for ``console.core.prepared.prepare``: ``env``'s address, login, ids and
    path templates for ``command``, signed with ``private_key``.

    Raises:
        UnusableEnvironmentError: ``env`` breaks a rule.
    """
    ensure_usable(env)
    return {
        "base_url": env.base_url,
        "login": env.login,
        "private_key": private_key,
        "endpoint_id": env.endpoint_id or None,
        "endpoint_group_id": env.endpoint_group_id or None,
        "path_templates": env.templates_for(command),
    }


def connect(
    name: str | None = None,
    *,
    store: EnvironmentStore | None = None,
    vault: Vault | None = None,
    private_key: RSAPrivateKey | None = None,
) -> Connection:
    """Turn an environment name (the active one when None) into a :class:`Connection`.

    Args:
        private_key: sign with this key (an explicit key file) instead of the one in the
            keyring; the keyring is then not opened at all, and there is no merchant
            control secret.

    Raises:
        UnknownEnvironmentError, EnvironmentNotReadyError, EnvironmentFileError,
        UnusableEnvironmentError (the stored settings break a rule), console.core.vault.NoKeyError,
        console.core.vault.KeyringUnavailableError (no vault given and no OS keyring).
    """
    store = store or EnvironmentStore()
    env = store.get(name) if name else store.active()
    if env.builtin:
        key = private_key or store.local_key
        if not env.base_url or key is None:
            raise EnvironmentNotReadyError(
                "The local sandbox runs inside the window. From the command line, start it "
                "with `gateway-console sandbox` and use the address, login and key it prints."
            )
        return Connection(env, key)
    ensure_usable(env, str(store.path))
    if private_key is not None:
        return Connection(env, private_key)
    if vault is None:
        from console.core.vault import Vault  # boundary: the keyring, only when no key was given

        vault = Vault()
    return Connection(env, vault.private_key(env.name), vault.merchant_control(env.name))
