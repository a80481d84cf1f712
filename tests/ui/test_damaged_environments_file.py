"""The environments file at start-up: damaged, the window opens on the local sandbox and says
where the file is and what to do (the file is left as it was); hand-edited to break a rule,
the environment is shown but nothing can be sent to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from console.core.environments import Environment, EnvironmentStore, EnvKind
from console.core.paths import resolve
from console.core.vault import Vault
from console.ui.main_window import MainWindow

DAMAGED = {
    "not UTF-8": b'{"schema": 1, "environments": [{"name": "caf\xe9"}]}',
    "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("content", DAMAGED.values(), ids=DAMAGED.keys())
def test_the_window_opens_and_names_the_damaged_file(
    qtbot: Any, make_window: Callable[..., MainWindow], content: bytes
) -> None:
    file = resolve().environments_file
    file.parent.mkdir(parents=True)
    file.write_bytes(content)
    window = make_window()  # the local sandbox starts and the window can send to it
    assert window.session.environment is not None
    assert window.session.environment.builtin
    shown = window.panel.result.text()
    assert "could not be read" in shown
    assert str(file) in shown
    assert "move it away" in shown
    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    assert str(file) in dialog.message.text()
    assert file.read_bytes() == content


def test_a_hand_edited_http_production_address_cannot_send(
    qtbot: Any, make_window: Callable[..., MainWindow], rsa_key: Any
) -> None:
    store = EnvironmentStore(resolve())
    prod = Environment("prod", EnvKind.PRODUCTION, "https://gw.example/paynet", "m", "1")
    store.add(prod)
    store.set_active("prod")
    Vault().store_key("prod", rsa_key)
    file = resolve().environments_file
    file.write_text(file.read_text("utf-8").replace("https://gw.", "http://gw."), "utf-8")
    window = make_window(ready=False)
    assert window.session.environment is not None
    assert window.session.environment.name == "prod"  # shown, so it can be fixed
    qtbot.waitUntil(lambda: "must use https" in window.session.problem)  # read on a worker
    assert window.session.private_key is None  # nothing can be signed or sent
    assert "base_url" in window.session.problem
    assert "must use https" in window.session.problem


def test_the_active_environments_key_is_read_off_the_gui_thread_at_start_up(
    qtbot: Any, make_window: Callable[..., MainWindow], rsa_key: Any, monkeypatch: Any
) -> None:
    import threading

    import console.ui.app as app

    store = EnvironmentStore(resolve())
    store.add(Environment("acme-sb", EnvKind.SANDBOX, "https://sb.gw.example/paynet", "m", "1"))
    store.set_active("acme-sb")
    Vault().store_key("acme-sb", rsa_key)
    threads: list[str] = []
    real = app.connect

    def recording(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(app, "connect", recording)
    window = make_window(ready=False)
    assert window.session.environment is not None
    assert window.session.environment.name == "acme-sb"  # shown at once
    qtbot.waitUntil(lambda: window.session.ready)
    assert threads
    assert threading.main_thread().name not in threads
