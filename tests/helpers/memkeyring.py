"""An in-memory keyring backend for tests, optionally as small as Windows Credential Manager.

Windows keeps at most 2560 bytes per credential blob and ``keyring`` writes the secret as
UTF-16, so about 1280 characters fit. ``MemoryKeyring(limit=WINDOWS_LIMIT)`` refuses larger
values the way ``CredWrite`` does (an ``OSError`` with ``winerror`` 1783), which is not a
``keyring`` error: callers must cope with it without knowing about it.

The console uses only keyrings the OS protects; :class:`MemoryKeyring` (exactly this class,
not subclasses) is marked as one with ``trust_backend`` when this module is imported.
"""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

from console.core.secret_store import trust_backend

WINDOWS_LIMIT = 2560  # bytes of UTF-16 per credential blob (CRED_MAX_CREDENTIAL_BLOB_SIZE)


class CredentialTooLargeError(OSError):
    """What ``CredWrite`` raises for an oversized blob (``RPC_X_BAD_STUB_DATA``)."""

    winerror = 1783


class MemoryKeyring(KeyringBackend):
    """Keeps secrets in a dict. ``limit`` is the per-entry size in bytes of UTF-16, or None."""

    # Never chosen by keyring's own detection: tests install it with keyring.set_keyring.
    priority = -1  # type: ignore[assignment]

    def __init__(self, limit: int | None = None) -> None:
        super().__init__()
        self.limit = limit
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        size = len(password.encode("utf-16-le"))
        if self.limit is not None and size > self.limit:
            raise CredentialTooLargeError(
                1783, f"CredWrite: The stub received bad data ({size} > {self.limit} bytes)"
            )
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError(f"no entry for {username!r} in {service!r}")

    def largest_entry(self) -> int:
        """Size in bytes of UTF-16 of the biggest value stored (0 when empty)."""
        return max((len(v.encode("utf-16-le")) for v in self.entries.values()), default=0)


trust_backend(MemoryKeyring)
