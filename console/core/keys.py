"""RSA signing keys: load PEM files, generate keys, export the public half, fingerprint.

Contract section 5 asks for an RSA private key; deployed gateways want at least 2048 bits
and the sandbox signing tool accepts at most 4096 (contract sections 5 and 8, field notes).
Every way a key file can be unusable raises :class:`KeyProblem` with its own ``kind`` and a
message that says what was found and what to do.
"""

from __future__ import annotations

import base64
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

from console.core.errors import KeyMaterialError

MIN_BITS = 2048
SANDBOX_MAX_BITS = 4096
GENERATE_SIZES = (2048, 3072, 4096)

KEY_PROBLEM_KINDS = frozenset(
    {"wrong-passphrase", "passphrase-needed", "not-private-key", "not-rsa", "damaged", "too-small"}
)

# Keys loaded lately, by a digest of their text and passphrase (see load_private_key).
_LOADED_KEPT = 8
_LOADED: OrderedDict[bytes, LoadedKey] = OrderedDict()
_LOADED_LOCK = threading.Lock()

_PEM_BLOCK = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----.*?-----END \1-----", re.DOTALL)
_PRIVATE_LABELS = frozenset({b"RSA PRIVATE KEY", b"PRIVATE KEY", b"ENCRYPTED PRIVATE KEY"})
_OTHER_PRIVATE_LABELS = {
    b"EC PRIVATE KEY": "an EC (elliptic curve) key",
    b"DSA PRIVATE KEY": "a DSA key",
}
_NOT_PRIVATE_LABELS = {
    b"PUBLIC KEY": "a public key",
    b"RSA PUBLIC KEY": "a public key",
    b"CERTIFICATE": "a certificate",
    b"TRUSTED CERTIFICATE": "a certificate",
    b"X509 CRL": "a certificate revocation list",
    b"CERTIFICATE REQUEST": "a certificate request",
    b"NEW CERTIFICATE REQUEST": "a certificate request",
}


class KeyProblem(KeyMaterialError):  # noqa: N818 (name fixed by the shared interface)
    """A key that cannot be used for signing.

    Attributes:
        kind: One of ``wrong-passphrase``, ``passphrase-needed``, ``not-private-key``,
            ``not-rsa``, ``damaged``, ``too-small``.
        message: What was found and what to do, in plain words.
    """

    def __init__(self, kind: str, message: str) -> None:
        assert kind in KEY_PROBLEM_KINDS, kind
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, repr=False)
class LoadedKey:
    """A private key ready for signing, with what a person needs to know about it."""

    private_key: rsa.RSAPrivateKey
    bits: int
    fingerprint: str
    warnings: tuple[str, ...] = ()

    def __repr__(self) -> str:
        # Never let a repr of the key object reach a log; size and fingerprint identify it.
        return f"LoadedKey(bits={self.bits}, fingerprint={self.fingerprint!r})"


def load_private_key(pem: bytes | str, passphrase: bytes | str | None = None) -> LoadedKey:
    """Load an RSA private key from PEM text.

    Reads PKCS#1 (``BEGIN RSA PRIVATE KEY``, also the passphrase-protected OpenSSL form),
    PKCS#8 (``BEGIN PRIVATE KEY``) and encrypted PKCS#8 (``BEGIN ENCRYPTED PRIVATE KEY``).
    When the text holds several PEM blocks (say a certificate and its key), the first
    private key is used. An empty passphrase counts as none.

    A text loaded before with the same passphrase gives the same key again, without parsing
    and checking it a second time (the RSA check alone takes tens of milliseconds, and the
    window reads its key for every send); a text that fails is checked each time.

    Raises:
        KeyProblem: the text holds no usable RSA private key of at least 2048 bits.
    """
    data = pem.encode("utf-8", "replace") if isinstance(pem, str) else pem
    password = _passphrase_bytes(passphrase)
    # Only a digest of the text and passphrase is kept as the key to the loaded keys.
    digest = hashes.Hash(hashes.SHA256())
    digest.update(b"%d:%s%s" % (len(data), data, b"" if password is None else b"\0" + password))
    token = digest.finalize()
    with _LOADED_LOCK:
        loaded = _LOADED.get(token)
        if loaded is not None:
            _LOADED.move_to_end(token)
            return loaded
    loaded = _load(data, password)
    with _LOADED_LOCK:
        _LOADED[token] = loaded
        while len(_LOADED) > _LOADED_KEPT:
            _LOADED.popitem(last=False)
    return loaded


def forget_loaded() -> None:
    """Drop every key :func:`load_private_key` keeps (a key was deleted or replaced)."""
    with _LOADED_LOCK:
        _LOADED.clear()


def _load(data: bytes, password: bytes | None) -> LoadedKey:
    """Parse and check the key (:func:`load_private_key` without its memory)."""
    block = _private_block(data)
    encrypted = block.startswith(b"-----BEGIN ENCRYPTED") or b"Proc-Type: 4,ENCRYPTED" in block
    if encrypted and password is None:
        raise KeyProblem(
            "passphrase-needed",
            "This key file is protected by a passphrase. Enter the passphrase to unlock it.",
        )
    warnings: list[str] = []
    if password is not None and not encrypted:
        warnings.append(
            "The key file is not protected by a passphrase, so the passphrase was not used. "
            "Keep the file where only you can read it, or save it again with a passphrase."
        )
    try:
        key = serialization.load_pem_private_key(block, password if encrypted else None)
    except UnsupportedAlgorithm as exc:
        raise KeyProblem(
            "damaged",
            f"The key file uses a format or cipher this console cannot read ({exc}). "
            "Convert it to PKCS#8, e.g. `openssl pkcs8 -topk8 -v2 aes-256-cbc -in OLD -out NEW`.",
        ) from None
    except (ValueError, TypeError):
        if encrypted:
            raise KeyProblem(
                "wrong-passphrase",
                "The passphrase does not unlock this key. Check it (letter case, keyboard "
                "layout) and try again; if it is surely right, the file is damaged.",
            ) from None
        raise KeyProblem(
            "damaged",
            "The key file is damaged: its PEM block cannot be decoded. Copy the whole file "
            "again, from -----BEGIN to -----END, without changes.",
        ) from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise KeyProblem("not-rsa", _not_rsa_message(_key_type_words(key)))
    bits = key.key_size
    if bits < MIN_BITS:
        raise KeyProblem(
            "too-small",
            f"This RSA key has {bits} bits; the gateway needs at least {MIN_BITS}. "
            "Generate a new 2048- or 4096-bit key and give its public key to the gateway.",
        )
    warnings.extend(size_warnings(bits))
    return LoadedKey(key, bits, fingerprint(key), tuple(warnings))


def size_warnings(bits: int) -> list[str]:
    """Warnings about a usable key size (the sandbox signing tool's 4096-bit limit)."""
    if bits > SANDBOX_MAX_BITS:
        return [
            f"This key has {bits} bits; the gateway's sandbox signing tool accepts keys of at "
            f"most {SANDBOX_MAX_BITS} bits (contract section 5). Use a 2048-4096-bit key "
            "if the gateway rejects it."
        ]
    return []


def generate_private_key(bits: int = 2048) -> rsa.RSAPrivateKey:
    """Generate a new RSA key of 2048, 3072 or 4096 bits (public exponent 65537).

    Raises:
        ValueError: any other size.
    """
    if bits not in GENERATE_SIZES:
        raise ValueError(f"Key size must be 2048, 3072 or 4096 bits, not {bits}.")
    return rsa.generate_private_key(public_exponent=65537, key_size=bits)


def private_key_pem(key: rsa.RSAPrivateKey, passphrase: bytes | str | None = None) -> bytes:
    """Export the private key as PKCS#8 PEM, encrypted with the passphrase when one is given.

    Raises:
        ValueError: the passphrase is empty (an empty one would silently write the key in
            the clear).
    """
    if passphrase is None:
        encryption: serialization.KeySerializationEncryption = serialization.NoEncryption()
    else:
        password = _passphrase_bytes(passphrase)
        if password is None:
            raise ValueError("The passphrase is empty: give one, or None for no encryption.")
        encryption = serialization.BestAvailableEncryption(password)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption
    )


def public_key_pem(key: rsa.RSAPrivateKey | rsa.RSAPublicKey) -> str:
    """Return the public key as SubjectPublicKeyInfo PEM (``BEGIN PUBLIC KEY``).

    This is what the merchant hands to the gateway.
    """
    return (
        _public(key)
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode("ascii")
    )


def fingerprint(key: rsa.RSAPrivateKey | rsa.RSAPublicKey) -> str:
    """Return base64 of SHA-256 of the public key's SubjectPublicKeyInfo DER.

    Private and public halves of one key give the same fingerprint.
    """
    der = _public(key).public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    # cryptography's SHA-256 (loaded for signing anyway), not hashlib: a command that signs
    # would otherwise load a second OpenSSL binding for this one digest
    digest = hashes.Hash(hashes.SHA256())
    digest.update(der)
    return base64.b64encode(digest.finalize()).decode("ascii")


def _public(key: rsa.RSAPrivateKey | rsa.RSAPublicKey) -> rsa.RSAPublicKey:
    return key.public_key() if isinstance(key, rsa.RSAPrivateKey) else key


def _passphrase_bytes(passphrase: bytes | str | None) -> bytes | None:
    if passphrase is None or passphrase in ("", b""):
        return None
    return passphrase.encode("utf-8") if isinstance(passphrase, str) else passphrase


def _private_block(data: bytes) -> bytes:
    """Return the first private key PEM block, or explain what the text holds instead."""
    blocks = [(m.group(1), m.group(0)) for m in _PEM_BLOCK.finditer(data)]
    for label, block in blocks:
        if label in _PRIVATE_LABELS:
            return block
    for label, _ in blocks:
        if label in _OTHER_PRIVATE_LABELS:
            raise KeyProblem("not-rsa", _not_rsa_message(_OTHER_PRIVATE_LABELS[label]))
    for label, _ in blocks:
        if label in _NOT_PRIVATE_LABELS:
            raise KeyProblem(
                "not-private-key",
                f"This file holds {_NOT_PRIVATE_LABELS[label]}, not a private key. Signing "
                "needs the private key (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE "
                "KEY-----); the public key is the part you give the gateway.",
            )
    stripped = data.lstrip()
    if stripped.startswith((b"ssh-rsa ", b"ssh-ed25519 ", b"ecdsa-sha2-")):
        raise KeyProblem(
            "not-private-key",
            "This is an OpenSSH public key, not a private key. Load the private key file.",
        )
    if blocks and blocks[0][0] == b"OPENSSH PRIVATE KEY":
        raise KeyProblem(
            "damaged",
            "This is an OpenSSH-format private key, which the console does not read. "
            "Convert a copy to PKCS#8 PEM with `ssh-keygen -p -m PKCS8 -f COPY`.",
        )
    if blocks:
        raise KeyProblem(
            "damaged",
            f"The file holds a PEM block of type {blocks[0][0].decode('ascii')!r}, not a private "
            "key. Load the RSA private key file.",
        )
    if b"-----BEGIN" in data:
        raise KeyProblem(
            "damaged",
            "The key file is damaged or cut short: its -----BEGIN line has no matching "
            "-----END line. Copy the whole file again.",
        )
    raise KeyProblem(
        "damaged",
        "This is not a PEM key file: no -----BEGIN line was found. Choose the private key "
        "file (it starts with -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----).",
    )


def _key_type_words(key: PrivateKeyTypes) -> str:
    name = type(key).__name__.removeprefix("_")
    for prefix, words in (
        ("EllipticCurve", "an EC (elliptic curve) key"),
        ("EC", "an EC (elliptic curve) key"),
        ("Ed25519", "an Ed25519 key"),
        ("Ed448", "an Ed448 key"),
        ("X25519", "an X25519 key"),
        ("X448", "an X448 key"),
        ("DSA", "a DSA key"),
        ("DH", "a Diffie-Hellman key"),
    ):
        if name.startswith(prefix):
            return words
    return f"a {name} key"


def _not_rsa_message(what: str) -> str:
    return (
        f"This is {what}, not an RSA key. The gateway signs with RSA-SHA256 and needs an RSA "
        "private key of 2048-4096 bits: generate one and give its public key to the gateway."
    )
