"""Every reading of an amount gives the exact Decimal the text writes, or refuses it naming
the value meant: the core's reader (console.core.money), the contract's checks, batch totals,
the schedule preview, team thresholds, batch limits and the command line agree on each text.
"""

from __future__ import annotations

import argparse
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from console.cli import arg_types, main
from console.core.batch import read_batch
from console.core.batch.source import Row
from console.core.batch.totals import Total, count_row
from console.core.money import MoneyFactError, amount_or_none, read_amount
from console.core.schedule import amount_rule_from
from console.core.spec import validate
from console.core.team import inputs
from console.core.team.errors import TeamSetupError

# texts near amounts: digits, points, commas, exponents, signs, spaces, other scripts' digits
_ALPHABET = st.sampled_from(  # with exponents of many digits: Decimal refuses them
    [*"0123456789.,eE+- _'٣٤\u00a0", "NaN", "Infinity", "0x1", "e99999999999999999999"]
)
texts = st.one_of(
    st.lists(_ALPHABET, max_size=14).map("".join),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.floats().map(repr),
)


def _exact(text: str) -> Decimal | None:
    """The value ``text`` writes in the contract's writing (digits, one optional point)."""
    value = text.strip()
    whole, _, decimals = value.partition(".")
    digits = whole.isascii() and whole.isdigit()
    if digits and (not _ or (decimals.isascii() and decimals.isdigit())):
        return Decimal(value)
    return None


def _every_reading(text: str) -> dict[str, Decimal | None]:
    read: dict[str, Decimal | None] = {}
    try:
        read["reader"] = read_amount(text)
    except MoneyFactError:
        read["reader"] = None
    read["totals"] = None
    totals: dict[str, Total] = {}
    count_row(totals, Row(2, {"amount": text, "currency": "EUR"}))
    if totals:
        read["totals"] = totals["EUR"].total
    rule = amount_rule_from({"amount": text})
    read["schedule"] = rule.amounts[0] if rule else None
    read["or_none"] = amount_or_none(text)
    return read


@settings(max_examples=400, deadline=None)
@given(texts)
def test_every_amount_reading_is_exact_or_refuses(text: str) -> None:
    exact = _exact(text)
    read = _every_reading(text)
    for where, value in read.items():
        assert value == exact, (where, text, value)
        if value is not None:  # the same decimals: 10.50 keeps its two
            written = text.strip().partition(".")[2]
            assert -value.as_tuple().exponent == len(written), (where, text)


@settings(max_examples=200, deadline=None)
@given(texts)
def test_the_command_line_and_team_thresholds_read_amounts_as_the_core_does(text: str) -> None:
    exact = _exact(text)
    try:
        cli: Decimal | None = arg_types.amount(text)
    except argparse.ArgumentTypeError:
        cli = None
    assert cli == (exact if exact else None)
    try:
        team: Decimal | None = Decimal(inputs.threshold("EUR", text))
    except TeamSetupError:
        team = None
    if team is not None:
        assert team == exact


@settings(max_examples=200, deadline=None)
@given(texts)
def test_the_contract_checks_take_an_amount_exactly_when_the_reader_does(text: str) -> None:
    if not text.strip():
        return  # not given: the contract says it is required
    # gold has no minor units: only the writing of the amount is checked
    problems = validate("payout-check", {"amount": text, "currency": "XAU"})
    amount_format = [
        p for p in problems if p.fields == ("amount",) and p.code in ("type", "format")
    ]
    sent_as_is = text == text.strip()
    if _exact(text) is not None and sent_as_is:
        assert not amount_format, text
    elif _exact(text) is None:
        assert amount_format, text


@pytest.mark.parametrize(
    ("text", "meant"),
    [("1E+3", "1000"), ("1e3", "1000"), ("47,11", "47.11"), ("1.234,50", "1234.50"), ("+5", "5")],
)
def test_a_refused_amount_names_the_value_meant(text: str, meant: str) -> None:
    with pytest.raises(MoneyFactError, match=f"write {meant} "):
        read_amount(text)


@pytest.mark.parametrize("text", ["1e99999999999999999999", "1e-99999999999999999", "-5", "NaN"])
def test_a_refused_amount_with_no_clear_meaning_is_refused_plainly(text: str) -> None:
    with pytest.raises(MoneyFactError, match="is not an amount: write digits"):
        read_amount(text)


def test_the_schedule_and_batch_totals_no_longer_take_an_exponent() -> None:
    assert amount_rule_from({"amount": "1E+3"}) is None
    totals: dict[str, Total] = {}
    count_row(totals, Row(2, {"amount": "1E+3", "currency": "EUR"}))
    assert totals == {}


def test_json_lines_numbers_are_read_as_written(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(
        '{"client_orderid": "j-1", "amount": 10.50, "currency": "EUR"}\n'
        '{"client_orderid": "j-2", "amount": 1E+3, "currency": "EUR"}\n'
        '{"client_orderid": "j-3", "amount": 0.1, "currency": "EUR"}\n',
        encoding="utf-8",
    )
    amounts = [row.values["amount"] for row in read_batch(path).rows]
    assert amounts == ["10.50", "1E+3", "0.1"]  # not 10.5 and 1000.0
    problems = validate("payout-check", {"amount": "1E+3", "currency": "EUR"})
    assert any("1E+3 reads as 1000. Write 1000." in p.message for p in problems)


def test_a_fields_file_number_is_read_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fields = tmp_path / "f.json"
    card = '"credit_card_number": "4444444444444448", "card_printed_name": "JOHN DOE"'
    rest = '"expire_month": "12", "expire_year": "2030", "cvv2": "123", "ipaddress": "192.0.2.1"'
    for amount, code in (("1E+3", 1), ("10.50", 0)):
        fields.write_text(
            f'{{"client_orderid": "f-1", "amount": {amount}, "currency": "EUR", {card}, {rest}}}',
            encoding="utf-8",
        )
        assert main(["validate", "payout-check", "--fields-file", str(fields)]) == code
    said = capsys.readouterr().out
    assert "1E+3 reads as 1000. Write 1000." in said  # not sent as 1000.0
