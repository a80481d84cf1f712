"""Merchants the sandbox knows: a login, its public key and its endpoints.

The merchant hands the public key to the gateway (field notes), so registration takes a
public key PEM (``BEGIN PUBLIC KEY``, ``BEGIN RSA PUBLIC KEY`` or a certificate). Like
deployed gateways the sandbox wants RSA keys of 2048 to 4096 bits.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.keys import fingerprint
from console.sandbox.records import Endpoint, Merchant
from console.sandbox.state import Database

MIN_BITS, MAX_BITS = 2048, 4096
_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def load_public_key(pem: str | bytes) -> rsa.RSAPublicKey:
    """Read an RSA public key from PEM text.

    Raises:
        ValueError: not a public key PEM, not RSA, or a size outside 2048-4096 bits.
    """
    key: object
    data = pem.encode("ascii", "replace") if isinstance(pem, str) else pem
    try:
        if b"BEGIN CERTIFICATE" in data:
            key = x509.load_pem_x509_certificate(data).public_key()
        elif b"PRIVATE KEY" in data:
            raise ValueError(
                "This is a private key. Give the gateway only the public key "
                "(gateway-console keys can export it)."
            )
        else:
            key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as exc:
        if "private key" in str(exc):
            raise
        raise ValueError(
            "The public key cannot be read: give a PEM file that starts with "
            "-----BEGIN PUBLIC KEY----- (or BEGIN RSA PUBLIC KEY, or a certificate)."
        ) from exc
    if not isinstance(key, rsa.RSAPublicKey):
        raise ValueError("The public key is not an RSA key; the API signs with RSA-SHA256.")
    if not MIN_BITS <= key.key_size <= MAX_BITS:
        raise ValueError(
            f"The key has {key.key_size} bits; the gateway accepts RSA keys of "
            f"{MIN_BITS} to {MAX_BITS} bits."
        )
    return key


@dataclass(frozen=True, slots=True)
class MerchantInfo:
    """A registered merchant, for listings."""

    login: str
    fingerprint: str
    endpoints: tuple[str, ...]
    groups: tuple[str, ...]


class Merchants:
    """Logins, their keys (parsed once) and their endpoints, kept in the state."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._keys: dict[str, rsa.RSAPublicKey] = {}
        self._lock = threading.Lock()
        for merchant in db.select(Merchant):
            self._keys[merchant.login] = load_public_key(merchant.public_key_pem)

    def add(
        self,
        login: str,
        public_key_pem: str | bytes,
        endpoint_id: str,
        endpoint_group_id: str | None = None,
    ) -> MerchantInfo:
        """Register (or update) a merchant and its endpoint.

        Raises:
            ValueError: a bad login, id or key, or an endpoint that belongs to another login.
        """
        if not login or login != login.strip() or any(ch.isspace() for ch in login):
            raise ValueError("The login must not be empty or contain spaces.")
        for what, ident in (("endpoint id", endpoint_id), ("endpoint group id", endpoint_group_id)):
            if ident is not None and not _ID.fullmatch(ident):
                raise ValueError(
                    f"The {what} {ident!r} may hold only letters, digits, '.', '_' and '-'."
                )
        key = load_public_key(public_key_pem)
        pem = key.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode("ascii")
        with self.db.transaction():
            owner = self.db.get(Endpoint, endpoint_id)
            if owner is not None and owner.login != login:
                raise ValueError(f"Endpoint {endpoint_id} belongs to login {owner.login}.")
            if endpoint_group_id is not None:
                others = self.db.select(
                    Endpoint, "group_id = ? AND login != ?", (endpoint_group_id, login)
                )
                if others:
                    raise ValueError(
                        f"Endpoint group {endpoint_group_id} belongs to login {others[0].login}."
                    )
            if self.db.get(Merchant, login) is None:
                self.db.insert(Merchant(login, pem))
            else:
                self.db.update(Merchant(login, pem))
            endpoint = Endpoint(endpoint_id, login, endpoint_group_id)
            if owner is None:
                self.db.insert(endpoint)
            else:
                self.db.update(endpoint)
        with self._lock:
            self._keys[login] = key
        return self.info(login)

    def public_key(self, login: str) -> rsa.RSAPublicKey | None:
        """The key requests of ``login`` are verified with, or None for an unknown login."""
        with self._lock:
            return self._keys.get(login)

    def resolve(self, login: str, form: str, ident: str) -> str | None:
        """The endpoint a request addresses, if it belongs to ``login``.

        ``form`` is ``endpoint`` (``ident`` is the endpoint id) or ``group`` (the request goes
        to the login's first endpoint in that group).
        """
        if form == "endpoint":
            found = self.db.select(Endpoint, "endpoint_id = ? AND login = ?", (ident, login))
        else:
            found = self.db.select(Endpoint, "group_id = ? AND login = ?", (ident, login))
        return found[0].endpoint_id if found else None

    def ids(self, login: str) -> tuple[str, ...]:
        """The login's endpoint and group ids."""
        found = self.db.select(Endpoint, "login = ?", (login,))
        groups = sorted({e.group_id for e in found if e.group_id})
        return (*(e.endpoint_id for e in found), *groups)

    def info(self, login: str) -> MerchantInfo:
        endpoints = self.db.select(Endpoint, "login = ?", (login,))
        key = self.public_key(login)
        return MerchantInfo(
            login,
            fingerprint(key) if key is not None else "",
            tuple(e.endpoint_id for e in endpoints),
            tuple(sorted({e.group_id for e in endpoints if e.group_id})),
        )

    def all(self) -> list[MerchantInfo]:
        return [self.info(m.login) for m in self.db.select(Merchant)]
