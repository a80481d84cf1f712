"""The team's audit key: an Ed25519 key whose private half the database never holds.

Its private half belongs to whoever signs the audit trail (the team sender): kept in that
account's OS keyring (:class:`console.core.secret_store.KeyringStore`, never a plaintext
file) or in a key file encrypted with a passphrase and readable by its owner only. Its
public half is in the team database (``gateway.audit_key``, schema 7) and pinned by every
console (:mod:`console.core.team.audit.state`).

What is signed is a head of the audit chain (:func:`checkpoint_message`): the position and
hash of one entry, whose hash covers every entry before it.
"""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from console.core.errors import KeyMaterialError
from console.core.secret_store import SecretStore

KEYRING_ENTRY = "team audit key {database}"  # in the console's keyring service


class AuditKeyError(KeyMaterialError):
    """The audit key cannot be had or used; the message says why and what to do."""


def generate() -> Ed25519PrivateKey:
    """A new audit key."""
    return Ed25519PrivateKey.generate()


def public_text(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The public half as the database keeps it: its 32 raw bytes in base64."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.b64encode(raw).decode("ascii")


def fingerprint(public: str) -> str:
    """What a person compares: ``SHA256:`` and the base64 of the public half's SHA-256."""
    digest = hashlib.sha256(base64.b64decode(public)).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def checkpoint_message(key_fingerprint: str, seq: int, head_hash: str) -> bytes:
    """The bytes a checkpoint's signature covers: the key, the entry's position and hash."""
    return f"gateway-console audit checkpoint v1\n{key_fingerprint}\n{seq}\n{head_hash}\n".encode()


def sign(key: Ed25519PrivateKey, seq: int, head_hash: str) -> str:
    """The signature of the head ``seq``/``head_hash``, in base64."""
    message = checkpoint_message(fingerprint(public_text(key)), seq, head_hash)
    return base64.b64encode(key.sign(message)).decode("ascii")


class Verifier:
    """Checks checkpoints' signatures with the audit key ``public`` (base64).

    Raises:
        ValueError: ``public`` is not an Ed25519 public key.
    """

    def __init__(self, public: str) -> None:
        self.fingerprint = fingerprint(public)
        self._key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public, validate=True))

    def holds(self, seq: int, head_hash: str, signature: str) -> bool:
        """True when ``signature`` is the audit key's for that head."""
        try:
            self._key.verify(
                base64.b64decode(signature, validate=True),
                checkpoint_message(self.fingerprint, seq, head_hash),
            )
        except (InvalidSignature, ValueError):  # binascii.Error is a ValueError
            return False
        return True


def signature_holds(public: str, seq: int, head_hash: str, signature: str) -> bool:
    """True when ``signature`` is the audit key ``public``'s for that head."""
    try:
        return Verifier(public).holds(seq, head_hash, signature)
    except ValueError:
        return False


# -- where the private half is kept -------------------------------------------------------


def write_key_file(path: Path, key: Ed25519PrivateKey, passphrase: str) -> None:
    """Write the key encrypted with ``passphrase`` to a new file only its owner may read."""
    if not passphrase:
        raise AuditKeyError("The audit key file needs a passphrase: it is never written in clear.")
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(passphrase.encode("utf-8")),
    )
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags, 0o600)
    except FileExistsError as exc:
        raise AuditKeyError(f"{path} exists already: name a new file for the audit key.") from exc
    except OSError as exc:
        raise AuditKeyError(f"Cannot create {path}: {exc.strerror or exc}.") from exc
    with os.fdopen(fd, "wb") as out:
        out.write(pem)


def read_key_file(path: Path, passphrase: str | None) -> Ed25519PrivateKey:
    """The audit key of an encrypted key file written by :func:`write_key_file`."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        why = exc.strerror or exc
        raise AuditKeyError(f"Cannot read the audit key file {path}: {why}.") from exc
    if not passphrase:
        raise AuditKeyError(f"The audit key file {path} needs its passphrase.")
    return _loaded(data, passphrase.encode("utf-8"), str(path))


def store_in_keyring(store: SecretStore, database: str, key: Ed25519PrivateKey) -> None:
    """Keep the key in the OS keyring of this account, for the team database ``database``."""
    name = KEYRING_ENTRY.format(database=database)
    if store.get(name):
        raise AuditKeyError(f"The keyring holds an audit key for {database} already.")
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    store.set(name, pem.decode("ascii"))


def from_keyring(store: SecretStore, database: str) -> Ed25519PrivateKey:
    """The audit key this account's keyring keeps for ``database``."""
    pem = store.get(KEYRING_ENTRY.format(database=database))
    if not pem:
        raise AuditKeyError(
            f"This account's keyring holds no audit key for {database}: create one with "
            "`team audit-key create`, or name its file with --key-file."
        )
    return _loaded(pem.encode("ascii"), None, "the keyring's audit key")


def drop_from_keyring(store: SecretStore, database: str) -> None:
    """Remove the key :func:`store_in_keyring` kept (the database refused its public half)."""
    store.delete(KEYRING_ENTRY.format(database=database))


def _loaded(data: bytes, password: bytes | None, where: str) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(data, password)
    except (ValueError, TypeError) as exc:
        raise AuditKeyError(f"{where}: not an audit key, or a wrong passphrase ({exc}).") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise AuditKeyError(f"{where}: not an Ed25519 key, so not an audit key.")
    return key
