"""Guards against Qt for Python releases whose signal delivery corrupts reference counts.

PySide6 6.12.0 drops a reference to the arguments of every emitted signal: after enough
``Signal(bool)`` emissions Python aborts at exit ("bool_dealloc"), and a ``clicked`` slot
that takes no argument kills the process at once ("none_dealloc"). pyproject.toml keeps
that release out; these tests fail if a release like it comes back in.
"""

from __future__ import annotations

import sys
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QPushButton


class _Emitter(QObject):
    flag = Signal(bool)


def test_bool_signal_keeps_reference_counts(qtbot: Any) -> None:
    emitter = _Emitter()
    seen: list[bool] = []
    emitter.flag.connect(lambda value: seen.append(value))
    before = sys.getrefcount(True)
    for _ in range(500):
        emitter.flag.emit(True)
    seen.clear()
    assert abs(sys.getrefcount(True) - before) < 50  # the broken release loses 500


def test_clicked_slot_without_arguments_keeps_reference_counts(qtbot: Any) -> None:
    button = QPushButton("Send")
    qtbot.addWidget(button)
    clicks: list[int] = []
    button.clicked.connect(lambda: clicks.append(1))
    before = sys.getrefcount(None)
    for _ in range(200):
        button.click()
    assert len(clicks) == 200
    assert abs(sys.getrefcount(None) - before) < 50
