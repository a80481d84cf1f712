"""The window with a journal that cannot be opened: it opens at once, says why, where the
file is and what to do, keeps Send off, and still starts the built-in sandbox."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtWidgets import QLabel, QPushButton

from console.core.paths import resolve
from console.ui.main_window import MainWindow
from console.ui.window.journal_part import NOTICE


@pytest.fixture
def damaged() -> bytes:
    path = resolve().history_db
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database" * 200)
    return path.read_bytes()


def test_the_window_says_the_journal_is_unavailable_and_does_not_send(
    qtbot: Any, make_window: Callable[..., MainWindow], damaged: bytes
) -> None:
    started = time.monotonic()
    window = make_window()  # the built-in sandbox still starts
    assert time.monotonic() - started < 10  # it used to sit on "Starting..." for 15 s
    notice = window.journal_part.notice
    assert notice is not None
    qtbot.waitUntil(notice.isVisible, timeout=5000)
    assert NOTICE in notice.findChildren(QLabel)[0].text()
    details = notice.findChild(QLabel, "journal-notice-details")
    assert details is not None
    assert not details.isVisible()  # short, details on demand
    notice.findChild(QPushButton).click()
    assert details.isVisible()
    path = str(resolve().history_db)
    assert path in details.text()
    assert "is damaged" in details.text()
    assert "Move it away" in details.text()

    window.fill_example()
    assert not window.panel.send_button.isEnabled()
    assert "is damaged" in window.panel.send_button.toolTip()
    window.actions_by_name["send"].trigger()  # the shortcut says why
    assert "history journal is unavailable" in window.panel.result.text()
    assert not window.sender_.sending
    assert resolve().history_db.read_bytes() == damaged  # never replaced
