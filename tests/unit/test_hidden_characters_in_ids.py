"""Ids that look alike: a client_orderid (or any id field) holding a character nobody sees
(U+200B, U+202E, U+FEFF), or one that breaks a line (U+0085, U+2028, U+2029), is refused at
every entrance with the code point and its position named; nothing is sent or journalled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import EXIT_INVALID
from console.core.spec import example_values, validate
from console.core.spec.hidden import ID_FIELDS
from tests.helpers.batch_files import card_row, write_csv
from tests.helpers.history_data import journal_rows
from tests.helpers.http_server import Reply, serve

FORM = {"Content-Type": "text/html;charset=utf-8"}
ASYNC_OK = b"type=async-response\n&merchant-order-id=p-1\n&gateway-order-id=9001\n"

HIDDEN = [
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\u200b", "U+200B ZERO WIDTH SPACE"),
    ("\u2028", "U+2028 LINE SEPARATOR"),
    ("\u2029", "U+2029 PARAGRAPH SEPARATOR"),
    ("\u0085", "U+0085 NEXT LINE"),
    ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("\u200f", "U+200F RIGHT-TO-LEFT MARK"),
]


def _errors(command: str, values: dict[str, str]) -> list[str]:
    return [p.message for p in validate(command, values) if p.severity == "error"]


@pytest.mark.parametrize(("char", "named"), HIDDEN)
def test_a_client_orderid_with_a_character_nobody_sees_is_refused_by_name(
    char: str, named: str
) -> None:
    values = {**example_values("payout-check"), "client_orderid": f"po-1{char}"}
    assert _errors("payout-check", values) == [
        f"client_orderid holds {named} at position 5: remove it (a character nobody sees "
        "makes a value look like another; values are sent exactly as given)."
    ]


@pytest.mark.parametrize(
    ("command", "name"),
    [
        ("payout-check", "card_recurring_payment_id"),
        ("payout-check", "customer_id"),
        ("create-card-ref", "orderid"),
        ("create-card-ref", "client_orderid"),
        ("create-recurring-payment", "client-orderid"),
        ("status", "by-request-sn"),
        ("status", "orderid"),
    ],
)
def test_every_id_field_refuses_them(command: str, name: str) -> None:
    assert name in ID_FIELDS
    values = {**example_values(command), name: "7\u200b1"}
    assert any(
        m.startswith(f"{name} holds U+200B ZERO WIDTH SPACE at position 2")
        for m in _errors(command, values)
    )


def test_a_line_separator_is_refused_anywhere_and_text_keeps_its_letters() -> None:
    values = {**example_values("payout-check"), "order_desc": "Caf\u00e9\u2028M\u00fcller"}
    assert _errors("payout-check", values) == [
        "order_desc holds U+2028 LINE SEPARATOR at position 5: remove it (a character nobody "
        "sees makes a value look like another; values are sent exactly as given)."
    ]
    values["order_desc"] = "Caf\u00e9 M\u00fcller \u05e9\u05dc\u05d5\u05dd"  # letters: fine
    assert _errors("payout-check", values) == []


def test_send_from_fields_and_a_fields_file_sends_and_journals_nothing(
    key_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fields = tmp_path / "fields.json"
    fields.write_text(json.dumps({"client_orderid": "po-1\u202e"}), encoding="utf-8")
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        base = ["send", "payout-check", "--base-url", server.url, "--login", "m"]
        base += ["--endpoint-id", "1", "--key-file", str(key_file)]
        for name, value in example_values("payout-check").items():
            base += ["-f", f"{name}={value}"] if name != "client_orderid" else []
        assert main([*base, "-f", "client_orderid=po\u200b-1"]) == EXIT_INVALID
        assert "client_orderid holds U+200B ZERO WIDTH SPACE at position 3" in (
            capsys.readouterr().err
        )
        assert main([*base, "--fields-file", str(fields)]) == EXIT_INVALID
        assert "U+202E RIGHT-TO-LEFT OVERRIDE at position 5" in capsys.readouterr().err
        assert server.received == []
    assert journal_rows() == 0


@pytest.mark.parametrize(("char", "named"), [HIDDEN[0], HIDDEN[2], HIDDEN[4]])
def test_a_batch_row_with_one_is_an_error_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str, named: str
) -> None:
    path = write_csv(tmp_path / "p.csv", [card_row("po-1"), card_row(f"po-2{char}")])
    assert main(["batch", "validate", str(path)]) == EXIT_INVALID
    out = capsys.readouterr().out
    assert f"client_orderid holds {named} at position 5" in out
