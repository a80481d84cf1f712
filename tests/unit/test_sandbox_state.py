"""--state FILE: everything survives a restart; bad files are refused clearly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.sandbox.app import Sandbox
from console.sandbox.calls import Call
from console.sandbox.records import Callback, CardRef, Order, Profile
from console.sandbox.seeds import SEEDS
from console.sandbox.state import SCHEMA_VERSION, Database, StateError
from tests.helpers.sandbox_client import public_pem_of, wait_for


def call(command: str, **values: str) -> Call:
    return Call(command, "demo", "1001", values, "sn-1")


def test_state_survives_a_restart(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> None:
    path = tmp_path / "sandbox.sqlite3"
    first = Sandbox(state_path=path, callback_delay=0)
    first.merchants.add("demo", public_pem_of(rsa_key), "1001", "2001")
    answer = dict(
        first.commands.run(
            call(
                "payout-check",
                client_orderid="p-1",
                amount="10.00",
                currency="USD",
                credit_card_number="4444444444444448",
                cvv2="116",
                merchant_data="keep me",
            )
        )
    )
    card_ref = dict(
        first.commands.run(
            call("create-card-ref", orderid="9000001", client_orderid="first-payment-1")
        )
    )
    first.advance_clock(days=2)
    first.stop()

    second = Sandbox(state_path=path, callback_delay=0)
    try:
        assert second.merchants.public_key("demo") is not None
        assert second.clock.offset == pytest.approx(2 * 86400, abs=1)
        order = second.db.get(Order, int(answer["gateway-order-id"]))
        assert order is not None
        assert (order.status, order.merchant_data, order.masked_pan) == (
            "declined",
            "keep me",
            "444444******4448",
        )
        again = dict(
            second.commands.run(
                call("payout-check", client_orderid="p-1", amount="10.00", currency="USD")
            )
        )
        assert again["type"] == "error"
        assert answer["gateway-order-id"] in again["error-message"]
        # the same card reference, and counters that go on instead of starting over
        assert dict(
            second.commands.run(
                call("create-card-ref", orderid="9000001", client_orderid="first-payment-1")
            )
        ) == {**card_ref, "serial-number": "sn-1"}
        assert len(second.db.select(CardRef)) == 1
        new = dict(
            second.commands.run(
                call("payout-check", client_orderid="p-2", amount="1.00", currency="USD")
            )
        )
        assert int(new["gateway-order-id"]) > int(answer["gateway-order-id"])
        assert len(second.db.select(Order, "kind = 'first-payment'")) == len(SEEDS)
    finally:
        second.stop()


def test_profiles_survive_and_keep_their_schedule(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    first = Sandbox(state_path=path)
    profile = dict(
        first.commands.run(
            call(
                "create-recurring-payment",
                **{
                    "client-orderid": "sub-1",
                    "amount": "5.00",
                    "currency": "USD",
                    "rp_card_type": "SRC",
                    "credit-card-number": "4444444444444448",
                    "period": "day",
                    "interval": "1",
                },
            )
        )
    )
    first.stop()
    second = Sandbox(state_path=path)
    try:
        rpi = int(profile["recurring-payment-id"])
        assert second.db.get(Profile, rpi) is not None
        assert len(second.advance_clock(days=2)) == 2  # charges 1 and 2; 0 was made on day 0
    finally:
        second.stop()


def test_without_state_nothing_is_kept(tmp_path: Path) -> None:
    first = Sandbox()
    first.commands.run(call("payout-check", client_orderid="p-1", amount="1.00", currency="USD"))
    first.stop()
    second = Sandbox()
    try:
        assert second.db.select(Order, "kind = 'payout'") == []
    finally:
        second.stop()


def test_a_file_of_another_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StateError, match="another sandbox version"):
        Database(path)


def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, but my notes\n" * 100)
    with pytest.raises(StateError, match="cannot be opened"):
        Database(path)
    assert path.read_text().startswith("not a database")  # left untouched


def test_work_left_pending_is_picked_up_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "pending.sqlite3"
    first = Sandbox(state_path=path, callback_delay=0.3, callback_backoff=0.05)
    answer = dict(
        first.commands.run(
            call(
                "payout-check",
                client_orderid="p-1",
                amount="1.00",
                currency="USD",
                server_callback_url="http://127.0.0.1:9/cb",
            )
        )
    )  # nothing listens on port 9
    first.stop()  # before the delay passed: still processing, no callback yet
    orderid = int(answer["gateway-order-id"])
    second = Sandbox(state_path=path, callback_attempts=2, callback_backoff=0.05)
    try:
        order = second.db.get(Order, orderid)
        assert order is not None
        assert order.status == "processing"
        second.start()
        wait_for(lambda: second.db.select(Callback, "state = 'failed'"))
        order = second.db.get(Order, orderid)
        assert order is not None
        assert order.status == "approved"
        [record] = second.db.select(Callback)
        assert record.attempts == 2  # tried, retried, given up: bounded
    finally:
        second.stop()


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("127.0.0.1", "http://127.0.0.1:8085"),
        ("0.0.0.0", "http://127.0.0.1:8085"),
        ("::", "http://[::1]:8085"),
        ("::1", "http://[::1]:8085"),
        ("192.0.2.7", "http://192.0.2.7:8085"),
    ],
)
def test_the_printed_address_is_one_a_client_can_use(host: str, origin: str) -> None:
    from console.sandbox.server import origin_for

    assert origin_for(host, 8085) == origin
