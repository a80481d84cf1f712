"""The window with a journal that cannot be opened: it opens at once, says why, where the
file is and what to do, keeps Send off, and still starts the built-in sandbox; environments
and keys can still be managed."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtWidgets import QLabel, QMenu, QPushButton

from console.core.paths import resolve
from console.ui.environments_dialog import EnvironmentsDialog
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


def test_environments_and_keys_can_be_managed_without_the_journal(
    qtbot: Any, make_window: Callable[..., MainWindow], damaged: bytes
) -> None:
    """The way out of a journal that cannot be opened may be another profile's settings or
    a key: the Environment menu does not wait for the journal."""
    window = make_window()
    qtbot.waitUntil(lambda: window.journal_part.problem is not None, timeout=5000)
    menu = window.menuBar().findChildren(QMenu)
    environment = next(m for m in menu if m.title() == "&Environment")
    titles = [a.text() for a in environment.actions()]
    assert titles == ["&Manage environments…", "&Keys…"]
    window.actions_by_name["environments"].trigger()
    dialog = window.findChild(EnvironmentsDialog)
    assert dialog is not None
    assert dialog.isVisible()
    listed = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert any(name.startswith("local-sandbox") for name in listed)
    dialog.close()
