"""A finance person's recurring profile on the command line, against the local sandbox: the
charges it will make before it is created (``validate``) and afterwards (``send``), as text
and JSON; a status look-up before its first charge says that none exists yet and when the
first is due."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.failures import EXIT_NOT_FINAL, EXIT_OK
from console.core.spec import example_values
from console.sandbox import SandboxHandle
from tests.helpers.sandbox_client import pem_of


def profile_file(tmp_path: Path, start: date) -> Path:
    """A monthly profile from ``start``: 5.00, then 7.00 for its remaining charges."""
    values = example_values("create-recurring-payment", today=start)
    for name in ("amount", "amount-from", "amount-to", "finish-date"):
        values.pop(name, None)
    values.update(
        {
            "client-orderid": "rp-1",
            "start-date": start.strftime("%d.%m.%Y"),
            "period": "month",
            "interval": "1",
            "amount-sequence": "5.00,7.00",
            "max-repeats-number": "4",
            "currency": "EUR",
        }
    )
    values.pop("server_callback_url", None)
    values.pop("notify_url", None)
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(values), encoding="utf-8")
    return path


START = date(2031, 1, 31)  # a 31st: February's charge falls on its last day


def test_validate_shows_every_charge_with_its_rule_as_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fields = ["--fields-file", str(profile_file(tmp_path, START))]
    assert main(["validate", "create-recurring-payment", *fields]) == EXIT_OK
    said = capsys.readouterr().out
    assert "Schedule: 4 charges" in said
    lines = [line.split() for line in said.splitlines() if line.startswith("    ")]
    assert [(w[0], w[1], w[2]) for w in lines[:4]] == [
        ("1", "31.01.2031", "5.00"),
        ("2", "28.02.2031", "7.00"),
        ("3", "31.03.2031", "7.00"),
        ("4", "30.04.2031", "7.00"),
    ]
    assert "start date + 1 month (a shorter month: its last day); amount-sequence item 2" in said
    assert "the last amount-sequence item, repeated" in said
    assert "max-repeats-number ends the profile" in said

    assert main(["validate", "create-recurring-payment", *fields, "--json"]) == EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert out["problems"] == []
    charges = out["schedule"]["charges"]
    assert [(c["date"], c["amount"], c["currency"]) for c in charges] == [
        ("2031-01-31", "5.00", "EUR"),
        ("2031-02-28", "7.00", "EUR"),
        ("2031-03-31", "7.00", "EUR"),
        ("2031-04-30", "7.00", "EUR"),
    ]
    assert (out["schedule"]["count"], out["schedule"]["ends"]) == (4, "max-repeats")


def test_send_shows_the_schedule_and_status_before_the_first_charge_says_when_it_is_due(
    sandbox: SandboxHandle,
    conn: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    start = sandbox.sandbox.clock.today() + timedelta(days=10)
    fields = ["--fields-file", str(profile_file(tmp_path, start))]
    assert main(["send", "create-recurring-payment", *conn, *fields]) == EXIT_OK
    said = capsys.readouterr().out
    assert "-> ACCEPTED" in said
    assert f"  1  {start:%d.%m.%Y}" in said
    assert "Schedule: 4 charges" in said

    status = ["send", "status", *conn, "-f", "client_orderid=rp-1"]
    assert main(status) == EXIT_NOT_FINAL
    said = capsys.readouterr().out
    assert "No charge yet: recurring profile" in said
    assert f"makes its first charge on {start:%d.%m.%Y}" in said
    assert "REJECTED" not in said

    assert main([*status, "--json"]) == EXIT_NOT_FINAL
    out = json.loads(capsys.readouterr().out)
    assert (out["result"], out["first_charge"]) == ("no-charge-yet", start.isoformat())
    assert out["recurring_payment_id"]
    assert out["gateway_answer"]["result"] == "rejected"


def test_status_of_an_order_the_journal_does_not_know_as_a_profile_is_the_gateways_answer(
    sandbox: SandboxHandle, conn: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["send", "status", *conn, "-f", "client_orderid=nobody"]) == 3
    assert "REJECTED" in capsys.readouterr().out


def test_status_before_the_first_charge_answers_alike_with_an_environment(
    sandbox: SandboxHandle,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The path the docs lead to: a saved environment (its key given as a file), not the
    connection options: exit 18 and the date, never REJECTED 207."""
    key = tmp_path / "demo.pem"
    key.write_bytes(pem_of(rsa_key))
    demo = sandbox.demo
    assert (
        main(
            [
                "env",
                "add",
                "sb",
                "--kind",
                "sandbox",
                "--base-url",
                sandbox.base_url,
                "--login",
                demo.login,
                "--endpoint-id",
                str(demo.endpoint_id),
            ]
        )
        == EXIT_OK
    )
    conn = ["--env", "sb", "--key-file", str(key)]  # fmt: skip
    start = sandbox.sandbox.clock.today() + timedelta(days=10)
    fields = ["--fields-file", str(profile_file(tmp_path, start))]
    assert main(["send", "create-recurring-payment", *conn, *fields]) == EXIT_OK
    capsys.readouterr()
    assert main(["send", "status", *conn, "-f", "client_orderid=rp-1"]) == EXIT_NOT_FINAL
    said = capsys.readouterr().out
    assert f"makes its first charge on {start:%d.%m.%Y}" in said
    assert "REJECTED" not in said
