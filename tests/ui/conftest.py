"""Window tests: offscreen Qt, the real window, the real in-process sandbox."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from console.core.paths import resolve
from console.ui.app import build_window, make_app
from console.ui.main_window import MainWindow

# The offscreen platform warns about window size hints it cannot pass on; not our bug.
_QT_NOISE = r"propagateSizeHints|QFont::|This plugin does not support"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.ui)
            item.add_marker(pytest.mark.qt_log_ignore(_QT_NOISE))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """The windows a test closed are deleted before the next test, not at its first wait:
    every widget still alive is visited by each palette the next window's theme sets."""
    yield
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture(scope="session")
def _sandbox_demo_key() -> Any:
    """A key of its own for the built-in sandbox's demo merchant (never the tests' other keys,
    so "signed with another key" cases stay other)."""
    from console.core.keys import generate_private_key

    return generate_private_key(2048)


@pytest.fixture(autouse=True)
def _one_sandbox_key(_sandbox_demo_key: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every window's built-in sandbox gets that one key instead of a new 2048-bit key at
    each start (about 75 ms of CPU each, for hundreds of windows)."""
    monkeypatch.setattr("console.ui.session.sandbox_key", lambda: _sandbox_demo_key)


@pytest.fixture
def make_window(qtbot: Any) -> Iterator[Callable[..., MainWindow]]:
    """Build the real main window (first run: local sandbox in-process); closed after."""
    made: list[MainWindow] = []

    def factory(*, ready: bool = True, **kw: Any) -> MainWindow:
        make_app()
        window = build_window(resolve(), **kw)
        qtbot.addWidget(window)
        window.show()
        made.append(window)
        if ready:
            assert window.wait_ready(30_000), "the local sandbox did not start"
        return window

    yield factory
    for window in made:
        window.close()  # waits for workers and stops the sandbox


@pytest.fixture
def window(make_window: Callable[..., MainWindow]) -> MainWindow:
    return make_window()


_KEYRING_CALLS = ("get", "set", "delete")


@pytest.fixture
def keyring_threads(monkeypatch: pytest.MonkeyPatch) -> list[threading.Thread]:
    """The thread of every OS keyring call from now on: opening it, and each read and write
    of an entry (clear the list to start counting later)."""
    from console.core.secret_store import KeyringStore

    seen: list[threading.Thread] = []
    for name in ("__init__", *_KEYRING_CALLS):
        real = getattr(KeyringStore, name)

        def recording(self: KeyringStore, *args: Any, _real: Any = real, **kw: Any) -> Any:
            seen.append(threading.current_thread())
            return _real(self, *args, **kw)

        monkeypatch.setattr(KeyringStore, name, recording)
    return seen


@pytest.fixture
def slow_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """An OS keyring that answers a worker only once the event is set (as a locked keychain
    waits for its password). Calls from the GUI thread are answered at once: a test of the
    old behaviour fails on what it sees instead of hanging."""
    from console.core.secret_store import KeyringStore

    answer = threading.Event()
    for name in _KEYRING_CALLS:
        real = getattr(KeyringStore, name)

        def waiting(self: KeyringStore, *args: Any, _real: Any = real, **kw: Any) -> Any:
            if threading.current_thread() is not threading.main_thread():
                answer.wait(30)
            return _real(self, *args, **kw)

        monkeypatch.setattr(KeyringStore, name, waiting)
    yield answer
    answer.set()
