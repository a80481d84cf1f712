"""What one send through the pipeline leaves behind: how long its pending row counts as on its
way (the timeouts the request was sent with, and a margin), the connection to the gateway
closed unless its owner keeps it, and an answer the journal could not store told to the
person."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history import History
from console.core.history.interrupted import IN_FLIGHT_MARGIN
from console.core.pipeline import Decision, Pipeline, Sent
from console.core.transport import Timeouts, Transport
from tests.helpers.history_data import prepared
from tests.helpers.http_server import Reply, TestServer, serve

ACCEPTED = b"type=async-response&serial-number=s&gateway-order-id=77\n"
FORM = {"Content-Type": "text/html;charset=utf-8"}


class CountedTransport(Transport):
    """The real transport, counting how often its connections were closed."""

    def __init__(self) -> None:
        super().__init__()
        self.closed = 0

    def close(self) -> None:
        self.closed += 1
        super().close()


@pytest.fixture
def gateway() -> Iterator[TestServer]:
    with serve(lambda _r: Reply(200, ACCEPTED, FORM)) as server:
        yield server


def _send(
    history: History, gateway: TestServer, key: rsa.RSAPrivateKey, order: str = "po-1", **kw: Any
) -> Sent:
    pipeline = Pipeline(
        "sb",
        gateway=lambda _command: None,
        production=False,
        journal=history,
        transport=kw.pop("transport", Transport),
        **kw,
    )
    return pipeline.send(prepared(key, base_url=gateway.url, client_orderid=order), Decision())


def _window(history: History) -> float:
    """Seconds after it was written that the one row counts as possibly still on its way."""
    with history.reading() as db:
        created, deadline = db.execute("SELECT created, deadline FROM requests").fetchone()
    return float(deadline - created)


def test_a_pending_row_is_on_its_way_for_the_connect_and_read_timeouts_and_a_margin(
    gateway: TestServer, rsa_key: rsa.RSAPrivateKey
) -> None:
    # shorter than this and another console takes a send still waiting for its answer for
    # interrupted (outcome unknown) while the gateway may still accept it
    with History() as history:
        sent = _send(history, gateway, rsa_key, connect_timeout=7.0, read_timeout=130.0)
        assert str(sent.result) == "accepted"
        assert _window(history) == pytest.approx(7.0 + 130.0 + IN_FLIGHT_MARGIN)


def test_without_timeouts_given_a_row_is_on_its_way_as_long_as_a_transport_waits(
    gateway: TestServer, rsa_key: rsa.RSAPrivateKey
) -> None:
    waits = Timeouts()  # what a transport made without timeouts waits
    with History() as history:
        _send(history, gateway, rsa_key)
        assert _window(history) == pytest.approx(waits.connect + waits.read + IN_FLIGHT_MARGIN)


def test_the_connection_to_the_gateway_is_closed_after_each_send(
    gateway: TestServer, rsa_key: rsa.RSAPrivateKey
) -> None:
    transport = CountedTransport()
    with History() as history:
        for order in ("po-1", "po-2"):
            _send(history, gateway, rsa_key, order, transport=lambda: transport)
    assert transport.closed == 2


def test_a_transport_its_owner_keeps_stays_open(
    gateway: TestServer, rsa_key: rsa.RSAPrivateKey
) -> None:
    transport = CountedTransport()
    with History() as history:
        _send(history, gateway, rsa_key, transport=lambda: transport, close_transport=False)
    assert transport.closed == 0


def test_an_answer_the_journal_could_not_store_is_shown_and_the_failure_told(
    gateway: TestServer, rsa_key: rsa.RSAPrivateKey
) -> None:
    with History() as history:
        with history.writing() as db:  # storing the answer (an update of its row) fails
            db.execute(
                "CREATE TRIGGER no_answers BEFORE UPDATE ON requests"
                " BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
            )
        sent = _send(history, gateway, rsa_key)
        assert str(sent.result) == "accepted"  # the person still sees the answer
        assert isinstance(sent.journal_error, sqlite3.Error)
        assert "disk I/O error" in str(sent.journal_error)
        with history.reading() as db:  # the row stays pending: outcome unknown at next start
            assert db.execute("SELECT outcome FROM requests").fetchone()[0] == "pending"


def test_an_answer_stored_tells_of_no_failure(
    gateway: TestServer, rsa_key: rsa.RSAPrivateKey
) -> None:
    with History() as history:
        assert _send(history, gateway, rsa_key).journal_error is None
