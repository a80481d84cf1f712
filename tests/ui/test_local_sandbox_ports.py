"""The deployed-gateway callback-port warning (field notes) is not shown on the local sandbox."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLineEdit

from console.core.spec import validate
from console.core.spec.codes import Code
from console.ui.main_window import MainWindow


def test_no_callback_port_warning_on_the_local_sandbox(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.session.ready, timeout=15_000)
    window.fill_example()
    window.form.callback.set_key("server_callback_url")
    editor = window.form.rows["server_callback_url"].editor
    assert isinstance(editor, QLineEdit)
    editor.clear()
    qtbot.keyClicks(editor, "http://127.0.0.1:39999/callback")
    values = window.form.values()
    assert values["server_callback_url"] == "http://127.0.0.1:39999/callback"
    # the rule itself still warns: deployed gateways call back only on a few ports
    assert any(p.code == Code.CALLBACK_PORT for p in validate("payout-check", values))
    assert not any(p.code == Code.CALLBACK_PORT for p in window.panel.summary.problems)
