"""A running local sandbox: start it, its demo merchant, its controls (see the package)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.addresses import is_loopback_host
from console.sandbox import logsafe
from console.sandbox.app import Sandbox
from console.sandbox.auth import DEFAULT_WINDOW
from console.sandbox.control import PREFIX
from console.sandbox.faults import Faults
from console.sandbox.merchants import MerchantInfo
from console.sandbox.seeds import Seed, seed_first_payment
from console.sandbox.server import SandboxServer

__all__ = ["DemoMerchant", "SandboxHandle", "start_sandbox"]

log = logging.getLogger("console.sandbox")
logsafe.install(log)  # what clients send is logged escaped and cut
DEMO_LOGIN = "demo"
DEMO_ENDPOINT_ID = "1001"
DEMO_ENDPOINT_GROUP_ID = "2001"


@dataclass(frozen=True, slots=True)
class DemoMerchant:
    """The merchant every sandbox starts with. Its private key is kept in memory only."""

    login: str
    endpoint_id: str
    endpoint_group_id: str
    private_key: rsa.RSAPrivateKey
    public_key_pem: str

    @property
    def private_key_pem(self) -> bytes:
        """The private key as unencrypted PKCS#8 PEM (for a key file the person asked for)."""
        return self.private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )


def _demo(key: rsa.RSAPrivateKey | None) -> DemoMerchant:
    if key is None:
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return DemoMerchant(
        DEMO_LOGIN, DEMO_ENDPOINT_ID, DEMO_ENDPOINT_GROUP_ID, key, public_pem.decode("ascii")
    )


class SandboxHandle:
    """A running sandbox: its addresses, its demo merchant and its controls."""

    def __init__(self, sandbox: Sandbox, server: SandboxServer, demo: DemoMerchant | None) -> None:
        self.sandbox = sandbox
        self._demo = demo
        self._server = server
        self.origin = server.origin
        self.base_url = server.origin + "/paynet"
        self.control_url = server.origin + PREFIX
        server.start()
        self._stopped = False

    @property
    def demo(self) -> DemoMerchant:
        """The demo merchant. Raises LookupError: started without it (its own merchant)."""
        if self._demo is None:
            raise LookupError("This sandbox was started without the demo merchant.")
        return self._demo

    def add_merchant(
        self,
        login: str,
        public_key_pem: str | bytes,
        endpoint_id: str,
        endpoint_group_id: str | None = None,
    ) -> MerchantInfo:
        """Register a merchant (or another endpoint of one). Raises ValueError."""
        return self.sandbox.merchants.add(login, public_key_pem, endpoint_id, endpoint_group_id)

    def set_faults(self, spec: str | None) -> Faults:
        """Inject faults (see ``console.sandbox.faults``); None clears. Raises ValueError."""
        return self.sandbox.set_faults(spec)

    def advance_clock(self, *, days: float = 0, seconds: float = 0) -> list[int]:
        """Move the sandbox clock forward; returns the order ids of the charges made."""
        return self.sandbox.advance_clock(days=days, seconds=seconds)

    def seed_first_payment(self, client_orderid: str, **fields: str | int) -> int:
        """Add a first payment for create-card-ref; returns its orderid.

        Keyword fields as :class:`console.sandbox.seeds.Seed` (orderid, status, card_number,
        dst_card_number, amount, currency). Raises ValueError.
        """
        seed = Seed(
            orderid=int(fields.get("orderid", 0)),
            client_orderid=client_orderid,
            status=str(fields.get("status", "approved")),
            card_number=str(fields.get("card_number", "4444444444444448")),
            dst_card_number=str(fields.get("dst_card_number", "")),
            amount=str(fields.get("amount", "10.00")),
            currency=str(fields.get("currency", "USD")),
        )
        return seed_first_payment(self.sandbox.db, self.sandbox.ids, seed).orderid

    def idle(self) -> bool:
        """True when no order, callback or retry is waiting (for tests)."""
        return self.sandbox.scheduler.idle()

    def ask_to_stop(self) -> None:
        """Begin stopping the server (new connections refused, answers in progress end);
        :meth:`stop` then finishes sooner."""
        if not self._stopped:
            self._server.ask_to_stop()

    def stop(self) -> None:
        """Stop serving, close every connection and background task, close the state."""
        if self._stopped:
            return
        self._stopped = True
        self._server.shutdown()
        self.sandbox.stop()
        log.info("sandbox at %s stopped", self.origin)

    def __enter__(self) -> SandboxHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_sandbox(
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    state_path: str | Path | None = None,
    callback_delay: float = 2.0,
    faults: str | None = None,
    merchant_control: str | None = None,
    demo_key: rsa.RSAPrivateKey | None = None,
    demo_merchant: bool = True,
    auth_window: float = DEFAULT_WINDOW,
    callback_attempts: int = 5,
    callback_backoff: float = 1.0,
    remote_callbacks: bool = False,
) -> SandboxHandle:
    """Start a sandbox in this process on ``host:port`` (port 0: a free one).

    Args:
        state_path: a SQLite file that keeps orders, profiles and seeds across restarts.
        callback_delay: seconds a payout stays ``processing`` (0: final at once).
        faults: a fault spec (``console.sandbox.faults``).
        merchant_control: the secret for the callbacks' ``control`` parameter.
        demo_key: the demo merchant's private key (a key loaded once, by whoever read it:
            the sandbox only takes its public half); a fresh 2048-bit key when None.
        demo_merchant: register the demo merchant (False: the caller adds its own, so the
            demo's login and endpoint ids stay free for it).
        auth_window: seconds an oauth_timestamp may differ from real time.
        callback_attempts: tries per callback before giving up.
        callback_backoff: seconds before the second try; each next wait doubles.
        remote_callbacks: also call back addresses that are not on this machine.

    Raises:
        ValueError: a bad fault spec. ``console.sandbox.state.StateError``: an
            unusable state file. OSError: the address cannot be bound.
    """
    if not is_loopback_host(host):
        log.warning(
            "the sandbox listens on %s, which is not a loopback address: other "
            "machines can reach it and its unauthenticated control paths",
            host,
        )
    sandbox = Sandbox(
        state_path=state_path,
        callback_delay=callback_delay,
        faults=faults,
        merchant_control=merchant_control,
        auth_window=auth_window,
        callback_attempts=callback_attempts,
        callback_backoff=callback_backoff,
        remote_callbacks=remote_callbacks,
    )
    try:
        demo = _demo(demo_key) if demo_merchant else None
        if demo is not None:
            sandbox.merchants.add(
                demo.login, demo.public_key_pem, demo.endpoint_id, demo.endpoint_group_id
            )
        server = SandboxServer((host, port), sandbox)
    except BaseException:
        sandbox.stop()
        raise
    sandbox.start()
    try:
        handle = SandboxHandle(sandbox, server, demo)
    except BaseException:
        server.shutdown()
        sandbox.stop()
        raise
    log.info("sandbox listening at %s", handle.base_url)
    return handle
