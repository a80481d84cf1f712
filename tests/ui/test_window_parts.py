"""The window's background work and what never blocks it: one task manager whose failures are
never dropped and whose closing is bounded; the duplicate look-up per keystroke and the
keyring read of an environment switch run off the GUI thread; a typed callback address on
this computer that nobody listens at is said."""

from __future__ import annotations

import threading
import time
from typing import Any

from PySide6.QtCore import QCoreApplication

from console.core.vault import Vault
from console.ui.main_window import MainWindow
from console.ui.tasks import TaskManager
from tests.helpers.history_data import answered, prepared_for


def _boom() -> None:
    raise RuntimeError("the disk went away")


def test_a_background_failure_nobody_handles_is_shown_not_dropped(
    qtbot: Any, window: MainWindow
) -> None:
    window.tasks.run(_boom, lambda _result: None)
    qtbot.waitUntil(lambda: "the disk went away" in window.statusBar().currentMessage())
    assert "failed" in window.statusBar().currentMessage()


def test_closing_waits_a_bounded_time_and_drops_work_not_started(qtbot: Any) -> None:
    tasks = TaskManager()
    ran: list[str] = []
    release = threading.Event()
    tasks.run(lambda: release.wait(5), lambda _r: None, lane="journal")
    tasks.run(lambda: ran.append("queued"), lambda _r: None, lane="journal")  # behind it
    started = time.monotonic()
    assert tasks.shutdown(300) is False  # still running after 300 ms: said, not waited out
    assert time.monotonic() - started < 2
    assert tasks.run(lambda: ran.append("late"), lambda _r: None) is False
    release.set()
    assert tasks.wait(5_000)
    QCoreApplication.processEvents()
    assert ran == []  # neither the queued job nor one asked for after closing ran


def test_the_duplicate_lookup_per_keystroke_is_off_the_gui_thread(
    qtbot: Any, window: MainWindow, monkeypatch: Any, rsa_key: Any
) -> None:
    import console.core.pipeline as pipeline  # the window's guard asks through it

    env = window.session.environment
    assert env is not None
    hooks = window.journal.history.journal(env.name)  # accepted from another console
    req = prepared_for(env, rsa_key, client_orderid="dup-thread-1")
    hooks.after_answer(
        hooks.before_send(req),
        answered(req, "type=async-response&serial-number=s&gateway-order-id=77"),
    )
    window.show_command("payout-check")
    window.fill_example()
    threads: list[str] = []
    real = pipeline.verdict_for

    def recording(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(pipeline, "verdict_for", recording)
    window.form.rows["client_orderid"].set_text("dup-thread-")
    window.form.rows["client_orderid"].set_text("dup-thread-1")
    qtbot.waitUntil(lambda: window.panel.guard.note.isVisible())
    assert not window.panel.send_button.isEnabled()
    assert threads
    assert threading.main_thread().name not in threads


def test_switching_environment_reads_the_key_off_the_gui_thread(
    qtbot: Any, window: MainWindow, monkeypatch: Any, rsa_key: Any
) -> None:
    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    dialog.new_environment()
    dialog.form.name.setText("acme-sb")
    dialog.form.base_url.setText("https://sandbox.gateway.example/paynet")
    dialog.form.login.setText("acme")
    dialog.form.endpoint_id.setText("1111")
    assert dialog.save()
    qtbot.waitUntil(lambda: "Saved acme-sb." in dialog.message.text())
    Vault().store_key("acme-sb", rsa_key)
    secrets = window.secrets
    threads: list[str] = []
    real = secrets.connection

    def recording(name: str) -> Any:
        threads.append(threading.current_thread().name)
        return real(name)

    monkeypatch.setattr(secrets, "connection", recording)
    said: list[str] = []
    window.environment_menu.activate("acme-sb", said.append)
    assert not window.session.ready  # the window answers at once; the key follows
    qtbot.waitUntil(lambda: window.session.ready)
    assert said == [""]
    assert threads
    assert threading.main_thread().name not in threads


def test_a_typed_callback_address_on_this_computer_without_listener_is_said(
    qtbot: Any, window: MainWindow
) -> None:
    window.show_command("payout-check")
    window.fill_example()
    window.form.load(
        {"@callback": "server_callback_url", "server_callback_url": "http://127.0.0.1:9/cb"}
    )
    codes = [p.code for p in window.panel.summary.problems]
    assert "callback-unheard" in codes
    text = " ".join(p.message for p in window.panel.summary.problems)
    assert "127.0.0.1:9" in text
    assert "final status will not arrive" in text
    window.form.load({"@callback": "listener"})  # this console's listener: nothing to say
    assert "callback-unheard" not in [p.code for p in window.panel.summary.problems]
