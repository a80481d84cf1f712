"""The "copy diagnostics" text and the library licence list."""

from __future__ import annotations

import platform
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from console import __version__
from console.core import diagnostics, paths

SECRET = "s3cr3t-Passw0rd"


class DictKeyring(KeyringBackend):
    """A keyring that keeps passwords in a dict (enough to prove they are not shown)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.store.pop((service, username), None)


@pytest.fixture
def dict_keyring() -> Iterator[DictKeyring]:
    previous = keyring.get_keyring()
    backend = DictKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_text_names_versions_platform_and_paths(dict_keyring: DictKeyring) -> None:
    text = diagnostics.diagnostics_text()
    app_paths = paths.resolve()
    assert f"Gateway Console     {__version__}" in text
    assert platform.python_version() in text
    assert platform.platform() in text
    for folder in (app_paths.config_dir, app_paths.data_dir, app_paths.log_dir):
        assert str(folder) in text
    assert str(app_paths.log_file) in text
    assert "GATEWAY_CONSOLE_HOME is set" in text
    assert "Resources           all " in text


def test_qt_version_comes_from_package_metadata() -> None:
    try:
        expected = metadata.version("PySide6-Essentials")
    except metadata.PackageNotFoundError:
        assert diagnostics.qt_version() is None
        assert "not installed (command line only)" in diagnostics.diagnostics_text()
    else:
        assert f"Qt for Python       {expected} (PySide6-Essentials)" in (
            diagnostics.diagnostics_text()
        )


def test_keyring_backend_is_named(dict_keyring: DictKeyring) -> None:
    assert f"{__name__}.DictKeyring" in diagnostics.diagnostics_text()


def test_a_missing_keyring_is_said_plainly() -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        text = diagnostics.diagnostics_text()
    finally:
        keyring.set_keyring(previous)
    assert "keyring.backends.fail.Keyring (no usable keyring: keys cannot be stored)" in text


def test_no_secret_appears(dict_keyring: DictKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    dict_keyring.set_password("gateway-console", "merchant", SECRET)
    monkeypatch.setenv("HTTPS_PROXY", f"http://operator:{SECRET}@proxy.example:3128")
    monkeypatch.delenv("https_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    text = diagnostics.diagnostics_text()
    assert SECRET not in text
    assert "proxy.example" not in text
    assert "HTTPS_PROXY         set" in text
    assert "NO_PROXY            not set" in text


def test_libraries_are_the_runtime_ones_with_their_declared_licences() -> None:
    libs = {lib.name.lower().replace("_", "-"): lib for lib in diagnostics.libraries()}
    for name in ("cryptography", "requests", "keyring", "platformdirs", "iso3166"):
        assert name in libs, name
        assert libs[name].version == metadata.version(name)
    assert "urllib3" in libs  # required by requests: bundled too
    for tool in ("pytest", "ruff", "mypy", "hypothesis", "iso4217"):  # extras, not shipped
        assert tool not in libs
    assert "Apache-2.0" in libs["cryptography"].licence
    assert libs["requests"].licence == "Apache-2.0"
    assert libs["keyring"].licence == "MIT"
    for reference in ("oauthlib", "python-stdnum"):  # the tests' references, not shipped
        assert reference not in libs
    if "pyside6-essentials" in libs:
        assert "LGPL-3.0" in libs["pyside6-essentials"].licence


def fake_distribution(tmp_path: Path, headers: str) -> metadata.Distribution:
    info = tmp_path / "fake-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.4\nName: fake\nVersion: 1.0\n{headers}")
    return metadata.PathDistribution(info)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        (
            "License-Expression: MIT\nLicense: BSD\n"
            "Classifier: License :: OSI Approved :: BSD License\n",
            "MIT",
        ),
        (
            "License: Apache-2.0\nClassifier: License :: OSI Approved :: Apache Software License\n",
            "Apache-2.0",
        ),
        (
            "License: LGPL\nClassifier: License :: OSI Approved :: "
            "GNU Lesser General Public License v2 or later (LGPLv2+)\n",
            "GNU Lesser General Public License v2 or later (LGPLv2+)",
        ),
        ("License: ISC\nClassifier: License :: OSI Approved :: BSD License\n", "ISC"),
        (
            "License: Permission is hereby granted, free of charge\n"
            "        to any person\n"
            "Classifier: License :: OSI Approved :: MIT License\n",
            "MIT License",
        ),
        ("", "not stated in its metadata"),
    ],
    ids=["expression-wins", "spdx-field", "precise-classifier", "field-kept", "text", "none"],
)
def test_licence_is_read_from_metadata(tmp_path: Path, headers: str, expected: str) -> None:
    assert diagnostics.licence_of(fake_distribution(tmp_path, headers)) == expected
