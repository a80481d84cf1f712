"""The key dialog: import, generate, export, delete; no keyring -> plain words and a choice."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import keyring
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from keyring.backends import fail

from console.core import keys
from console.core.environments import Environment, EnvironmentStore, EnvKind
from console.core.paths import resolve
from console.core.vault import Vault
from console.ui.key_dialog import SESSION_ONLY, KeyDialog
from console.ui.secrets_access import SecretsAccess


@pytest.fixture
def secrets() -> SecretsAccess:
    EnvironmentStore(resolve()).add(
        Environment(
            name="acme-sb",
            kind=EnvKind.SANDBOX,
            base_url="https://sandbox.gateway.example/paynet",
            login="acme",
            endpoint_id="1234",
        )
    )
    return SecretsAccess(resolve())


def _dialog(qtbot: Any, secrets: SecretsAccess, *, settled: bool = True) -> KeyDialog:
    dialog = KeyDialog(secrets, "acme-sb")
    qtbot.addWidget(dialog)
    dialog.confirm = lambda _w, _t: True
    if settled:
        _settle(qtbot, dialog)
    return dialog


def _settle(qtbot: Any, dialog: KeyDialog) -> str:
    """Wait until the keyring has answered; the result line then."""
    qtbot.waitUntil(lambda: not dialog.busy, timeout=30_000)
    return dialog.message.text()


def _shows(qtbot: Any, dialog: KeyDialog, expected: str) -> None:
    qtbot.waitUntil(lambda: expected in dialog.message.text(), timeout=30_000)


def test_import_encrypted_pem_asks_the_passphrase_once(
    qtbot: Any, secrets: SecretsAccess, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    dialog = _dialog(qtbot, secrets)
    assert "no private key yet" in dialog.info.text()
    assert not dialog.export_button.isEnabled()
    pem_file = tmp_path / "merchant.pem"
    pem_file.write_bytes(keys.private_key_pem(rsa_key, "s3cret"))
    asked: list[str] = []

    def passphrase(_w: Any, label: str) -> str:
        asked.append(label)
        return "s3cret"

    dialog.ask_passphrase = passphrase
    changed: list[str] = []
    dialog.key_changed.connect(changed.append)
    assert dialog.import_file(pem_file)
    assert "Imported" in _settle(qtbot, dialog)
    assert asked == ["merchant.pem"]
    assert changed == ["acme-sb"]
    assert "2048-bit RSA" in dialog.info.text()
    assert keys.fingerprint(rsa_key) in dialog.info.text()
    assert dialog.public.value() == keys.public_key_pem(rsa_key)
    assert Vault().key_info("acme-sb").fingerprint == keys.fingerprint(rsa_key)


def test_wrong_passphrase_is_said_plainly(
    qtbot: Any, secrets: SecretsAccess, rsa_key: rsa.RSAPrivateKey
) -> None:
    dialog = _dialog(qtbot, secrets)
    dialog.ask_passphrase = lambda _w, _l: "wrong"
    dialog.import_pem(keys.private_key_pem(rsa_key, "right"))
    assert "Not imported" in _settle(qtbot, dialog)
    assert not Vault().has_key("acme-sb")


def test_generate_export_and_delete(qtbot: Any, secrets: SecretsAccess, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, secrets)
    dialog.bits.setCurrentIndex(dialog.bits.findData(3072))
    dialog.generate_button.click()
    qtbot.waitUntil(lambda: "Generated" in dialog.message.text(), timeout=60_000)
    _settle(qtbot, dialog)
    assert "3072-bit RSA" in dialog.info.text()
    target = tmp_path / "public.pem"
    assert dialog.export_public(target)
    assert "Public key written" in _settle(qtbot, dialog)
    exported = target.read_text(encoding="ascii")
    assert exported.startswith("-----BEGIN PUBLIC KEY-----")
    assert exported == Vault().public_key_pem("acme-sb")
    assert "PRIVATE" not in exported
    assert dialog.delete()
    assert "Deleted the key of acme-sb" in _settle(qtbot, dialog)
    assert not Vault().has_key("acme-sb")
    assert "no private key yet" in dialog.info.text()


def test_no_keyring_says_what_to_install_and_offers_session_memory(
    qtbot: Any, secrets: SecretsAccess, memory_keyring: Any
) -> None:
    keyring.set_keyring(fail.Keyring())
    dialog = _dialog(qtbot, secrets)
    assert "No OS keyring" in dialog.keyring_note.text()
    assert "install" in dialog.keyring_note.text().lower()
    assert dialog.memory_button.isVisibleTo(dialog)
    assert not dialog.generate_button.isEnabled()  # nothing happens without the choice
    assert not dialog.import_button.isEnabled()
    dialog.memory_button.click()
    assert secrets.session_only
    _settle(qtbot, dialog)
    assert SESSION_ONLY in dialog.keyring_note.text()
    assert dialog.generate_button.isEnabled()
    dialog.generate(2048)
    qtbot.waitUntil(lambda: "Generated" in dialog.message.text(), timeout=30_000)
    assert secrets.vault().has_key("acme-sb")
    assert memory_keyring.entries == {}  # never written anywhere else
    assert not list(resolve().config_dir.rglob("*.pem"))


def test_the_built_in_sandboxs_public_key_can_be_exported(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    from console.core.keys import public_key_pem

    dialog = window.environment_menu.open_keys()
    qtbot.addWidget(dialog)
    _settle(qtbot, dialog)
    assert dialog.name == window.session.environment.name  # the local sandbox is listed
    assert dialog.export_button.isEnabled()
    assert not dialog.delete_button.isEnabled()
    target = tmp_path / "sandbox-public.pem"
    assert dialog.export_public(target)
    assert "Public key written" in _settle(qtbot, dialog)
    assert target.read_text() == public_key_pem(window.session.private_key)
    assert "PRIVATE" not in target.read_text()


def test_the_keyring_is_read_and_written_off_the_gui_thread(
    qtbot: Any,
    secrets: SecretsAccess,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
    keyring_threads: list[threading.Thread],
) -> None:
    Vault().store_key("acme-sb", rsa_key)
    keyring_threads.clear()
    dialog = _dialog(qtbot, secrets, settled=False)
    qtbot.waitUntil(lambda: keys.fingerprint(rsa_key) in dialog.info.text())
    assert dialog.public.value() == keys.public_key_pem(rsa_key)
    assert keyring_threads
    assert threading.main_thread() not in keyring_threads  # opening the dialog waited on nothing
    target = tmp_path / "public.pem"
    dialog.export_public(target)
    _shows(qtbot, dialog, "Public key written")
    assert target.read_text(encoding="ascii") == keys.public_key_pem(rsa_key)
    replaced: list[str] = []

    def replace(_w: Any, question: str) -> bool:
        replaced.append(question)
        return True

    dialog.confirm = replace
    dialog.ask_passphrase = lambda _w, _l: "s3cret"
    dialog.import_pem(keys.private_key_pem(other_rsa_key, "s3cret"), "other.pem")
    _shows(qtbot, dialog, "Imported a 2048-bit key for acme-sb")
    assert "already has a key" in replaced[0]  # asked before replacing, as before
    qtbot.waitUntil(lambda: keys.fingerprint(other_rsa_key) in dialog.info.text())
    assert dialog.delete()
    _shows(qtbot, dialog, "Deleted the key of acme-sb")
    qtbot.waitUntil(lambda: "no private key yet" in dialog.info.text())
    calls = list(keyring_threads)
    assert calls
    assert threading.main_thread() not in calls
    assert not Vault().has_key("acme-sb")


def test_while_the_keyring_answers_the_dialog_says_so_and_waits(
    qtbot: Any,
    secrets: SecretsAccess,
    rsa_key: rsa.RSAPrivateKey,
    slow_keyring: threading.Event,
) -> None:
    Vault().store_key("acme-sb", rsa_key)
    dialog = _dialog(qtbot, secrets, settled=False)
    assert dialog.info.text() == "Reading the keyring…"
    for button in (dialog.import_button, dialog.generate_button, dialog.export_button):
        assert not button.isEnabled()
    assert not dialog.delete_button.isEnabled()
    slow_keyring.set()
    qtbot.waitUntil(lambda: keys.fingerprint(rsa_key) in dialog.info.text())
    assert dialog.export_button.isEnabled()
    assert dialog.delete_button.isEnabled()
    slow_keyring.clear()
    assert dialog.delete()
    assert "Deleting the key" in dialog.message.text()
    assert not dialog.delete_button.isEnabled()  # not twice, not on what is being deleted
    assert not dialog.environment.isEnabled()
    slow_keyring.set()
    _shows(qtbot, dialog, "Deleted the key of acme-sb")


def test_a_failing_keyring_is_said_in_the_dialog(
    qtbot: Any, secrets: SecretsAccess, monkeypatch: pytest.MonkeyPatch
) -> None:
    from console.core.secret_store import KeyringStore

    def broken(_self: KeyringStore, _name: str) -> str | None:
        raise RuntimeError("the Secret Service went away")

    monkeypatch.setattr(KeyringStore, "get", broken)
    dialog = _dialog(qtbot, secrets)
    assert "the Secret Service went away" in dialog.message.text()
    assert not dialog.export_button.isEnabled()


def test_choosing_another_environment_drops_the_last_actions_words(
    qtbot: Any, secrets: SecretsAccess
) -> None:
    EnvironmentStore(resolve()).add(
        Environment(
            name="acme-live",
            kind=EnvKind.PRODUCTION,
            base_url="https://gateway.example/paynet",
            login="acme",
            endpoint_id="1234",
        )
    )
    dialog = _dialog(qtbot, secrets)
    dialog.generate(2048)
    qtbot.waitUntil(lambda: "Generated a 2048-bit key for acme-sb" in dialog.message.text())
    _settle(qtbot, dialog)
    dialog.environment.setCurrentText("acme-live")
    _settle(qtbot, dialog)
    assert "no private key yet" in dialog.info.text()
    assert dialog.message.text() == ""  # not "Generated … for acme-sb" under acme-live


def test_generating_a_key_moves_nothing_and_keeps_the_fingerprint_whole(
    qtbot: Any, secrets: SecretsAccess
) -> None:
    dialog = _dialog(qtbot, secrets)
    dialog.show()
    qtbot.wait(50)
    before = (dialog.info.height(), dialog.public.y())
    dialog.generate(2048)
    qtbot.waitUntil(lambda: "Generated" in dialog.message.text(), timeout=60_000)
    _settle(qtbot, dialog)
    qtbot.wait(50)
    assert (dialog.info.height(), dialog.public.y()) == before
    # the fingerprint on one line of its own: the label is two lines, no more
    assert dialog.info.height() <= 2 * dialog.info.fontMetrics().lineSpacing() + 4


def test_keeping_keys_in_memory_says_what_it_means(
    qtbot: Any, secrets: SecretsAccess, memory_keyring: Any
) -> None:
    keyring.set_keyring(fail.Keyring())
    dialog = _dialog(qtbot, secrets)
    assert dialog.memory_note.isVisibleTo(dialog)
    said = dialog.memory_note.text()
    assert "memory only" in said
    assert "never written to disk" in said
    assert "forgotten when it closes" in said
