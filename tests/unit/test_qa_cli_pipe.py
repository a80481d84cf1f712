"""The command line piped into a reader that stops early (``| head -1``): no traceback."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from console.core.spec import example_values
from tests.helpers.http_server import Reply, serve

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


RUNS = 12  # head leaves at a different moment each run; a traceback showed within a few


def test_send_piped_into_head_never_prints_a_traceback(key_file: Path) -> None:
    """``send ... | head -1``: head leaves after the first line while the answer is still
    being printed, at a different moment each run."""
    ok = b"type=async-response\n&merchant-order-id=p-1\n&gateway-order-id=9001\n"
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    failures: list[str] = []
    with serve(lambda r: Reply(200, ok, {"Content-Type": "text/html;charset=utf-8"})) as server:
        for run in range(RUNS):
            args = [sys.executable, "-m", "console", "send", "payout-check"]
            args += ["--base-url", server.url, "--login", "m", "--endpoint-id", "1"]
            args += ["--key-file", str(key_file)]
            values = {**example_values("payout-check"), "client_orderid": f"pipe-{run}"}
            for name, value in values.items():
                args += ["-f", f"{name}={value}"]
            line = f"set -o pipefail; {shlex.join(args)} | head -1"
            done = subprocess.run(
                ["bash", "-c", line], capture_output=True, text=True, timeout=60, env=env
            )
            assert done.stdout.startswith("payout-check -> ACCEPTED")
            if "Traceback" in done.stderr or "BrokenPipeError" in done.stderr:
                failures.append(done.stderr)
            assert done.returncode in (0, 141)  # the answer all printed, or the reader left
        assert len(server.received) == RUNS
    assert failures == []
