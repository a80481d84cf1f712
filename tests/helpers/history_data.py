"""Requests and answers for journal tests, built with the real client, spec and decoder."""

from __future__ import annotations

import time
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.client import Outcome
from console.core.errors import OutcomeUnknownError
from console.core.gateway_identity import gateway_for
from console.core.history import History
from console.core.paths import resolve
from console.core.prepared import PreparedRequest, prepare
from console.core.responses import decode
from console.core.spec import example_values, get_command

BASE_URL = "https://gateway.example/paynet"


def env_base_url(env: str) -> str:
    """The address of a gateway of its own for each environment name (two names, two
    gateways: the double-payout guard is keyed on the gateway, not on the name)."""
    return f"https://{env}.gateway.example/paynet"


def env_gateway(env: str, command: str = "payout-check") -> str:
    """The identity of :func:`env_base_url`'s gateway, as the journal records it."""
    return gateway_for(command, base_url=env_base_url(env), login="acme", endpoint_id="1234")


def prepared(
    key: rsa.RSAPrivateKey,
    command: str = "payout-check",
    *,
    base_url: str = BASE_URL,
    login: str = "acme",
    endpoint_id: str = "1234",
    **values: str,
) -> PreparedRequest:
    """A signed request: the command's example values, with ``values`` replacing some."""
    fields = example_values(command)
    fields.update({k.replace("__", "-"): v for k, v in values.items()})
    req = prepare(
        command,
        fields,
        base_url=base_url,
        login=login,
        private_key=key,
        endpoint_id=endpoint_id,
        nonce="fixed-nonce",
        timestamp=1700000000,
    )
    assert req.signed is not None, req.problems
    return req


def prepared_for(env: Any, key: rsa.RSAPrivateKey, **values: str) -> PreparedRequest:
    """A payout signed for ``env`` (an environment): what its window would have sent."""
    return prepared(
        key, base_url=env.base_url, login=env.login, endpoint_id=env.endpoint_id, **values
    )


def answered(req: PreparedRequest, body: str, status: int = 200) -> Outcome:
    """The outcome of ``req`` answered with a form body (``name=value`` per line)."""
    raw = "".join(f"{line}\n&" for line in body.split("&")).rstrip("&").encode()
    response = decode(
        status,
        {"Content-Type": "text/html;charset=utf-8"},
        raw,
        expected_type=get_command(req.command).success_type,
    )
    return Outcome(req, response, None, 0.25, time.time())


def lost(req: PreparedRequest) -> Outcome:
    """The outcome of ``req`` when the answer never came (read timeout)."""
    error = OutcomeUnknownError("No answer within 60 s; the request may have arrived.", req.url)
    return Outcome(req, None, error, 60.0, time.time())


def journal_rows() -> int:
    """How many requests the journal at the configured path holds (0: none written yet)."""
    path = resolve().history_db
    if not path.exists():
        return 0
    with History(path) as history:
        return len(history.fetch())
