"""Where secret entries live: the OS keyring (through ``keyring``) or process memory.

A backend that cannot keep secrets safely is refused with a message that says what to
install: the ``fail`` and ``null`` backends (no keyring at all) and the plaintext files of
``keyrings.alt``. Nothing here ever falls back to a file.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import Protocol, TypeVar

import keyring
import keyring.errors

from console.core.errors import KeyMaterialError

SERVICE = "gateway-console"
_T = TypeVar("_T")


class VaultError(KeyMaterialError):
    """A secret could not be stored or read; the message says why and what to do."""


class KeyringUnavailableError(VaultError):
    """No OS keyring that keeps secrets safely is available."""


def no_backend_message(detail: str = "") -> str:
    """Plain words for "no keyring": what is missing, what to install, what else to do."""
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        install = (
            "Install and unlock a Secret Service provider, for example GNOME Keyring "
            "(packages gnome-keyring and libsecret) or KeePassXC with its Secret Service "
            "integration turned on, or KWallet; then start the console again."
        )
    elif sys.platform == "darwin":
        install = "The macOS Keychain could not be reached; log in to a desktop session."
    else:
        install = "Windows Credential Manager could not be reached; log in to a desktop session."
    text = (
        "No OS keyring is available to keep private keys safe. "
        f"{install} Plaintext keyring files (keyrings.alt) are refused on purpose. "
        "Until then the key can be kept in memory for this session only: it is forgotten "
        "when the console closes."
    )
    return f"{text} ({detail})" if detail else text


class SecretStore(Protocol):
    """Where secret entries live: the OS keyring or process memory."""

    description: str
    persistent: bool

    def get(self, name: str) -> str | None: ...
    def set(self, name: str, value: str) -> None: ...
    def delete(self, name: str) -> None: ...


def _refused(backend: object) -> str | None:
    """Why this keyring backend cannot keep secrets safely, or None when it can."""
    from keyring.backends import chainer, fail, null

    module = type(backend).__module__
    if isinstance(backend, fail.Keyring | null.Keyring):
        return "no keyring backend found"
    if isinstance(backend, chainer.ChainerBackend) and not chainer.ChainerBackend.backends:
        return "no keyring backend found"
    if module.startswith("keyrings.alt"):
        return f"{type(backend).__name__} from keyrings.alt keeps secrets in a plain file"
    return None


class KeyringStore:
    """Entries in the OS keyring through ``keyring``; refuses unsafe or missing backends."""

    persistent = True

    def __init__(self, service: str = SERVICE) -> None:
        self.service = service
        backend = keyring.get_keyring()
        reason = _refused(backend)
        if reason:
            raise KeyringUnavailableError(no_backend_message(reason))
        self.description = f"OS keyring ({getattr(backend, 'name', type(backend).__name__)})"

    def _call(self, action: Callable[[], _T]) -> _T:
        try:
            return action()
        except keyring.errors.NoKeyringError as exc:
            raise KeyringUnavailableError(no_backend_message(str(exc))) from exc
        except keyring.errors.KeyringLocked as exc:
            raise VaultError(
                "The OS keyring is locked. Unlock it (log in to the desktop session or open "
                "your keyring application) and try again."
            ) from exc
        except Exception as exc:  # backend-specific errors (D-Bus, Win32) are not KeyringErrors
            raise VaultError(f"The OS keyring refused the request: {exc}") from exc

    def get(self, name: str) -> str | None:
        return self._call(lambda: keyring.get_password(self.service, name))

    def set(self, name: str, value: str) -> None:
        self._call(lambda: keyring.set_password(self.service, name, value))

    def delete(self, name: str) -> None:
        def action() -> None:
            # already gone is fine: deleting is idempotent here
            with contextlib.suppress(keyring.errors.PasswordDeleteError):
                keyring.delete_password(self.service, name)

        self._call(action)


class MemoryStore:
    """Entries in process memory only, gone when the process ends."""

    persistent = False
    description = "memory (this session only)"

    def __init__(self) -> None:
        self._entries: dict[str, str] = {}

    def get(self, name: str) -> str | None:
        return self._entries.get(name)

    def set(self, name: str, value: str) -> None:
        self._entries[name] = value

    def delete(self, name: str) -> None:
        self._entries.pop(name, None)
