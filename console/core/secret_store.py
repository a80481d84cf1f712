"""Where secret entries live: the OS keyring (through ``keyring``) or process memory.

Only a known protected store is used: Secret Service (``SecretService``, ``libsecret``),
KWallet, the macOS Keychain and Windows Credential Manager (``WinVaultKeyring``). Every other
backend is refused with a message that says what to install: ``fail`` and ``null`` (no
keyring at all), the plaintext and "encrypted" files of ``keyrings.alt``, and anything
unknown. The chainer (``keyring.backends.chainer.ChainerBackend``, chosen by keyring itself
when several backends are installed, or named in ``PYTHON_KEYRING_BACKEND`` or
keyringrc.cfg) is judged by the backend it would write to, its first one, and only that
backend is then used: a write never falls through to a file. Nothing here ever falls back
to a file.

Tests that keep secrets in an in-memory backend mark its class with :func:`trust_backend`;
the console itself never calls it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import sys
from collections.abc import Callable
from typing import Protocol, TypeVar

import keyring
import keyring.errors
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null

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


# Backends that keep secrets in a store the OS protects: (module under keyring.backends, class).
# Trust rests on the class objects these name, never on the names a class declares.
_PROTECTED: tuple[tuple[str, str], ...] = (
    ("SecretService", "Keyring"),
    ("libsecret", "Keyring"),
    ("kwallet", "DBusKeyring"),
    ("kwallet", "DBusKeyringKWallet4"),
    ("macOS", "Keyring"),
    ("Windows", "WinVaultKeyring"),
)
_trusted: set[type[KeyringBackend]] = set()


def trust_backend(cls: type[KeyringBackend]) -> None:
    """Count backend class ``cls`` (exactly, not its subclasses) as a protected store.

    For tests, whose in-memory keyring stands in for the OS keyring. The console never
    calls it, and nothing in the environment (variables, keyringrc.cfg) can.
    """
    _trusted.add(cls)


def _qualified_class(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _qualified(backend: object) -> str:
    return _qualified_class(type(backend))


@functools.cache
def protected_backends() -> frozenset[type[KeyringBackend]]:
    """The keyring package's own backend classes for stores the OS protects.

    A class that merely calls itself ``keyring.backends.SecretService.Keyring`` (through
    ``__module__`` and ``__qualname__``) is not one of these objects, and neither is a
    subclass: a subclass can override where secrets go.
    """
    found: set[type[KeyringBackend]] = set()
    for module, name in _PROTECTED:
        try:
            loaded = importlib.import_module(f"keyring.backends.{module}")
        except ImportError:  # a backend whose module cannot load is never in use
            continue
        cls = getattr(loaded, name, None)
        if isinstance(cls, type) and issubclass(cls, KeyringBackend):
            found.add(cls)
    return frozenset(found)


def _in_use(backend: KeyringBackend) -> KeyringBackend | None:
    """The backend that would keep the secrets: the chainer writes to its first one."""

    if isinstance(backend, chainer.ChainerBackend):
        chained: list[KeyringBackend] = list(backend.backends)
        return chained[0] if chained else None
    return backend


def _refused(backend: KeyringBackend | None) -> str | None:
    """Why this backend cannot keep secrets safely, or None when it is a protected store."""

    if backend is None or isinstance(backend, fail.Keyring | null.Keyring):
        return "no keyring backend found"
    if type(backend) in _trusted or type(backend) in protected_backends():
        return None
    if type(backend).__module__.startswith("keyrings.alt"):
        return f"{type(backend).__name__} from keyrings.alt keeps secrets in a plain file"
    if _qualified(backend) in {_qualified_class(cls) for cls in protected_backends()}:
        return (
            f"{_qualified(backend)} is not a keyring the OS protects: it only bears the name "
            "of keyring's own backend class"
        )
    return f"{_qualified(backend)} is not a keyring the OS protects"


def _unusable(exc: Exception) -> str:
    """Why the backend keyring was told to use (by variable or config file) cannot start."""
    detail = (
        f"the keyring backend named in PYTHON_KEYRING_BACKEND or keyringrc.cfg cannot start: {exc}"
    )
    if "DBUS" in str(exc).upper().replace("-", ""):
        detail += (
            ". The Secret Service is reached over the D-Bus session bus, and this process has "
            "none: run the console in a desktop session (or inside dbus-run-session)"
        )
    return detail


def _protected_backend() -> KeyringBackend:
    """The keyring backend secrets go to now. Raises KeyringUnavailableError."""
    try:
        chosen = keyring.get_keyring()
    except Exception as exc:  # a backend named in PYTHON_KEYRING_BACKEND or keyringrc.cfg
        raise KeyringUnavailableError(no_backend_message(_unusable(exc))) from exc
    backend = _in_use(chosen)
    reason = _refused(backend)
    if reason:
        if backend is not chosen:
            reason = f"through keyring's chainer: {reason}"
        raise KeyringUnavailableError(no_backend_message(reason))
    assert backend is not None
    return backend


class KeyringStore:
    """Entries in the OS keyring through ``keyring``; refuses unsafe or missing backends.

    The backend is looked up again for every call (it can change while the console runs)
    and refused unless it is a protected store.
    """

    persistent = True

    def __init__(self, service: str = SERVICE) -> None:
        self.service = service
        backend = _protected_backend()
        self.description = f"OS keyring ({getattr(backend, 'name', type(backend).__name__)})"

    def _call(self, action: Callable[[KeyringBackend], _T]) -> _T:
        backend = _protected_backend()
        try:
            return action(backend)
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
        return self._call(lambda b: b.get_password(self.service, name))

    def set(self, name: str, value: str) -> None:
        self._call(lambda b: b.set_password(self.service, name, value))

    def delete(self, name: str) -> None:
        def action(backend: KeyringBackend) -> None:
            # already gone is fine: deleting is idempotent here
            with contextlib.suppress(keyring.errors.PasswordDeleteError):
                backend.delete_password(self.service, name)

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
