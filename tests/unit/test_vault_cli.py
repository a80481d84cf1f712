"""``gateway-console keys ...``: import, generate, export, show, delete, control secret."""

from __future__ import annotations

import io
from pathlib import Path

import keyring
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from keyring.backends import fail

from console.cli import main
from console.core import keys
from console.core.vault import Vault

ADD = ["env", "add", "acme-sb", "--kind", "sandbox", "--base-url", "https://sb.example/paynet",
       "--login", "acme", "--endpoint-id", "1234"]  # fmt: skip


@pytest.fixture(autouse=True)
def _environment(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(ADD) == 0
    capsys.readouterr()


def _encrypted(key: rsa.RSAPrivateKey, tmp_path: Path) -> Path:
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.BestAvailableEncryption(b"pass phrase"),
    )
    path = tmp_path / "key.pem"
    path.write_bytes(pem)
    return path


def test_import_with_the_passphrase_from_the_environment(
    rsa_key: rsa.RSAPrivateKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    path = _encrypted(rsa_key, tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal: nobody to ask
    assert main(["keys", "import", str(path), "--env", "acme-sb"]) == 1
    assert "GATEWAY_CONSOLE_KEY_PASSPHRASE" in capsys.readouterr().err
    monkeypatch.setenv("GATEWAY_CONSOLE_KEY_PASSPHRASE", "pass phrase")
    assert main(["keys", "import", str(path), "--env", "acme-sb"]) == 0
    assert keys.fingerprint(rsa_key) in capsys.readouterr().out
    assert Vault().private_key("acme-sb").private_numbers() == rsa_key.private_numbers()


def test_passphrase_is_asked_on_a_terminal(
    rsa_key: rsa.RSAPrivateKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _encrypted(rsa_key, tmp_path)
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("getpass.getpass", lambda prompt: asked.append(prompt) or "pass phrase")
    assert main(["keys", "import", str(path), "--env", "acme-sb"]) == 0
    assert asked == ["Passphrase of the key file: "]


def test_generate_export_show_delete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "public.pem"
    assert main(["keys", "generate", "--env", "acme-sb", "--public-out", str(out)]) == 0
    assert out.read_text(encoding="ascii").startswith("-----BEGIN PUBLIC KEY-----")
    assert main(["keys", "generate", "--env", "acme-sb"]) == 1  # a key is there already
    assert "already has a private key" in capsys.readouterr().err
    assert main(["keys", "export-public", "--env", "acme-sb"]) == 0
    assert capsys.readouterr().out == out.read_text(encoding="ascii")
    assert main(["keys", "show", "--env", "acme-sb"]) == 0
    shown = capsys.readouterr().out
    assert "2048 bits" in shown
    assert "merchant control secret: not set" in shown
    assert main(["keys", "delete", "--env", "acme-sb"]) == 1  # not a terminal, no --yes
    assert main(["keys", "delete", "--env", "acme-sb", "--yes"]) == 0
    assert not Vault().has_key("acme-sb")
    assert main(["keys", "show", "--env", "acme-sb"]) == 1


def test_control_secret_never_on_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_MERCHANT_CONTROL", "s3cret")
    assert main(["keys", "control-secret", "--env", "acme-sb"]) == 0
    assert Vault().merchant_control("acme-sb") == "s3cret"
    assert main(["keys", "control-secret", "--env", "acme-sb", "--clear"]) == 0
    assert Vault().merchant_control("acme-sb") is None
    with pytest.raises(SystemExit):  # not even as an abbreviation of --secret-env
        main(["keys", "control-secret", "--env", "acme-sb", "--secret", "s3cret"])
    assert Vault().merchant_control("acme-sb") is None


def test_no_keyring_says_what_to_install(capsys: pytest.CaptureFixture[str]) -> None:
    keyring.set_keyring(fail.Keyring())
    assert main(["keys", "generate", "--env", "acme-sb"]) == 3
    err = capsys.readouterr().err
    assert "No OS keyring" in err
    assert "--key-file" in err


def test_unknown_environment_and_local_sandbox(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "show", "--env", "nope"]) == 1
    assert "No environment is called 'nope'" in capsys.readouterr().err
    assert main(["keys", "generate", "--env", "local-sandbox"]) == 1
    assert "demo key" in capsys.readouterr().err
