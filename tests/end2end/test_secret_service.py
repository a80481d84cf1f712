"""Keys in a real OS keyring: a Secret Service (gnome-keyring-daemon) on a private D-Bus bus.

Every step goes through the console's own command line, in processes of its own, the way
an operator runs it: a 4096-bit key imported, read back in a later process, rotated and
deleted; a locked keyring; and no D-Bus session at all.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core import keys
from console.core.spec import example_values
from console.core.vault import SERVICE, Vault
from tests.helpers.http_server import Reply, serve
from tests.helpers.secret_service import SECRET_SERVICE_BACKEND, SecretService, secret_service

pytestmark = pytest.mark.secret_service
ROOT = Path(__file__).resolve().parents[2]
__all__ = ["secret_service"]  # the fixture, imported for the tests below


def cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``gateway-console ARGS`` in a process of its own (environment: this one's, plus env)."""
    return subprocess.run(
        [sys.executable, "-m", "console", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _add_environment(url: str = "https://sb.example/paynet") -> None:
    assert main(["env", "add", "e1", "--kind", "sandbox", "--base-url", url,
                 "--login", "merchant", "--endpoint-id", "1001"]) == 0  # fmt: skip


def _pem_file(path: Path, key: rsa.RSAPrivateKey) -> Path:
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return path


def _field(output: str, label: str) -> str:
    return next(
        line.split(":", 1)[1].strip() for line in output.splitlines() if line.startswith(label)
    )


def test_a_4096_bit_key_is_imported_read_back_rotated_and_deleted(
    secret_service: SecretService, tmp_path: Path
) -> None:
    _add_environment()
    key = rsa.generate_private_key(public_exponent=65537, key_size=4096)
    pem = _pem_file(tmp_path / "merchant-4096.pem", key)

    imported = cli("keys", "import", "--env", "e1", str(pem))
    assert imported.returncode == 0, imported.stderr
    assert "key size:    4096 bits" in imported.stdout
    assert "OS keyring (SecretService" in imported.stdout
    assert (
        _field(imported.stdout, "fingerprint")
        == f"{keys.fingerprint(key)} (SHA-256 of the public key)"
    )
    stored = secret_service.entries(SERVICE)
    assert "e1:private-key" in stored
    assert len(stored) >= 4  # the manifest and a PEM of over 3000 characters in parts
    assert "PRIVATE KEY" not in b"".join(
        p.read_bytes() for p in secret_service.keyrings.iterdir()
    ).decode("latin-1")  # the keyring file on disk is encrypted

    # read back in a later process, and here through the vault
    shown = cli("keys", "show", "--env", "e1")
    assert shown.returncode == 0, shown.stderr
    assert "key size:    4096 bits" in shown.stdout
    assert keys.fingerprint(key) in shown.stdout
    exported = cli("keys", "export-public", "--env", "e1")
    assert exported.stdout == keys.public_key_pem(key)
    assert Vault().private_key("e1").private_numbers() == key.private_numbers()

    # rotate: refused without --replace, then a new 4096-bit key replaces the old
    again = cli("keys", "generate", "--env", "e1", "--bits", "4096")
    assert again.returncode == 1
    assert "already has a private key" in again.stderr
    assert keys.fingerprint(key) in cli("keys", "show", "--env", "e1").stdout
    rotated = cli("keys", "generate", "--env", "e1", "--bits", "4096", "--replace")
    assert rotated.returncode == 0, rotated.stderr
    new_fingerprint = _field(rotated.stdout, "fingerprint").split()[0]
    assert new_fingerprint != keys.fingerprint(key)
    shown = cli("keys", "show", "--env", "e1")
    assert new_fingerprint in shown.stdout
    assert "key size:    4096 bits" in shown.stdout
    old_parts = set(stored) - {"e1:private-key"}
    assert not old_parts & set(secret_service.entries(SERVICE))  # the old key's parts are gone

    # delete: nothing of the key is left in the keyring
    deleted = cli("keys", "delete", "--env", "e1", "--yes")
    assert deleted.returncode == 0, deleted.stderr
    assert secret_service.entries(SERVICE) == {}
    gone = cli("keys", "show", "--env", "e1")
    assert gone.returncode == 1
    assert "has no key" in gone.stdout


def test_a_locked_keyring_is_a_clear_message_and_nothing_is_sent(
    secret_service: SecretService,
    key_file: Path,
) -> None:
    with serve(lambda request: Reply(200, b"type=async-response\n&status=processing\n")) as server:
        _add_environment(server.url)
        assert main(["keys", "import", "--env", "e1", str(key_file)]) == 0
        before = secret_service.names(SERVICE)
        secret_service.lock()

        shown = cli("keys", "show", "--env", "e1")
        assert shown.returncode == 1
        assert "The OS keyring is locked. Unlock it" in shown.stderr
        assert "Traceback" not in shown.stderr

        replaced = cli("keys", "generate", "--env", "e1", "--replace")
        assert replaced.returncode == 1
        assert "The OS keyring is locked" in replaced.stderr

        send = ["send", "payout-check", "--env", "e1"]
        for name, value in example_values("payout-check").items():
            send += ["-f", f"{name}={value}"]
        sent = cli(*send)  # in a process of its own: keyring leaks the locked call's D-Bus socket
        assert sent.returncode == 2, sent.stderr
        assert "The OS keyring is locked" in sent.stderr
        assert "internal error" not in sent.stderr
        assert server.received == []

    assert secret_service.names(SERVICE) == before  # nothing written or removed while locked


def test_no_dbus_session_is_a_clear_message_never_an_internal_error(key_file: Path) -> None:
    pytest.importorskip("secretstorage", reason="keyring's Secret Service backend needs it")
    _add_environment()
    no_bus = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    for backend in (SECRET_SERVICE_BACKEND, ""):  # named explicitly, or keyring's own choice
        env = {**no_bus, "PYTHONPATH": str(ROOT), "PYTHON_KEYRING_BACKEND": backend}
        if not backend:
            del env["PYTHON_KEYRING_BACKEND"]
        done = subprocess.run(
            [sys.executable, "-m", "console", "keys", "import", "--env", "e1", str(key_file)],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 3, done.stderr  # "no OS keyring", as keys --help says
        assert "No OS keyring is available" in done.stderr
        assert "internal error" not in done.stderr
        assert "Traceback" not in done.stderr
        if backend:
            assert "D-Bus session bus" in done.stderr
            assert "DBUS_SESSION_BUS_ADDRESS is unset" in done.stderr
