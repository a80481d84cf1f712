"""What the window's start does without, and does right after its first paint: reading the
source of its own modules (PySide6's import statement does that for every module loaded
after it), walks of the cycle collector over objects that all stay, and building the form's
rows below the first picture."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from console.core.paths import resolve
from console.ui.app import build_window, make_app
from console.ui.forms.field_widgets import FieldRow
from console.ui.forms.generator import CommandForm

SOURCES_READ = """
import linecache, sys
import console.cli.gui_cmd
import console.ui.app
read = sorted(name for name in linecache.cache if "/console/" in name)
print(len(read), ",".join(read[:5]))
"""


def test_importing_the_window_reads_no_module_source() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SOURCES_READ], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.split()[0] == "0", out.stdout


COLLECTIONS = """
import gc, json
counted = []
gc.callbacks.append(lambda phase, info: phase == "stop" and counted.append(info["generation"]))
usual = gc.get_threshold()
import console.cli.gui_cmd
import console.ui.app
from PySide6.QtCore import QEvent, QObject, QTimer
from console.core.paths import resolve
from console.ui.app import build_window, make_app

class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            seen["before"] = len(counted)
            QTimer.singleShot(300, after)
        return False

def after():
    seen["pace"] = list(gc.get_threshold()) == list(usual)
    print(json.dumps(seen))
    app.quit()

seen = {}
app = make_app()
window = build_window(resolve())
spy = FirstPaint()
window.installEventFilter(spy)
window.show()
app.exec()
window.close()
"""


def test_the_cycle_collector_waits_for_the_first_paint(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GATEWAY_CONSOLE_HOME=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", COLLECTIONS], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    # dozens of walks over objects that all stay, before: a few at most (argparse's own)
    assert seen["before"] <= 8, seen
    assert seen["pace"] is True  # Python's usual pace once the window is up


def _shown_but_not_built(form: CommandForm) -> list[str]:
    return [n for n in form.rows.names if form.is_active(n) and not form.rows.is_built(n)]


def _visual_order(form: CommandForm) -> list[str]:
    """The shown rows' names in the order Tab and the eye go through them."""
    rows = [w for w in form.tab_stops() if isinstance(w, FieldRow)]
    return [r.field.name for r in rows if r.isVisibleTo(form)]


def test_rows_below_the_first_picture_come_right_after_it_and_work(qtbot: Any) -> None:
    make_app()
    window = build_window(resolve())
    qtbot.addWidget(window)
    try:
        form = window.form
        later = _shown_but_not_built(form)
        assert later, "every row was built before the first paint"
        last_first = [n for n in form.rows.names if form.rows.is_built(n)][-1]
        # what is loaded into a row not built yet is sent and kept as if it were there
        form.load({later[-1]: "kept-before-built"})
        assert form.values()[later[-1]] == "kept-before-built"

        window.show()
        # asked for before it was built (a problem clicked at once): there, and shown
        asked = form.rows[later[0]]
        assert asked.isVisibleTo(form)
        qtbot.waitUntil(lambda: not _shown_but_not_built(form), timeout=5000)
        row = form.rows[later[-1]]
        assert row.isVisibleTo(form)
        assert row.text() == "kept-before-built"
        assert form.draft()[later[-1]] == "kept-before-built"

        # Tab goes from the rows of the first picture on into the rows built after it
        order = _visual_order(form)
        assert set(later) <= set(order)
        window.activateWindow()
        qtbot.waitActive(window)
        before = min(order.index(n) for n in later) - 1
        start = form.rows[order[before]].editor
        start.setFocus()
        qtbot.keyClick(start, Qt.Key.Key_Tab)
        focused = QApplication.focusWidget()
        assert focused is not None
        assert focused.objectName() == f"field:{order[before + 1]}"
        assert last_first in order  # the first picture's rows are still there
    finally:
        window.close()
