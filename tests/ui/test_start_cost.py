"""What the window's start does without, checked in fresh processes as ``gateway-console
gui`` starts: reading the source of its own modules (PySide6's import statement does that
for every module loaded after it)."""

from __future__ import annotations

import subprocess
import sys

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
