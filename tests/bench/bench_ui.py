"""Benchmarks of the window. Run with ``pytest -s tests/bench/bench_ui.py``.

Targets: start to shown-and-idle within 1.6x of a bare PySide6 QMainWindow start measured
in the same run (issue 22) and under 1 s; per-keystroke validation plus field-state update in
the payout form p99 under 8 ms; the idle window's memory (printed, next to the bare window's).

Starts are measured in fresh processes (the real first run: the local sandbox starts
in-process too), alternating real and bare so load on a shared machine hits both alike, and
both clocks stop the same way: when the event loop is idle after the window's first paint.
With a display (``DISPLAY`` set, e.g. Xvfb) both start on the real X platform, where fonts,
the window system and painting cost what they cost a person; without one, offscreen.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from typing import Any

import pytest

pytest.importorskip("PySide6")

START_RATIO = 1.6  # issue 22's goal
START_LIMIT_S = 1.0
KEYSTROKE_P99_MS = 8.0
RUNS = 7

# Both scripts stop the clock the same way: at the first moment the event loop is idle after
# the window's first paint has finished (a zero timer queued from that paint event runs once
# the paint and everything already posted are done). Measuring at the first zero timer after
# show() would stop the clock before anything was drawn.
_FIRST_PAINT = """
import sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
def rss_mb():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
    return 0.0
class FirstPaint(QObject):
    def __init__(self, window, then):
        super().__init__()
        self.then = then
        window.installEventFilter(self)
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self.then)
        return False
"""

BARE = (
    _FIRST_PAINT + "from PySide6.QtWidgets import QApplication, QMainWindow\n"
    "def idle():\n"
    "    print(f'{time.time():.6f} {rss_mb():.1f}', flush=True)\n"
    "    app.quit()\n"
    "app = QApplication(sys.argv[:1])\nw = QMainWindow()\nw.resize(1400, 900)\n"
    "painted = FirstPaint(w, idle)\nw.show()\napp.exec()\n"
)
REAL = (
    # the same start path as ``gateway-console`` (``run_app``): the command line, the window's
    # modules (the Qt-free ones before Qt, as console.ui arranges), records held for the log
    # file, the window; the log file opens after the first paint. The clock's own Qt imports
    # come after the window's, as nothing of them is in the real start.
    "import console.cli.gui_cmd\nimport console.ui.app\n"
    + _FIRST_PAINT
    + "from console.cli import build_parser\nfrom console.core import logs\n"
    "build_parser(('console.cli.gui_cmd',)).parse_args(['gui'])\n"
    "logs.hold()\n" + "from console.ui.app import build_window, make_app, open_log\n"
    "from console.core.paths import resolve\nfrom console.ui.startup import AfterFirstPaint\n"
    "def idle():\n"
    "    print(f'{time.time():.6f} {rss_mb():.1f}', flush=True)\n"
    "    poll.start(5)\n"
    "def ready():\n"
    "    if w.session.ready:\n"
    "        print(f'{time.time():.6f}', flush=True)\n"
    "        app.quit()\n"
    "app = make_app()\nw = build_window(resolve())\nAfterFirstPaint(w, open_log)\n"
    "poll = QTimer()\npoll.timeout.connect(ready)\n"
    "painted = FirstPaint(w, idle)\nw.show()\napp.exec()\nw.close()\n"
)


SANDBOX_READY: list[float] = []


def _start(script: str, env: dict[str, str]) -> tuple[float, float]:
    t0 = time.time()
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split()
    if len(out) > 2:  # the real window also reports when the local sandbox was ready
        SANDBOX_READY.append(float(out[2]) - t0)
    return float(out[0]) - t0, float(out[1])


def _percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.99) - 1]


def test_start_to_idle_against_bare_qmainwindow(tmp_path: Any) -> None:
    platform = "xcb" if os.environ.get("DISPLAY") else "offscreen"
    env = dict(os.environ, QT_QPA_PLATFORM=platform, GATEWAY_CONSOLE_HOME=str(tmp_path))
    # An installed application has its bytecode; compiling every module on each start
    # would measure the compiler. The cache goes to a temporary folder, not the tree.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")
    _start(BARE, env)  # warm the file cache for both
    _start(REAL, env)
    bare, real, bare_mem, real_mem = [], [], [], []
    for i in range(RUNS):
        order = (BARE, REAL) if i % 2 == 0 else (REAL, BARE)
        for script in order:
            seconds, mem = _start(script, env)
            (bare if script is BARE else real).append(seconds)
            (bare_mem if script is BARE else real_mem).append(mem)
    b, r = statistics.median(bare), statistics.median(real)
    print(
        f"\nstart to idle ({platform}, medians of {RUNS}): window {r * 1000:.0f} ms, "
        f"bare QMainWindow {b * 1000:.0f} ms, ratio {r / b:.2f} (goal <= {START_RATIO}, "
        f"and < {START_LIMIT_S * 1000:.0f} ms)"
    )
    print(
        "local sandbox started on a worker and ready to send: "
        f"{statistics.median(SANDBOX_READY) * 1000:.0f} ms after launch"
    )
    print(
        f"idle memory (RSS): window {statistics.median(real_mem):.0f} MB, "
        f"bare {statistics.median(bare_mem):.0f} MB"
    )
    assert r / b <= START_RATIO
    assert r < START_LIMIT_S


def test_keystroke_validation_p99(qtbot: Any) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    from console.core.paths import resolve
    from console.ui.app import build_window, make_app

    make_app()
    window = build_window(resolve())
    qtbot.addWidget(window)
    window.show()
    try:
        window.fill_example()
        editors = [window.form.rows[n].editor for n in ("order_desc", "amount", "purpose")]
        samples: list[float] = []
        cpu: list[float] = []
        for i in range(600):
            editor = editors[(i // 2) % len(editors)]
            assert isinstance(editor, QLineEdit)
            before = editor.text()
            # type a digit, then delete it: every keystroke changes the text
            key = Qt.Key.Key_Backspace if i % 2 else Qt.Key.Key_1
            t0, c0 = time.perf_counter(), time.thread_time()
            qtbot.keyClick(editor, key)  # validate + field states + summary, synchronously
            samples.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
            assert editor.text() != before
        wall50, wall99 = _percentiles(samples)
        cpu50, cpu99 = _percentiles(cpu)
        print(
            f"\npayout keystroke, wall clock: p50 {wall50:.2f} ms, p99 {wall99:.2f} ms; "
            f"GUI thread CPU: p50 {cpu50:.2f} ms, p99 {cpu99:.2f} ms "
            f"(target p99 < {KEYSTROKE_P99_MS} ms)"
        )
        # The verdict uses the GUI thread's own CPU time: on a shared machine the wall clock
        # also counts time slices given to other processes, which no code change can remove.
        assert cpu99 < KEYSTROKE_P99_MS
    finally:
        window.close()
        window.session.stop_sandbox()
