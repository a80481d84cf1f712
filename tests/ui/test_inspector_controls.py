"""The Request tab's controls say what they do and are off with nothing to act on."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtGui import QGuiApplication

from console.ui.inspector.dock import InspectorDock
from console.ui.main_window import MainWindow
from tests.helpers.history_data import prepared


def test_copy_as_curl_and_copy_as_code_are_off_with_nothing_prepared(qtbot: Any) -> None:
    dock = InspectorDock()
    qtbot.addWidget(dock)
    request = dock.request
    assert not request.curl.copy_button.isEnabled()
    assert not request.code.button.isEnabledTo(dock)


def test_reveal_says_hide_once_revealed(qtbot: Any, rsa_key: Any) -> None:
    dock = InspectorDock()
    qtbot.addWidget(dock)
    dock.show_prepared(prepared(rsa_key))
    button = dock.request.reveal
    assert button.text() == "Reveal card data"
    button.click()
    assert button.text() == "Hide card data"
    button.click()
    assert button.text() == "Reveal card data"
    button.click()
    dock.show_prepared(prepared(rsa_key))  # the next request starts masked again
    assert button.text() == "Reveal card data"


def test_a_switch_leaves_no_copy_control_on_and_no_copied_line(
    qtbot: Any, window: MainWindow
) -> None:
    window.fill_example()
    window.panel.send()
    qtbot.waitUntil(lambda: window.inspector.prepared is not None, timeout=10_000)
    code = window.inspector.request.code
    code.language.setCurrentIndex(code.language.findData("go"))
    assert code.copy() is not None
    assert "Copied a Go program" in code.note.text()
    QGuiApplication.clipboard().clear()
    env = window.session.environment
    assert env is not None

    window.session.use(dataclasses.replace(env, name="other"), window.session.private_key)
    assert not code.note.isVisible()
    assert not code.button.isEnabledTo(window)
    assert not window.inspector.request.curl.copy_button.isEnabled()
