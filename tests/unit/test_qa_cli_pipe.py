"""The command line piped into a reader that stops early (``| head -1``): no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

RUN = "import sys; from console.cli import main; sys.exit(main())"
ARGS = ["validate", "payout-check", "-f", "amount=10,50"]  # an error: exit status 1


def _run_into_closed_pipe(args: list[str], *, unbuffered: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is already gone when the first line is written
    try:
        return subprocess.run(
            [sys.executable, "-c", RUN, *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env=env,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize("json_output", [False, True])
def test_buffered_output_into_a_closed_pipe_keeps_the_exit_status(json_output: bool) -> None:
    done = _run_into_closed_pipe(ARGS + ["--json"] * json_output, unbuffered=False)
    assert "Traceback" not in done.stderr
    assert "BrokenPipeError" not in done.stderr
    assert done.returncode == 1


def test_a_pipe_closed_while_writing_ends_quietly_like_sigpipe() -> None:
    done = _run_into_closed_pipe(ARGS, unbuffered=True)
    assert "Traceback" not in done.stderr
    assert "BrokenPipeError" not in done.stderr
    assert done.returncode == 141
