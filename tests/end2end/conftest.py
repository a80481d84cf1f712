"""Fixtures for end-to-end tests: a running local sandbox whose demo merchant signs with the
session's test key, and the command-line options that reach it as that merchant."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.sandbox import SandboxHandle
from tests.helpers.sandbox_client import pem_of, start


@pytest.fixture
def sandbox(rsa_key: rsa.RSAPrivateKey) -> Iterator[SandboxHandle]:
    """A sandbox on a free port: payouts final at once, quick callback retries."""
    handle = start(rsa_key)
    try:
        yield handle
    finally:
        handle.stop()


@pytest.fixture
def conn(sandbox: SandboxHandle, tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> list[str]:
    """``--base-url``, ``--login``, ``--endpoint-id`` and ``--key-file`` of the demo merchant."""
    key = tmp_path / "demo.pem"
    key.write_bytes(pem_of(rsa_key))
    demo = sandbox.demo
    return [
        "--base-url", sandbox.base_url, "--login", demo.login,
        "--endpoint-id", str(demo.endpoint_id), "--key-file", str(key),
    ]  # fmt: skip
