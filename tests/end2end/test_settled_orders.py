"""Once the gateway has said what became of an order, its client_orderid is spent: a payout
the gateway declined never goes on the wire again, from ``send`` or ``batch run``."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import EXIT_ALREADY_ACCEPTED, EXIT_REJECTED, EXIT_UNKNOWN
from console.sandbox import SandboxHandle
from tests.helpers.batch_files import PAN, card_row, write_csv
from tests.helpers.sandbox_client import payouts


def _payout(conn: list[str], order_id: str, *extra: str) -> list[str]:
    fields = {
        "client_orderid": order_id,
        "amount": "10.00",
        "currency": "EUR",
        "credit_card_number": PAN,
        "card_printed_name": "JOHN SMITH",
        "expire_month": "12",
        "expire_year": "2030",
        "cvv2": "101",
        "ipaddress": "203.0.113.10",
    }  # fmt: skip  (CVV2 101: the sandbox declines it, expired card)
    args = ["send", "payout-check", *conn, *extra]
    for name, value in fields.items():
        args += ["-f", f"{name}={value}"]
    return args


def test_a_payout_declined_after_an_unknown_outcome_is_never_sent_again(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.set_faults("payout-check:drop")  # the connection breaks after the order is made
    assert main(_payout(conn, "dec-1")) == EXIT_UNKNOWN
    sandbox.set_faults(None)
    assert main(["send", "status", *conn, "-f", "client_orderid=dec-1"]) == EXIT_REJECTED
    assert "declined" in capsys.readouterr().out.lower()

    # send: refused like an accepted id, even with --resend-unknown, and nothing leaves
    for extra in ((), ("--resend-unknown",)):
        assert main(_payout(conn, "dec-1", *extra)) == EXIT_ALREADY_ACCEPTED
        err = capsys.readouterr().err
        assert "Already sent and declined (status declined)" in err
        assert "use a new client_orderid" in err
    # batch run: the row is skipped as declined before, with or without --resend-unknown
    path = write_csv(tmp_path / "again.csv", [card_row("dec-1", cvv2="101"), card_row("ok-1")])
    for extra in ((), ("--resend-unknown",)):
        main(["batch", "run", str(path), *conn, *extra])
        assert "1 declined before (skipped)" in capsys.readouterr().out
    assert payouts(sandbox) == Counter({"dec-1": 1, "ok-1": 1})
    with (tmp_path / "again.results.csv").open(encoding="utf-8") as fh:
        out = {row["client_orderid"]: row for row in csv.DictReader(fh)}
    assert out["dec-1"]["final_status"] == "declined"
    assert out["dec-1"]["gateway_order_id"]
    assert "expired" in out["dec-1"]["error"].lower()


def test_a_resend_the_gateway_refuses_as_a_duplicate_keeps_the_first_orders_facts(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--resend-unknown`` without a status check: the sandbox's duplicate check (202)
    refuses the resend; the results file never says "rejected" (not paid) for the row, and
    after a check it holds the first order's id and decline reason."""
    path = write_csv(tmp_path / "p.csv", [card_row("dup-1", cvv2="101")])
    sandbox.set_faults("payout-check:drop")
    main(["batch", "run", str(path), *conn])
    sandbox.set_faults(None)
    main(["batch", "run", str(path), *conn, "--resend-unknown"])
    assert payouts(sandbox) == Counter({"dup-1": 1})
    results = tmp_path / "p.results.csv"
    with results.open(encoding="utf-8") as fh:
        row = next(csv.DictReader(fh))
    assert row["outcome"] == "unknown"
    assert "already used" in row["error"]  # the gateway's words, with what to do
    assert "batch status --check" in row["error"]

    main(["batch", "status", str(path), *conn, "--check"])
    with results.open(encoding="utf-8") as fh:
        row = next(csv.DictReader(fh))
    assert (row["outcome"], row["final_status"]) == ("accepted", "declined")
    assert row["gateway_order_id"]
    assert "expired card" in row["error"].lower()
