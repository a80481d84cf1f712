"""On a 403 for a bad signature, the sandbox log names the client's mistake."""

from __future__ import annotations

import logging
import time

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.sandbox import SandboxHandle
from tests.helpers.mistaken_signer import sign
from tests.helpers.sandbox_client import payout_values, url_for


@pytest.mark.parametrize(
    ("mistake", "words"),
    [
        ("plus-for-space", "the client encoded spaces as + (form encoding)"),
        ("js-encodeuricomponent", "encodeURIComponent"),
    ],
)
def test_sandbox_log_names_the_diagnosed_mistake(
    sandbox: SandboxHandle,
    rsa_key: rsa.RSAPrivateKey,
    caplog: pytest.LogCaptureFixture,
    mistake: str,
    words: str,
) -> None:
    values = payout_values("lab-1", order_desc="Refund (partial) for you!")
    wire = sign(
        url_for(sandbox, "payout-check"),
        list(values.items()),
        rsa_key,
        mistake=mistake,
        login=sandbox.demo.login,
        timestamp=int(time.time()),
    )
    with caplog.at_level(logging.WARNING, logger="console.sandbox"):
        response = requests.post(
            wire.url,
            data=wire.body.encode(),
            headers={
                "Authorization": wire.authorization,
                "Content-Type": "application/x-www-form-urlencoded",
            },
            timeout=10,
        )
    assert response.status_code == 403
    assert words in caplog.text
    assert f"({mistake})" in caplog.text
    assert "the sandbox signed this base string" in caplog.text
