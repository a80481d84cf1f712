"""Helpers for tests that talk to the local sandbox over HTTP.

Requests are signed with the console's signer (``console.core.signing``) or, for the
independent-client tests, with requests-oauthlib; the sandbox verifies with its own code.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.gateway_identity import gateway_for
from console.core.history import History
from console.core.pipeline import Pipeline
from console.core.signing import SignedRequest, sign
from console.core.spec import command_url
from console.core.transport import Transport
from console.sandbox import SandboxHandle, start_sandbox


def pem_of(key: rsa.RSAPrivateKey) -> bytes:
    """PKCS#8 PEM of a private key."""
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def public_pem_of(key: rsa.RSAPrivateKey) -> str:
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode("ascii")
    )


def start(key: rsa.RSAPrivateKey, **options: Any) -> SandboxHandle:
    """A sandbox on a free loopback port whose demo merchant signs with ``key``.

    Defaults for tests: no callback delay, fast callback retries.
    """
    options.setdefault("callback_delay", 0.0)
    options.setdefault("callback_backoff", 0.05)
    return start_sandbox(demo_key=key, **options)


def payouts(sandbox: SandboxHandle) -> Counter[str]:
    """client_orderid -> how many payout orders the sandbox holds for it."""
    with urllib.request.urlopen(sandbox.control_url + "/orders?kind=payout", timeout=10) as r:
        orders = json.load(r)
    return Counter(o["client_orderid"] for o in orders)


def kill_9_after_payouts(
    proc: subprocess.Popen[bytes], sandbox: SandboxHandle, count: int, poll: float
) -> None:
    """SIGKILL ``proc`` once the sandbox holds ``count`` payouts (or after a minute), checking
    every ``poll`` seconds; it is killed and reaped whatever happens here."""
    try:
        deadline = time.monotonic() + 60
        while sum(payouts(sandbox).values()) < count and time.monotonic() < deadline:
            time.sleep(poll)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()


def demo_pipeline(
    sandbox: SandboxHandle, key: rsa.RSAPrivateKey, journal: History
) -> tuple[Pipeline, dict[str, Any]]:
    """A pipeline to the sandbox's demo merchant signing with ``key``, journalled in
    ``journal``, and the connection settings it prepares requests with."""
    demo = sandbox.demo
    connection: dict[str, Any] = {
        "base_url": sandbox.base_url, "login": demo.login, "private_key": key,
        "endpoint_id": demo.endpoint_id,
    }  # fmt: skip
    pipeline = Pipeline(
        "sandbox",
        gateway=lambda command: gateway_for(command, **connection),
        production=False,
        journal=journal,
        transport=Transport,
    )
    return pipeline, connection


def url_for(
    handle: SandboxHandle, command: str, *, group: bool = False, ident: str | None = None
) -> str:
    """The contract URL of a command for the demo merchant (endpoint or group form)."""
    demo = handle.demo
    if group:
        return command_url(
            handle.base_url, command, endpoint_group_id=ident or demo.endpoint_group_id
        )
    return command_url(handle.base_url, command, endpoint_id=ident or demo.endpoint_id)


def signed_post(
    handle: SandboxHandle,
    command: str,
    params: list[tuple[str, str]] | Mapping[str, str],
    *,
    key: rsa.RSAPrivateKey,
    login: str | None = None,
    url: str | None = None,
    nonce: str | None = None,
    timestamp: int | None = None,
    session: requests.Session | None = None,
    timeout: float = 10.0,
) -> requests.Response:
    """Sign with the console's signer and POST; returns the raw HTTP response."""
    pairs = list(params.items()) if isinstance(params, Mapping) else list(params)
    signed = sign(
        url or url_for(handle, command),
        pairs,
        consumer_key=login or handle.demo.login,
        private_key=key,
        nonce=nonce,
        timestamp=timestamp,
    )
    poster = session or requests
    return poster.post(
        signed.url,
        data=signed.body.encode("utf-8"),
        headers=dict(signed.headers),
        timeout=timeout,
    )


def form_fields(response: requests.Response) -> dict[str, str]:
    """The fields of a form answer, line feeds stripped (a strict reader of the format)."""
    text = response.content.decode("utf-8")
    fields: dict[str, str] = {}
    for item in text.split("&"):
        name, sep, value = item.partition("=")
        assert sep, f"not name=value: {item!r}"
        assert value.endswith("\n"), f"value of {name} lacks its line feed"
        fields[requests.utils.unquote(name)] = requests.utils.unquote(value[:-1].replace("+", " "))
    return fields


def control(
    handle: SandboxHandle, method: str, path: str, body: Mapping[str, object] | None = None
) -> Any:
    """Call a ``/_sandbox`` control path; returns the decoded JSON (raises on HTTP errors)."""
    data = json.dumps(body).encode("utf-8") if body is not None else None
    request = urllib.request.Request(
        handle.control_url + path,
        data=data,
        method=method,
        headers={"Content-Type": "application/json"},
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        with exc:
            raise ControlRefusedError(exc.code, json.loads(exc.read())["error"]) from None


class ControlRefusedError(Exception):
    """A control path answered with an error status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message


def wait_for(predicate: Callable[[], object], timeout: float = 10.0, step: float = 0.02) -> Any:
    """Poll until ``predicate()`` is truthy and return its value; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(step)


def payout_values(client_orderid: str, **overrides: str) -> dict[str, str]:
    """A valid card payout (sandbox card, CVV2 123: approved) with loopback-free callbacks."""
    values = {
        "client_orderid": client_orderid,
        "amount": "10.00",
        "currency": "USD",
        "credit_card_number": "4444444444444448",
        "card_printed_name": "JOHN SMITH",
        "expire_month": "12",
        "expire_year": str(time.gmtime().tm_year + 3),
        "cvv2": "123",
    }
    values.update(overrides)
    return {k: v for k, v in values.items() if v != ""}


def signed_payouts(url: str, key: rsa.RSAPrivateKey, ids: Iterable[str]) -> list[SignedRequest]:
    """The demo merchant's payouts (:func:`payout_values`) to ``url``, one for each order id,
    signed with ``key``."""
    return [
        sign(url, list(payout_values(order_id).items()), consumer_key="demo", private_key=key)
        for order_id in ids
    ]
