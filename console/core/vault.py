"""Private keys and merchant control secrets, per environment, in the OS keyring only.

Layout. Windows Credential Manager keeps at most 2560 bytes of UTF-16 per entry (about 1280
characters) and a 2048-bit PKCS#8 PEM alone is about 1700, so every secret is split across
numbered entries of at most :data:`CHUNK_CHARS` characters, with a small manifest entry
naming the parts, their count and a SHA-256 digest::

    service "gateway-console", user "<env>:private-key"          -> manifest (JSON)
    service "gateway-console", user "<env>:private-key:<gen>:<i>" -> part i of the PEM

Splitting was chosen over an encrypted key file with only its passphrase in the keyring:
the key then lives in one place the OS protects, deleting it leaves no file behind, a copy
of the profile folder (backups, sync tools, support bundles) never carries key material, and
the same code serves the in-memory :class:`SessionVault`. Parts are written under a fresh
generation before the manifest is switched to them, so an interrupted write leaves the old
key intact; the digest catches a mix of parts.

With no usable backend (the ``fail`` or ``null`` backends, or the plaintext ``keyrings.alt``
files) :class:`KeyringUnavailableError` says what to install; nothing ever falls back to a file.
The UI or CLI may then choose :class:`SessionVault` explicitly: the key lives in memory and
is gone when the process ends.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

from console.core import keys
from console.core.secret_store import (
    SERVICE,
    KeyringStore,
    KeyringUnavailableError,
    MemoryStore,
    SecretStore,
    VaultError,
    no_backend_message,
)

__all__ = [
    "CHUNK_CHARS",
    "KEY_SIZES",
    "SERVICE",
    "KeyExistsError",
    "KeyInfo",
    "KeyringUnavailableError",
    "NoKeyError",
    "SessionVault",
    "Vault",
    "VaultDamagedError",
    "VaultError",
    "no_backend_message",
]

CHUNK_CHARS = 1000  # 2000 bytes of UTF-16: under the 2560-byte Windows limit with room to spare
KEY_SIZES = (2048, 3072, 4096)
_PRIVATE_KEY = "private-key"
_CONTROL = "merchant-control"


class NoKeyError(VaultError):
    """The environment has no private key stored.

    Its text names the command line's way to add one; :attr:`plain` says the same without
    it, for a front with a way of its own (the window's Environment → Keys…).
    """

    def __init__(self, environment: str) -> None:
        self.environment = environment
        self.plain = f"Environment {environment!r} has no private key. Import one or generate one."
        super().__init__(
            f"{self.plain[:-1]} (gateway-console keys import FILE --env {environment!r})."
        )


class KeyExistsError(VaultError):
    """The environment already has a key and replacing it was not asked for."""


class VaultDamagedError(VaultError):
    """Stored parts are missing or do not match their manifest."""


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """What can be shown about a stored key without showing the key."""

    environment: str
    bits: int
    fingerprint: str
    public_pem: str
    stored_in: str
    warnings: tuple[str, ...] = ()


class Vault:
    """Secrets per environment: one private key and an optional merchant control secret.

    Args:
        store: where entries go; the OS keyring when omitted.

    Raises:
        KeyringUnavailableError: (with no store given) the OS has no usable keyring.
    """

    def __init__(self, store: SecretStore | None = None) -> None:
        self.store: SecretStore = store if store is not None else KeyringStore()

    @property
    def persistent(self) -> bool:
        """False when secrets are lost at the end of the session."""
        return self.store.persistent

    # -- split entries ------------------------------------------------------------------

    def _put(self, env: str, slot: str, value: str) -> None:
        head = f"{env}:{slot}"
        old = self._manifest(env, slot)
        gen = secrets.token_hex(4)
        parts = [value[i : i + CHUNK_CHARS] for i in range(0, len(value), CHUNK_CHARS)] or [""]
        written: list[str] = []
        try:
            for i, part in enumerate(parts):
                name = f"{head}:{gen}:{i}"
                self.store.set(name, part)
                written.append(name)
            digest = hashlib.sha256(value.encode()).hexdigest()
            manifest = {"v": 1, "gen": gen, "parts": len(parts), "sha256": digest}
            self.store.set(head, json.dumps(manifest))
        except VaultError:
            for name in written:
                self.store.delete(name)
            raise
        if old is not None:
            self._drop_parts(head, old)

    def _manifest(self, env: str, slot: str) -> dict[str, object] | None:
        text = self.store.get(f"{env}:{slot}")
        if text is None:
            return None
        try:
            manifest = json.loads(text)
            int(manifest["parts"]), str(manifest["gen"]), str(manifest["sha256"])
        except (ValueError, KeyError, TypeError) as exc:
            raise VaultDamagedError(
                f"The keyring entry {SERVICE} / {env}:{slot} is damaged; delete it and "
                "store the secret again."
            ) from exc
        return dict(manifest)

    def _get(self, env: str, slot: str) -> str | None:
        manifest = self._manifest(env, slot)
        if manifest is None:
            return None
        head = f"{env}:{slot}"
        parts = [self.store.get(f"{head}:{manifest['gen']}:{i}") for i in range(_n(manifest))]
        value = "".join(p or "" for p in parts)
        if None in parts or hashlib.sha256(value.encode()).hexdigest() != manifest["sha256"]:
            raise VaultDamagedError(
                f"Parts of the {slot.replace('-', ' ')} of environment {env!r} are missing "
                "from the keyring or do not match. Delete it and import or generate it again."
            )
        return value

    def _drop(self, env: str, slot: str) -> bool:
        head = f"{env}:{slot}"
        try:
            manifest = self._manifest(env, slot)
        except VaultDamagedError:
            manifest = {"gen": "", "parts": 0}
        if manifest is None:
            return False
        self.store.delete(head)
        self._drop_parts(head, manifest)
        if slot == _PRIVATE_KEY:  # nor kept in this console's memory
            keys.forget_loaded()
        return True

    def _drop_parts(self, head: str, manifest: dict[str, object]) -> None:
        for i in range(_n(manifest)):
            self.store.delete(f"{head}:{manifest['gen']}:{i}")

    # -- private keys -------------------------------------------------------------------

    def store_key(self, env: str, private_key: RSAPrivateKey, *, replace: bool = False) -> KeyInfo:
        """Keep ``private_key`` for ``env``.

        Raises:
            KeyExistsError: a key is already stored and ``replace`` is False.
        """
        self._check_free(env, replace)
        self._put(env, _PRIVATE_KEY, keys.private_key_pem(private_key).decode("ascii"))
        keys.forget_loaded()  # a key it replaced is not kept in this console's memory
        return self._info(env, private_key)

    def import_key(
        self,
        env: str,
        pem: bytes | str,
        passphrase: bytes | str | None = None,
        *,
        replace: bool = False,
    ) -> KeyInfo:
        """Import a PEM (PKCS#1, PKCS#8, encrypted or not). Raises keys.KeyProblem."""
        self._check_free(env, replace)
        loaded = keys.load_private_key(pem, passphrase)
        info = self.store_key(env, loaded.private_key, replace=True)
        return dataclasses.replace(info, warnings=tuple(loaded.warnings))

    def generate_key(self, env: str, bits: int = 2048, *, replace: bool = False) -> KeyInfo:
        """Generate and keep a new key of 2048, 3072 or 4096 bits."""
        if bits not in KEY_SIZES:
            raise ValueError(f"Key size {bits} is not offered: choose 2048, 3072 or 4096 bits.")
        self._check_free(env, replace)
        return self.store_key(env, keys.generate_private_key(bits), replace=True)

    def _check_free(self, env: str, replace: bool) -> None:
        if not replace and self.has_key(env):
            raise KeyExistsError(
                f"Environment {env!r} already has a private key. Replacing it loses the key "
                "the gateway knows; export its public key first if unsure, then replace."
            )

    def has_key(self, env: str) -> bool:
        return self._manifest(env, _PRIVATE_KEY) is not None

    def private_key(self, env: str) -> RSAPrivateKey:
        """The stored key. Raises NoKeyError, VaultDamagedError or KeyringUnavailableError."""
        pem = self._get(env, _PRIVATE_KEY)
        if pem is None:
            raise NoKeyError(env)
        return keys.load_private_key(pem).private_key

    def key_info(self, env: str) -> KeyInfo | None:
        """Size, fingerprint and public key of the stored key, or None."""
        if not self.has_key(env):
            return None
        return self._info(env, self.private_key(env))

    def public_key_pem(self, env: str) -> str:
        """The public key PEM to hand to the gateway."""
        return keys.public_key_pem(self.private_key(env))

    def delete_key(self, env: str) -> bool:
        """Forget the key; False when there was none."""
        return self._drop(env, _PRIVATE_KEY)

    def _info(self, env: str, key: RSAPrivateKey) -> KeyInfo:
        return KeyInfo(
            env, key.key_size, keys.fingerprint(key), keys.public_key_pem(key),
            self.store.description,
        )  # fmt: skip

    # -- merchant control secret --------------------------------------------------------

    def set_merchant_control(self, env: str, secret: str) -> None:
        """Keep the secret used to check callbacks' ``control`` value."""
        if not secret:
            raise ValueError("The merchant control secret is empty.")
        self._put(env, _CONTROL, secret)

    def merchant_control(self, env: str) -> str | None:
        return self._get(env, _CONTROL)

    def delete_merchant_control(self, env: str) -> bool:
        return self._drop(env, _CONTROL)

    # -- whole environments -------------------------------------------------------------

    def forget_environment(self, env: str) -> None:
        """Delete every secret of ``env`` (when the environment is removed)."""
        self._drop(env, _PRIVATE_KEY)
        self._drop(env, _CONTROL)

    def rename_environment(self, old: str, new: str) -> None:
        """Move the secrets of ``old`` to ``new`` (when the environment is renamed)."""
        for slot in (_PRIVATE_KEY, _CONTROL):
            value = self._get(old, slot)
            if value is not None:
                self._put(new, slot, value)
                self._drop(old, slot)


class SessionVault(Vault):
    """A vault in process memory, chosen explicitly when there is no OS keyring."""

    def __init__(self) -> None:
        super().__init__(MemoryStore())


def _n(manifest: dict[str, object]) -> int:
    parts = manifest.get("parts", 0)
    return parts if isinstance(parts, int) else 0
