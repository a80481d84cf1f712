"""The key to verify with: a public key PEM, a certificate, a private key, or an environment's.

A private key is only used for its public half; it is read from the file given and kept in
memory, never written anywhere.
"""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.asymmetric.types import PublicKeyTypes

from console.core.keys import KeyProblem, load_private_key


def load_public_key(data: bytes | str, passphrase: bytes | str | None = None) -> RSAPublicKey:
    """The RSA public key in ``data``: public key PEM (SPKI or PKCS#1), certificate, or private
    key PEM (PKCS#1 or PKCS#8; ``passphrase`` when it is encrypted).

    Raises:
        KeyProblem: not one of those, or not RSA; the message says what was found.
    """
    raw = data.encode("ascii", "replace") if isinstance(data, str) else data
    if b"PRIVATE KEY-----" in raw:
        return load_private_key(raw, passphrase).private_key.public_key()
    key: PublicKeyTypes | object
    try:
        if b"-----BEGIN CERTIFICATE-----" in raw:
            from cryptography import x509  # certificates only: a third of verify's start-up

            key = x509.load_pem_x509_certificate(raw).public_key()
        elif b"PUBLIC KEY-----" in raw:
            key = serialization.load_pem_public_key(raw)
        else:
            raise KeyProblem(
                "damaged",
                "This is not a PEM public key, certificate or private key: give a file that "
                "starts with -----BEGIN PUBLIC KEY-----, -----BEGIN CERTIFICATE----- or "
                "-----BEGIN PRIVATE KEY-----.",
            )
    except ValueError as exc:
        if isinstance(exc, KeyProblem):
            raise
        raise KeyProblem("damaged", f"The key cannot be read: {exc}") from None
    if not isinstance(key, RSAPublicKey):
        raise KeyProblem(
            "not-rsa",
            f"The key is {type(key).__name__.removeprefix('_')}, not RSA: this API signs "
            "with RSA-SHA256 only.",
        )
    return key


def environment_public_key(name: str) -> tuple[RSAPublicKey, tuple[str, ...]]:
    """The public half of a saved environment's key, from the OS keyring, and the
    environment's endpoint and group ids (to name a path signed for another of them).

    Raises:
        console.core.errors.EnvironmentStoreError, console.core.secret_store.VaultError:
            unknown environment, no key, or no keyring.
    """
    # boundary: the environments file and the keyring, only for --env
    from console.core.environments import connect

    connection = connect(name)
    env = connection.environment
    ids = tuple(i for i in (env.endpoint_id, env.endpoint_group_id) if i)
    return connection.private_key.public_key(), ids
