"""Fixtures for end-to-end tests: a running local sandbox whose demo merchant signs with the
session's test key."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.sandbox import SandboxHandle
from tests.helpers.sandbox_client import start


@pytest.fixture
def sandbox(rsa_key: rsa.RSAPrivateKey) -> Iterator[SandboxHandle]:
    """A sandbox on a free port: payouts final at once, quick callback retries."""
    handle = start(rsa_key)
    yield handle
    handle.stop()
