"""A real Secret Service for one test: gnome-keyring-daemon on a private D-Bus session bus.

The bus is a ``dbus-daemon`` of its own (a minimal configuration: no service activation, so
nothing but this daemon answers as ``org.freedesktop.secrets`` and an unlock prompt is
dismissed at once instead of waiting for a person). The daemon keeps its login keyring in the
test's temporary folder, created and unlocked with a throwaway password. Only the test that
asks for the fixture sees the bus: ``DBUS_SESSION_BUS_ADDRESS`` is set for it alone, and
keyring is pointed at its Secret Service backend in this process and in CLI subprocesses.

Tests skip with the reason when dbus-daemon or gnome-keyring-daemon is missing; in CI (``CI``
set) they fail instead, because ``.ci/run`` installs both.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SECRET_SERVICE_BACKEND = "keyring.backends.SecretService.Keyring"
_PASSWORD = b"login-keyring-test-password"
_BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={folder}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def require_tools() -> None:
    """Skip (fail in CI) unless the bus, the daemon and secretstorage are all here."""
    missing = [tool for tool in ("dbus-daemon", "gnome-keyring-daemon") if not shutil.which(tool)]
    try:
        import secretstorage  # noqa: F401  # keyring's Secret Service backend needs it
    except ImportError:
        missing.append("secretstorage (pip install -e '.[test]')")
    if missing:
        reason = (
            f"a real Secret Service needs {', '.join(missing)}: apt-get install gnome-keyring dbus"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the keyring tests against a real Secret Service: {reason}")
        pytest.skip(reason)


@dataclass
class SecretService:
    """A running gnome-keyring-daemon and the bus it answers on."""

    address: str
    keyrings: Path  # where the daemon keeps its (encrypted) keyring files

    @contextlib.contextmanager
    def collection(self) -> Iterator[object]:
        """The default collection (the login keyring), on a connection of its own."""
        import secretstorage

        with contextlib.closing(secretstorage.dbus_init()) as connection:
            yield secretstorage.get_default_collection(connection)

    def entries(self, service: str) -> dict[str, str]:
        """Every item of ``service``: user name -> secret (what keyring stored)."""
        with self.collection() as collection:
            return {
                item.get_attributes()["username"]: item.get_secret().decode()
                for item in collection.search_items({"service": service})  # type: ignore[attr-defined]
            }

    def names(self, service: str) -> set[str]:
        """The user names of ``service``'s items: readable while the keyring is locked."""
        with self.collection() as collection:
            return {
                item.get_attributes()["username"]
                for item in collection.search_items({"service": service})  # type: ignore[attr-defined]
            }

    def lock(self) -> None:
        """Lock the login keyring, as the desktop does after a timeout or on screen lock."""
        with self.collection() as collection:
            collection.lock()  # type: ignore[attr-defined]
            assert collection.is_locked()  # type: ignore[attr-defined]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            pipe.close()


def _wait_for_login_keyring(deadline: float, daemon: subprocess.Popen[bytes]) -> None:
    import secretstorage
    from secretstorage.exceptions import SecretStorageException

    while True:
        try:
            with contextlib.closing(secretstorage.dbus_init()) as connection:
                # the alias only: get_default_collection would ask to create one
                secretstorage.Collection(connection)
                return
        except (SecretStorageException, OSError):
            if daemon.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.fixture
def secret_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SecretService]:
    """A real Secret Service for this test; keyring (here and in subprocesses) uses it."""
    require_tools()
    folder = tmp_path / "secret-service"
    folder.mkdir()
    # The bus's socket lives here: a short path, since a Unix socket's path is capped at 107
    # bytes and a test's tmp_path (deeper under a parallel run's worker folder) can pass it.
    runtime = Path(tempfile.mkdtemp(prefix="gc-bus-"))
    config = folder / "bus.conf"
    config.write_text(_BUS_CONFIG.format(folder=runtime), encoding="utf-8")
    bus = subprocess.Popen(
        ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    daemon: subprocess.Popen[bytes] | None = None
    try:
        assert bus.stdout is not None
        address = bus.stdout.readline().decode().strip()
        assert address.startswith("unix:"), f"dbus-daemon printed no address ({address!r})"
        env = {
            **os.environ,
            "DBUS_SESSION_BUS_ADDRESS": address,
            "HOME": str(folder),
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_RUNTIME_DIR": str(runtime),
        }
        with (folder / "daemon.log").open("wb") as log:
            daemon = subprocess.Popen(
                ["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=log,
                env=env,
            )
        assert daemon.stdin is not None
        daemon.stdin.write(_PASSWORD)  # creates and unlocks the login keyring
        daemon.stdin.close()
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        monkeypatch.setenv("PYTHON_KEYRING_BACKEND", SECRET_SERVICE_BACKEND)
        _wait_for_login_keyring(time.monotonic() + 30, daemon)

        import keyring
        import keyring.core

        keyring.set_keyring(keyring.core.load_keyring(SECRET_SERVICE_BACKEND))
        yield SecretService(address, folder / "data" / "keyrings")
    finally:
        if daemon is not None:
            _stop(daemon)
        _stop(bus)
        shutil.rmtree(runtime, ignore_errors=True)
