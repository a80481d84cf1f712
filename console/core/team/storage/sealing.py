"""Card data sealed to the team sender: the database holds it, and cannot read it.

Hybrid encryption with ``cryptography``: a fresh AES-256-GCM key per submission encrypts the
fields; RSA-OAEP (SHA-256) wraps that key with the sender's public key, whose private half
only the sender holds (its account's keyring, or a key file only it can read). The request
hash the submission is bound to is the associated data, so a ciphertext moved to another
submission does not open. The database erases the ciphertext once the submission is sent or
refused (:mod:`console.core.team.storage.schema_v8`).

Layout: ``b"GCS1"``, the wrapped key's length (2 bytes), the wrapped key, a 12-byte nonce,
the AES-GCM ciphertext with its tag.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from console.core.keys import KeyProblem, fingerprint, load_private_key
from console.core.team.errors import TeamSetupError

_MAGIC = b"GCS1"
_OAEP = padding.OAEP(
    mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None
)
SEAL_KEY_SLOT = "team sender (card data)"  # the vault slot of the sender's sealing key


class SealError(TeamSetupError):
    """Sealed card data that does not open here (another key, or changed)."""


def seal(public_pem: str, params: tuple[tuple[str, str], ...], digest: str) -> bytes:
    """``params`` encrypted to the sender's public key, bound to the request hash."""
    public = serialization.load_pem_public_key(public_pem.encode())
    if not isinstance(public, rsa.RSAPublicKey):
        raise SealError("The team sender's public key is not an RSA key: nothing was submitted.")
    data_key = AESGCM.generate_key(bit_length=256)
    nonce = os.urandom(12)
    wrapped = public.encrypt(data_key, _OAEP)
    plain = json.dumps([list(p) for p in params], ensure_ascii=False).encode()
    body = AESGCM(data_key).encrypt(nonce, plain, digest.encode())
    return _MAGIC + len(wrapped).to_bytes(2, "big") + wrapped + nonce + body


def open_sealed(key: rsa.RSAPrivateKey, blob: bytes, digest: str) -> tuple[tuple[str, str], ...]:
    """The fields sealed in ``blob`` for the request hashed as ``digest``.

    Raises:
        SealError: not sealed to this key, or not for this request, or damaged.
    """
    try:
        if blob[:4] != _MAGIC:
            raise ValueError("not sealed card data")
        size = int.from_bytes(blob[4:6], "big")
        wrapped, rest = blob[6 : 6 + size], blob[6 + size :]
        data_key = key.decrypt(wrapped, _OAEP)
        plain = AESGCM(data_key).decrypt(rest[:12], rest[12:], digest.encode())
        return tuple((str(n), str(v)) for n, v in json.loads(plain))
    except (ValueError, InvalidTag, TypeError) as exc:
        raise SealError(
            "The sealed card data does not open with this sender's key (sealed to another "
            "key, or changed)."
        ) from exc


def public_half(key: rsa.RSAPrivateKey) -> tuple[str, str]:
    """The public PEM and fingerprint the sender publishes in the team database."""
    pem = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return pem, fingerprint(key)


def private_key_file(path: Path) -> rsa.RSAPrivateKey:
    """A private key from a file only this account may read (never group or others).

    Raises:
        TeamSetupError: unreadable, readable by others, or not an RSA private key.
    """
    try:
        mode = path.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise TeamSetupError(
                f"{path}: other accounts may read it (mode {stat.filemode(mode)}): the key that "
                f"moves money is read only from a file its owner alone can read (chmod 600 {path})."
            )
        return load_private_key(path.read_bytes()).private_key
    except OSError as exc:
        raise TeamSetupError(f"{path}: {exc.strerror}") from exc
    except KeyProblem as exc:
        raise TeamSetupError(f"{path}: {exc}") from exc
