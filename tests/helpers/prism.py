"""Prism (npm @stoplight/prism-cli) mocking an OpenAPI description on a free port."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.helpers.runtimes import PRISM


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def prism_mock(description: Path) -> Iterator[str]:
    """``prism mock`` of ``description``; yields its base URL and stops it afterwards."""
    port = _free_port()
    log = description.with_suffix(".prism.log")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(PRISM), "mock", "--host", "127.0.0.1", "--port", str(port), str(description)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while b"Prism is listening" not in log.read_bytes():
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("prism did not start:\n" + log.read_text(errors="replace"))
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)
