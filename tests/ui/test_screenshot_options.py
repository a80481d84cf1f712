"""``--screenshot`` with a theme and a window size, as scripts/screenshots.sh renders the forms."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLineEdit

from console.ui.app import screenshot
from console.ui.main_window import MainWindow

PAN = "4444444444444448"


def _shoot(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GATEWAY_CONSOLE_HOME=str(tmp_path))
    env.pop("GATEWAY_CONSOLE_THEME", None)
    return subprocess.run(
        [sys.executable, "-m", "console", "--screenshot", *options],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(("theme", "dark"), [("light", False), ("dark", True)])
def test_screenshot_in_a_theme_at_a_size(tmp_path: Path, theme: str, dark: bool) -> None:
    target = tmp_path / "shot.png"
    run = _shoot(
        tmp_path, str(target), "--command", "payout-check", "--theme", theme, "--size", "1024x700"
    )
    assert run.returncode == 0, run.stderr
    image = QImage(str(target))
    assert (image.width(), image.height()) == (1024, 700)
    # the window's margin, bottom left: the theme's window colour
    lightness = image.pixelColor(2, image.height() - 3).lightness()
    assert (lightness < 80) if dark else (lightness > 200), lightness


def test_screenshot_refuses_a_size_it_cannot_read(tmp_path: Path) -> None:
    run = _shoot(tmp_path, str(tmp_path / "x.png"), "--size", "1024")
    assert run.returncode == 2
    assert "1024x700" in run.stderr
    assert not (tmp_path / "x.png").exists()


def test_a_screenshot_shows_six_and_four_digits_of_a_card_number(
    make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window()
    window.show_command("payout-check")
    window.fill_example()
    window.persist_drafts = False
    assert screenshot(window, tmp_path / "shot.png")
    shown = [e.text() for e in window.findChildren(QLineEdit) if e.isVisible()]
    assert not [t for t in shown if PAN in t.replace(" ", "")]
    assert "444444******4448" in shown
