"""Requests, pipelines and a gateway stand-in for the team tests."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.pipeline import Pipeline
from console.core.prepared import PreparedRequest, prepare
from console.core.spec import example_values
from console.core.team.approvals.held import hold
from console.core.transport import Transport

FORM = {"Content-Type": "text/html;charset=utf-8"}
PAN = "4444444444444448"
NOWHERE = "http://127.0.0.1:9"  # a local gateway nobody answers on: nothing is sent there
CARD_FIELDS = ("credit_card_number", "cvv2", "card_printed_name", "expire_month", "expire_year")


def accepted(order: str = "p-1", gateway_id: str = "9001") -> bytes:
    return (
        f"type=async-response\n&merchant-order-id={order}\n&gateway-order-id={gateway_id}\n"
    ).encode()


def payout_values(order: str = "p-1", *, card: bool = False, **fields: str) -> dict[str, str]:
    """Payout fields: to a bank account, or (``card``) to a card with its CVV2."""
    values = example_values("payout-check")
    if not card:
        for name in CARD_FIELDS:
            values.pop(name)
        values["account_number"] = "40817810099910004312"
    values.update(client_orderid=order, **fields)
    return values


def prepared_payout(url: str, key: rsa.RSAPrivateKey, **kw: Any) -> PreparedRequest:
    return prepare_values(url, key, payout_values(**kw))


def prepare_values(url: str, key: rsa.RSAPrivateKey, values: dict[str, str]) -> PreparedRequest:
    return prepare(
        "payout-check", values, base_url=url, login="merchant", private_key=key, endpoint_id="1"
    )


def pipeline(
    journal: Any, environment: str = "prod", *, production: bool = True, gateway: str = ""
) -> Pipeline:
    """The pipeline of ``environment``; ``gateway``: the identity :meth:`Pipeline.verdict`
    looks up (sends use their own request's). On the team's journal its approval rule
    applies, as the fronts give it."""
    return Pipeline(
        environment,
        gateway=lambda _command: gateway,
        production=production,
        journal=journal,
        transport=Transport,
        holds=hold if getattr(journal, "shared", False) else None,
    )


@contextmanager
def silent_gateway() -> Iterator[str]:
    """A loopback address that takes requests and never answers (a send in flight)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for s in held:
            s.close()
        listener.close()


def register_policy(
    admin: Any,
    name: str,
    mode: str,
    thresholds: dict[str, str] | None = None,
    *,
    base_url: str = "http://127.0.0.1",
    login: str = "merchant",
    endpoint_id: str = "1",
    **policy: Any,
) -> None:
    """As an admin (``admin``: their TeamJournal): register the gateway ``name`` (once; by
    default every gateway on this computer that the test helpers' requests reach, whatever
    its port) and set its approval policy."""
    from console.core.team.approvals.registry import GatewayRegistry

    registry = GatewayRegistry(admin)
    if name not in {g.name for g in registry.listed()}:
        registry.add(name, base_url=base_url, login=login, endpoint_id=endpoint_id)
    registry.set_policy(name, mode, thresholds, **policy)


def register_environment(
    admin: Any, env: Any, mode: str, thresholds: dict[str, str] | None = None
) -> None:
    """As an admin: register the gateway environment ``env`` reaches, under its name, and set
    its approval policy."""
    register_policy(
        admin,
        env.name,
        mode,
        thresholds,
        base_url=env.base_url,
        login=env.login,
        endpoint_id=env.endpoint_id,
    )


def audit_entries(db: Any) -> list[tuple[str, str, str]]:
    """The team database ``db``'s audit trail as (actor, action, detail), read by its owner."""
    from console.core.team import Approvals, TeamJournal

    with TeamJournal(db.dsn()) as owner:
        return [(a.actor, a.action, a.detail) for a in Approvals(owner).audit()]


def prod_policy(db: Any, mode: str = "all", **kw: Any) -> None:
    """The team's gateway "prod" registered with approval ``mode`` (and ``kw``: thresholds,
    its base URL ...), by the team database ``db``'s first admin."""
    from console.core.team import TeamJournal

    with TeamJournal(db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", mode, **kw)
