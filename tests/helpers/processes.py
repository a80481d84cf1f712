"""Whole-process measurements for the benchmarks: seconds and the process's own peak memory.

The peak is the process's own (VmHWM, read as it exits): the kernel's maximum resident set of
a child also counts the test process it was forked from.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PEAK = r"""
import atexit, runpy, sys

def peak(path=sys.argv[1]):
    with open("/proc/self/status") as status, open(path, "w") as out:
        out.write(next(l for l in status if l.startswith("VmHWM:")).split()[1])

atexit.register(peak)
sys.argv = sys.argv[2:]
if sys.argv[0] == "-m":
    sys.argv = sys.argv[1:]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
else:
    runpy.run_path(sys.argv[0], run_name="__main__")
"""


def timed_process(args: list[str], env: dict[str, str], peak_file: Path) -> tuple[float, float]:
    """Seconds and peak resident megabytes of one process running ``python ARGS``, which
    must end well."""
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(peak_file), *args],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    return time.perf_counter() - t0, int(peak_file.read_text()) / 1024
