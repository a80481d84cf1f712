"""Processes for the benchmarks: the sandbox in a process of its own, and whole-process
measurements (seconds and the process's own peak memory).

The peak is the process's own (VmHWM, read as it exits): the kernel's maximum resident set of
a child also counts the test process it was forked from.
"""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

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


class Measured(NamedTuple):
    seconds: float  # wall
    peak_mb: float  # the process's own peak resident set
    cpu: float  # user + system seconds of the process


def timed_process(args: list[str], env: dict[str, str], peak_file: Path) -> tuple[float, float]:
    """Seconds and peak resident megabytes of one process running ``python ARGS``, which
    must end well."""
    seconds, peak, _cpu = measured_process(args, env, peak_file)
    return seconds, peak


def measured_process(args: list[str], env: dict[str, str], peak_file: Path) -> Measured:
    """Wall seconds, peak resident megabytes and CPU seconds of one process running
    ``python ARGS``, which must end well (the CPU is the children's reaped meanwhile: run
    one at a time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(peak_file), *args],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Measured(seconds, int(peak_file.read_text()) / 1024, cpu)


# As `gateway-console sandbox` runs: a process of its own, every connection an open file.
_SANDBOX = """
import os, sys
from console.core.http_service import raise_file_limit
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from console.sandbox import start_sandbox
raise_file_limit()
key = load_pem_private_key(open(sys.argv[1], "rb").read(), None)
handle = start_sandbox(port=int(sys.argv[2]), callback_delay=0, demo_key=key,
                       faults=sys.argv[3] or None)
print(handle.origin, os.getpid(), flush=True)
sys.stdin.read()
handle.stop()
"""


class SandboxProcess(NamedTuple):
    origin: str  # http://127.0.0.1:PORT
    pid: int


@contextlib.contextmanager
def sandbox_process(key_file: Path, port: int = 0, faults: str = "") -> Iterator[SandboxProcess]:
    """The sandbox in its own process (callbacks at once, its demo merchant's key read from
    ``key_file``) on ``port`` (0: any free one) until the block ends; ``faults``: a fault
    spec (``latency=0.02``: every answer 20 ms late, waited without blocking the others)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _SANDBOX, str(key_file), str(port), faults],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        origin, pid = proc.stdout.readline().split()
        yield SandboxProcess(origin, int(pid))
    finally:
        proc.communicate(input="", timeout=30)
