"""Qt's offscreen noise is dropped; every other Qt message still reaches its handler."""

from __future__ import annotations

from typing import Any

import pytest

from console.ui import qt_messages


def test_only_the_size_hint_noise_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    monkeypatch.setattr(qt_messages, "_previous", lambda _k, _c, m: seen.append(m))
    context: Any = None
    for message in (
        "This plugin does not support propagateSizeHints()",
        "QWidget::setLayout: already has a layout",
        "This plugin does not support raise()",
    ):
        qt_messages._handle(qt_messages.QtMsgType.QtWarningMsg, context, message)
    assert seen == [
        "QWidget::setLayout: already has a layout",
        "This plugin does not support raise()",
    ]
