"""The key vault: keys and control secrets per environment, in the OS keyring only."""

from __future__ import annotations

from pathlib import Path

import keyring
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from keyring.backends import fail, null

from console.core import keys
from console.core.vault import (
    KeyExistsError,
    KeyringUnavailableError,
    NoKeyError,
    SessionVault,
    Vault,
    VaultDamagedError,
    VaultError,
)
from tests.helpers.memkeyring import WINDOWS_LIMIT, CredentialTooLargeError, MemoryKeyring


def _pem(
    key: rsa.RSAPrivateKey, fmt: serialization.PrivateFormat, password: bytes | None = None
) -> bytes:
    enc: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(password)
        if password
        else serialization.NoEncryption()
    )
    return key.private_bytes(serialization.Encoding.PEM, fmt, enc)


def test_backend_enforces_the_windows_limit(memory_keyring: MemoryKeyring) -> None:
    assert memory_keyring.limit == WINDOWS_LIMIT
    with pytest.raises(CredentialTooLargeError):
        keyring.set_password("svc", "user", "x" * 1281)  # 2562 bytes of UTF-16
    keyring.set_password("svc", "user", "x" * 1280)


@pytest.fixture(scope="module")
def big_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=4096)


def test_a_4096_bit_key_round_trips_through_windows_sized_entries(
    memory_keyring: MemoryKeyring, big_key: rsa.RSAPrivateKey
) -> None:
    vault = Vault()
    info = vault.store_key("prod", big_key)
    assert info.bits == 4096
    assert memory_keyring.largest_entry() <= WINDOWS_LIMIT
    assert len(memory_keyring.entries) > 2  # really split: manifest plus several parts
    loaded = Vault().private_key("prod")
    assert loaded.private_numbers() == big_key.private_numbers()
    assert Vault().key_info("prod") == info


@pytest.mark.parametrize(
    "fmt", [serialization.PrivateFormat.TraditionalOpenSSL, serialization.PrivateFormat.PKCS8]
)
def test_import_pkcs1_and_pkcs8(
    rsa_key: rsa.RSAPrivateKey, fmt: serialization.PrivateFormat
) -> None:
    info = Vault().import_key("sb", _pem(rsa_key, fmt))
    assert info.fingerprint == keys.fingerprint(rsa_key)
    assert info.bits == 2048
    assert Vault().public_key_pem("sb") == keys.public_key_pem(rsa_key)


def test_import_encrypted_needs_the_passphrase(rsa_key: rsa.RSAPrivateKey) -> None:
    pem = _pem(rsa_key, serialization.PrivateFormat.PKCS8, b"open sesame")
    vault = Vault()
    with pytest.raises(keys.KeyProblem) as err:
        vault.import_key("sb", pem)
    assert err.value.kind == "passphrase-needed"
    with pytest.raises(keys.KeyProblem) as err:
        vault.import_key("sb", pem, "wrong")
    assert err.value.kind == "wrong-passphrase"
    assert not vault.has_key("sb")
    vault.import_key("sb", pem, "open sesame")
    assert vault.private_key("sb").private_numbers() == rsa_key.private_numbers()


def test_secrets_are_stored_without_the_import_passphrase_and_never_on_disk(
    rsa_key: rsa.RSAPrivateKey, memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    pem = _pem(rsa_key, serialization.PrivateFormat.PKCS8, b"open sesame")
    Vault().import_key("sb", pem, "open sesame")
    Vault().set_merchant_control("sb", "control-secret-123")
    stored = "".join(memory_keyring.entries.values())
    assert "open sesame" not in stored
    files = list(tmp_path.rglob("*"))
    assert not [f for f in files if f.is_file()]


def test_a_key_read_for_every_send_is_parsed_once_and_not_kept_once_deleted(
    rsa_key: rsa.RSAPrivateKey, memory_keyring: MemoryKeyring
) -> None:
    vault = Vault()
    vault.store_key("sb", rsa_key)
    first = vault.private_key("sb")
    assert vault.private_key("sb") is first  # the next send: not parsed and checked again
    vault.store_key("sb", keys.generate_private_key(), replace=True)
    assert keys.load_private_key(keys.private_key_pem(rsa_key)).private_key is not first
    again = vault.private_key("sb")
    vault.delete_key("sb")
    with pytest.raises(NoKeyError):
        vault.private_key("sb")
    assert keys.load_private_key(keys.private_key_pem(again)).private_key is not again


def test_replacing_a_key_needs_to_be_asked_for(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    vault = Vault()
    vault.store_key("sb", rsa_key)
    with pytest.raises(KeyExistsError):
        vault.store_key("sb", other_rsa_key)
    with pytest.raises(KeyExistsError):
        vault.generate_key("sb")
    assert vault.key_info("sb").fingerprint == keys.fingerprint(rsa_key)  # type: ignore[union-attr]
    vault.store_key("sb", other_rsa_key, replace=True)
    assert vault.key_info("sb").fingerprint == keys.fingerprint(other_rsa_key)  # type: ignore[union-attr]


def test_replacing_leaves_no_orphan_parts(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey, memory_keyring: MemoryKeyring
) -> None:
    vault = Vault()
    vault.store_key("sb", rsa_key)
    count = len(memory_keyring.entries)
    vault.store_key("sb", other_rsa_key, replace=True)
    assert len(memory_keyring.entries) == count
    assert vault.delete_key("sb") is True
    assert memory_keyring.entries == {}
    assert vault.delete_key("sb") is False


def test_generate_offers_the_three_sizes(memory_keyring: MemoryKeyring) -> None:
    vault = Vault()
    info = vault.generate_key("sb", 3072)
    assert info.bits == 3072
    assert vault.private_key("sb").key_size == 3072
    with pytest.raises(ValueError, match="2048, 3072 or 4096"):
        vault.generate_key("other", 1024)


def test_missing_key_says_how_to_add_one() -> None:
    with pytest.raises(NoKeyError, match="keys import"):
        Vault().private_key("nowhere")
    assert Vault().key_info("nowhere") is None


def test_a_lost_part_is_reported_not_used(
    rsa_key: rsa.RSAPrivateKey, memory_keyring: MemoryKeyring
) -> None:
    Vault().store_key("sb", rsa_key)
    part = next(k for k in memory_keyring.entries if k[1].endswith(":1"))
    del memory_keyring.entries[part]
    with pytest.raises(VaultDamagedError, match="Delete it"):
        Vault().private_key("sb")
    assert Vault().delete_key("sb")


def test_a_failed_write_keeps_the_old_key(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey, memory_keyring: MemoryKeyring
) -> None:
    Vault().store_key("sb", rsa_key)
    before = dict(memory_keyring.entries)
    memory_keyring.limit = 100  # every part now too large: the write fails half-way
    with pytest.raises(VaultError, match="refused"):
        Vault().store_key("sb", other_rsa_key, replace=True)
    memory_keyring.limit = WINDOWS_LIMIT
    assert memory_keyring.entries == before
    assert Vault().private_key("sb").private_numbers() == rsa_key.private_numbers()


@pytest.mark.parametrize("backend", [fail.Keyring(), null.Keyring()])
def test_no_backend_says_what_to_install(backend: keyring.backend.KeyringBackend) -> None:
    keyring.set_keyring(backend)
    with pytest.raises(KeyringUnavailableError) as err:
        Vault()
    message = str(err.value)
    assert "Secret Service" in message or "Keychain" in message or "Credential Manager" in message
    assert "keyrings.alt" in message
    assert "refused" in message
    assert "this session only" in message


def test_no_backend_error_at_call_time_is_translated(
    rsa_key: rsa.RSAPrivateKey, memory_keyring: MemoryKeyring
) -> None:
    vault = Vault()
    keyring.set_keyring(fail.Keyring())  # the backend disappears after start-up
    with pytest.raises(KeyringUnavailableError, match="No OS keyring"):
        vault.store_key("sb", rsa_key)


def test_plaintext_keyring_files_are_refused() -> None:
    class PlaintextKeyring(MemoryKeyring):
        pass

    PlaintextKeyring.__module__ = "keyrings.alt.file"
    keyring.set_keyring(PlaintextKeyring())
    with pytest.raises(KeyringUnavailableError, match="plain file"):
        Vault()


def test_session_vault_works_without_a_keyring(rsa_key: rsa.RSAPrivateKey) -> None:
    keyring.set_keyring(fail.Keyring())
    vault = SessionVault()
    assert vault.persistent is False
    info = vault.store_key("sb", rsa_key)
    assert "this session only" in info.stored_in
    assert vault.private_key("sb").private_numbers() == rsa_key.private_numbers()
    assert SessionVault().key_info("sb") is None  # another session knows nothing of it


def test_merchant_control_secret(memory_keyring: MemoryKeyring) -> None:
    vault = Vault()
    assert vault.merchant_control("sb") is None
    vault.set_merchant_control("sb", "s3cret")
    assert Vault().merchant_control("sb") == "s3cret"
    with pytest.raises(ValueError, match="empty"):
        vault.set_merchant_control("sb", "")
    assert vault.delete_merchant_control("sb")
    assert vault.merchant_control("sb") is None


def test_rename_and_forget_environment(
    rsa_key: rsa.RSAPrivateKey, memory_keyring: MemoryKeyring
) -> None:
    vault = Vault()
    vault.store_key("old", rsa_key)
    vault.set_merchant_control("old", "s3cret")
    vault.rename_environment("old", "new")
    assert not vault.has_key("old")
    assert vault.merchant_control("old") is None
    assert vault.key_info("new") is not None
    assert vault.merchant_control("new") == "s3cret"
    vault.forget_environment("new")
    assert memory_keyring.entries == {}
