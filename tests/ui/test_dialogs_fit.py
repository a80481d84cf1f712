"""Every dialog fits a 1024x700 screen: opened from the window as a person opens it, its
frame (buttons included) lies within the screen."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QRect, QSize

from tests.helpers.every_dialog import MENU_DIALOGS, small_screen_env

ROOT = Path(__file__).resolve().parents[2]


def test_every_dialog_lies_within_a_1024x700_screen(tmp_path: Path) -> None:
    # a process of its own: the offscreen platform is told its screen's size at start
    env = small_screen_env(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "tests.helpers.every_dialog", "light"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    found = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert {d["dialog"] for d in found} == {*MENU_DIALOGS, "banner-details"}
    for dialog in found:
        assert dialog["frame"] is not None, f"{dialog['dialog']} did not open"
        screen = QRect(*dialog["screen"])
        assert screen.size() == QSize(1024, 700)
        assert screen.contains(QRect(*dialog["frame"])), f"{dialog['dialog']} at {dialog['frame']}"
