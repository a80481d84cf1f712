"""Every dialog of the window, opened as a person opens it, on a screen of a given size.

Run in a process of its own, whose offscreen platform is told the screen's size
(:func:`small_screen_env`): ``python -m tests.helpers.every_dialog [THEME [FOLDER]]``
prints one JSON line a dialog (its name, its frame on the screen, the screen) and, with a
folder, saves a picture of each (``scripts/screenshots.sh`` renders the docs' ones so).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from console.core.paths import resolve
from console.ui.app import build_window, make_app

# What opens a dialog, by the name its picture gets: a menu action, or a button.
MENU_DIALOGS = {
    "environments": "environments",
    "keys": "keys",
    "batch-payouts": "batch",
    "signature-lab": "signature-lab",
    "import-curl": "import-curl",
    "keyboard-shortcuts": "shortcuts",
    "about": "about",
}


def small_screen_env(folder: Path, width: int = 1024, height: int = 700) -> dict[str, str]:
    """Environment variables for a child process whose offscreen screen is ``width`` x
    ``height`` (Qt's offscreen platform reads the screens from a JSON file)."""
    config = folder / f"screen-{width}x{height}.json"
    screen = {"name": "small", "x": 0, "y": 0, "width": width, "height": height}
    config.write_text(json.dumps({"windowFrameMargins": True, "screens": [screen]}))
    return {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}


def _new_dialog(before: set[int]) -> QDialog | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.isVisible() and id(widget) not in before:
            return widget
    return None


def visit(open_it: Callable[[], object], seen: Callable[[QDialog], None]) -> bool:
    """Open a dialog (``open_it``), hand it to ``seen`` once shown, then close it; modal
    ones too (the visit runs inside their own event loop). False when none opened."""
    before = {id(w) for w in QApplication.topLevelWidgets() if w.isVisible()}
    done: list[bool] = []

    def look(tries: int = 0) -> None:
        dialog = _new_dialog(before)
        if dialog is None:
            if tries < 200:
                QTimer.singleShot(25, lambda: look(tries + 1))
            else:
                done.append(False)
            return
        QTest.qWait(200)  # laid out and painted
        seen(dialog)
        dialog.reject()
        done.append(True)

    QTimer.singleShot(0, open_it)
    QTimer.singleShot(25, look)
    while not done:
        QTest.qWait(25)
    return done[0]


def openers(window: QWidget) -> Iterator[tuple[str, Callable[[], object]]]:
    """(name, how to open it) for each dialog of the window."""
    actions = window.actions_by_name  # type: ignore[attr-defined]
    for name, action in MENU_DIALOGS.items():
        yield name, actions[action].trigger
    yield "banner-details", window.banner.details_button.click  # type: ignore[attr-defined]


def main(theme: str = "light", folder: str = "") -> None:
    """Open every dialog; print where each lies; save its picture into ``folder``."""
    os.environ["GATEWAY_CONSOLE_THEME"] = theme  # read by make_app
    app = make_app()
    window = build_window(resolve())
    window.persist_drafts = False
    window.show()
    if not window.wait_ready(30_000):
        raise SystemExit("the local sandbox did not start")
    screen = app.primaryScreen().availableGeometry()
    window.banner.details_button.setVisible(True)
    for name, open_it in openers(window):

        def seen(dialog: QDialog, name: str = name) -> None:
            frame = dialog.frameGeometry()
            where = [frame.x(), frame.y(), frame.width(), frame.height()]
            box = [screen.x(), screen.y(), screen.width(), screen.height()]
            print(json.dumps({"dialog": name, "frame": where, "screen": box}), flush=True)
            if folder:
                dialog.grab().save(str(Path(folder) / f"dialog-{name}-{theme}.png"), "PNG")

        if not visit(open_it, seen):
            print(json.dumps({"dialog": name, "frame": None}), flush=True)
    window.close()


if __name__ == "__main__":
    main(*sys.argv[1:3])
