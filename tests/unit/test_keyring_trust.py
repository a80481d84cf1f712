"""Keys go only to a keyring the OS protects, also when keyring's chainer picks the backend.

``PYTHON_KEYRING_BACKEND=keyring.backends.chainer.ChainerBackend`` (or keyringrc.cfg naming
it, or keyring's own choice when several backends are installed) makes a real chainer over
every installed backend. Here the installed backends are fakes: a plaintext file backend
named like keyrings.alt's, and a stand-in for the OS keyring marked with ``trust_backend``.
"""

from __future__ import annotations

from pathlib import Path

import keyring
import keyring.backend
import pytest
from keyring.backends.chainer import ChainerBackend

from console.cli import main
from console.core.secret_store import KeyringUnavailableError, trust_backend
from console.core.vault import Vault
from tests.helpers.memkeyring import MemoryKeyring


class PlaintextKeyring(MemoryKeyring):
    """Stands in for keyrings.alt.file.PlaintextKeyring (secrets in a plain file)."""

    priority = 0.5  # type: ignore[assignment]  # keyrings.alt's own value


PlaintextKeyring.__module__ = "keyrings.alt.file"


class OsKeyring(MemoryKeyring):
    """Stands in for the OS keyring (Secret Service, Keychain, Credential Manager)."""

    priority = 5  # type: ignore[assignment]


trust_backend(OsKeyring)


class UnknownKeyring(MemoryKeyring):
    """A third-party backend nobody vetted."""


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> list[keyring.backend.KeyringBackend]:
    """The backends keyring finds installed (what the chainer chains), in priority order."""
    found: list[keyring.backend.KeyringBackend] = []
    monkeypatch.setattr(keyring.backend, "get_all_keyring", lambda: found)
    return found


def _import_key(key_file: Path) -> int:
    add = ["env", "add", "e1", "--kind", "sandbox", "--base-url", "https://sb.example/paynet",
           "--login", "m", "--endpoint-id", "1"]  # fmt: skip
    assert main(add) == 0
    return main(["keys", "import", "--env", "e1", str(key_file)])


def test_a_chained_plaintext_file_gets_no_key(
    installed: list[keyring.backend.KeyringBackend],
    key_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    plaintext = PlaintextKeyring()
    installed.append(plaintext)
    keyring.set_keyring(ChainerBackend())
    assert _import_key(key_file) == 3
    err = capsys.readouterr().err
    assert "No OS keyring" in err
    assert "PlaintextKeyring from keyrings.alt keeps secrets in a plain file" in err
    assert plaintext.entries == {}


def test_the_chainer_is_judged_by_the_backend_it_writes_to(
    installed: list[keyring.backend.KeyringBackend], key_file: Path
) -> None:
    plaintext, protected = PlaintextKeyring(), OsKeyring()
    installed.extend([plaintext, protected])
    keyring.set_keyring(ChainerBackend())
    assert _import_key(key_file) == 0
    assert protected.entries
    assert plaintext.entries == {}
    assert "OsKeyring" in Vault().store.description


def test_reads_and_writes_never_fall_through_to_a_chained_file(
    installed: list[keyring.backend.KeyringBackend],
) -> None:
    class WriteOnlyOnce(OsKeyring):
        def set_password(self, service: str, username: str, password: str) -> None:
            raise NotImplementedError  # the chainer would then try the next backend

    trust_backend(WriteOnlyOnce)
    plaintext = PlaintextKeyring()
    plaintext.entries[("gateway-console", "e1:merchant-control")] = "planted"
    installed.extend([WriteOnlyOnce(), plaintext])
    keyring.set_keyring(ChainerBackend())
    vault = Vault()
    assert vault.merchant_control("e1") is None
    with pytest.raises(Exception, match="OS keyring refused"):
        vault.set_merchant_control("e1", "s3cret")
    assert plaintext.entries == {("gateway-console", "e1:merchant-control"): "planted"}


def test_an_unknown_backend_is_refused() -> None:
    keyring.set_keyring(UnknownKeyring())
    with pytest.raises(KeyringUnavailableError, match="not a keyring the OS protects"):
        Vault()


def test_a_chainer_with_nothing_to_chain_is_no_keyring(
    installed: list[keyring.backend.KeyringBackend],
) -> None:
    keyring.set_keyring(ChainerBackend())
    with pytest.raises(KeyringUnavailableError, match="no keyring backend found"):
        Vault()


def _named_like_secret_service(cls: type) -> type:
    cls.__module__ = "keyring.backends.SecretService"
    cls.__qualname__ = cls.__name__ = "Keyring"
    return cls


def test_a_class_that_only_bears_the_secret_service_name_gets_no_key(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    @_named_like_secret_service
    class Impostor(UnknownKeyring):
        """Declares keyring's Secret Service name; keeps what it gets where it likes."""

    backend = Impostor()
    keyring.set_keyring(backend)
    assert _import_key(key_file) == 3
    err = capsys.readouterr().err
    assert "keyring.backends.SecretService.Keyring is not a keyring the OS protects" in err
    assert "only bears the name" in err
    assert backend.entries == {}


def test_a_subclass_of_the_real_secret_service_backend_is_not_trusted() -> None:
    from keyring.backends import SecretService

    kept: dict[tuple[str, str], str] = {}

    class Diverted(SecretService.Keyring):  # type: ignore[misc]
        """The real class's name and ancestry, but secrets go elsewhere."""

        def set_password(self, service: str, username: str, password: str) -> None:
            kept[(service, username)] = password

        def get_password(self, service: str, username: str) -> str | None:
            return kept.get((service, username))

    keyring.set_keyring(_named_like_secret_service(Diverted)())
    with pytest.raises(KeyringUnavailableError, match="not a keyring the OS protects"):
        Vault().set_merchant_control("e1", "s3cret")
    assert kept == {}


def test_keyrings_own_secret_service_class_is_trusted() -> None:
    from keyring.backends import SecretService

    keyring.set_keyring(SecretService.Keyring())
    assert "SecretService" in Vault().store.description
