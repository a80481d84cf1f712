"""The window's first picture comes before what it does not show: the log file (and
``logging.handlers``), the inspector's tabs, the journal and its settings (team mode's menu),
the double-payout guard's rules and the send summary (asked once the journal is attached),
the gateway identity's IDNA tables and the confirmation dialogs load after the first paint
(or on first use), and nothing logged meanwhile is lost. Run as ``gateway-console gui``
runs, in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import argparse, json, logging, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
from console.core.paths import resolve
from console.ui.app import make_app, run_app
from console.ui.main_window import MainWindow

LATER = ("logging.handlers", "console.ui.inspector.request_tab", "console.ui.inspector.widgets",
         "console.ui.inspector.response_tab", "console.ui.inspector.signature_tab",
         "console.core.history", "console.ui.history.bridge", "console.core.journals",
         "console.ui.confirm", "console.core.pipeline.guard", "console.core.pipeline.summary",
         "console.core.gateway_identity", "idna")
seen = {}

class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and isinstance(watched, MainWindow) and not seen:
            seen["loaded"] = [m for m in LATER if m in sys.modules]
            seen["log_file"] = resolve().log_file.exists()
            logging.getLogger("console.test").warning("logged before the log file opened")
            QTimer.singleShot(300, after)
        return False

def after():
    for w in QApplication.topLevelWidgets():
        if isinstance(w, MainWindow):
            seen["request_tab"] = getattr(w.inspector, "_request", w.inspector.request) is not None
            w.close()
    seen["log"] = resolve().log_file.read_text(encoding="utf-8")
    print(json.dumps(seen))
    QApplication.instance().quit()

app = make_app()
spy = FirstPaint()
app.installEventFilter(spy)
run_app(argparse.Namespace())
"""


@pytest.fixture
def first_picture(tmp_path: Path) -> dict[str, object]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GATEWAY_CONSOLE_HOME=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_the_first_paint_comes_before_the_log_file_and_the_hidden_tabs(
    first_picture: dict[str, object],
) -> None:
    assert first_picture["loaded"] == []
    assert first_picture["log_file"] is False


def test_what_waited_for_the_first_paint_is_done_right_after_it(
    first_picture: dict[str, object],
) -> None:
    assert first_picture["request_tab"] is True
    log = str(first_picture["log"])
    assert "logged before the log file opened" in log  # held, then written
    assert "starting: Python" in log  # the start-up line
