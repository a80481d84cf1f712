"""Shared fixtures: every test runs with its own profile directory, never the user's."""

from __future__ import annotations

import faulthandler
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

pytest_plugins = ["tests.helpers.postgres"]

# A test still running after this many seconds ends its test process with every thread's
# traceback: a hang (a lost wake-up between threads, say) fails the run where it would
# stall it. Mutation testing sets a shorter one for a mutant that hangs.
HANG_SECONDS = float(os.environ.get("GATEWAY_CONSOLE_TEST_HANG_SECONDS", "900"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """The money rules' coverage (``make test``, ``scripts/check_coverage.py``) is measured
    in the Qt-free tests: the rules live in the Qt-free core, so those tests alone must run
    every line. The window's tests run untraced (set up, run and torn down), where the
    tracer would make them about half again as slow."""
    coverage = sys.modules.get("coverage")  # loaded by pytest-cov when it measures
    running = coverage.Coverage.current() if coverage and item.get_closest_marker("ui") else None
    if running is not None:
        running.stop()
    try:
        yield
    finally:
        if running is not None:
            running.start()


@pytest.fixture(autouse=True)
def _hang_watch() -> Iterator[None]:
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(autouse=True)
def _isolated_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every config, data and log directory at a fresh temporary folder."""
    home = tmp_path / "profile"
    monkeypatch.setenv("GATEWAY_CONSOLE_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def rsa_key() -> rsa.RSAPrivateKey:
    """One 2048-bit key for the whole run (generation is slow)."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="session")
def other_rsa_key() -> rsa.RSAPrivateKey:
    """A second key, for "signed with the wrong key" cases."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture
def key_file(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> Path:
    """``rsa_key`` as an unencrypted PEM file (PKCS#1, as the contract names it)."""
    path = tmp_path / "merchant.pem"
    path.write_bytes(
        rsa_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    return path


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[object]:
    """A fresh in-memory keyring (Windows-sized entries) for every test: never the real one."""
    import keyring

    from tests.helpers.memkeyring import WINDOWS_LIMIT, MemoryKeyring

    backend = MemoryKeyring(limit=WINDOWS_LIMIT)
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(MemoryKeyring(limit=WINDOWS_LIMIT))
