"""Reading and checking a batch file: what a person sees in the validation table."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from console.core.batch import (
    TEMPLATES,
    BatchDecision,
    BatchFileError,
    BatchLimits,
    Plan,
    RowState,
    check_batch,
    read_batch,
    template_csv,
)
from console.core.batch.plan import BatchRefusedError, Refused
from console.core.pipeline import Seen, Verdict
from console.core.spec import validate
from console.core.spec.model import Severity
from tests.helpers.batch_files import HEADER, card_file, card_row, write_csv


def never_sent(order_id: str) -> Verdict:
    return Verdict(Seen.NEW, order_id)


def test_semicolons_and_aliases_are_read_as_contract_fields(tmp_path: Path) -> None:
    header = (*HEADER, "first_name", "last_name")
    path = write_csv(tmp_path / "p.csv", [[*card_row("a-1"), "Jane", "Doe"]], ";", header)
    batch = read_batch(path)
    assert batch.delimiter == ";"
    assert batch.problems == []
    assert batch.rows[0].number == 2
    assert batch.rows[0].values["receiver_first_name"] == "Jane"


def test_json_lines_are_read_one_payout_per_line(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(
        '{"client_orderid": "j-1", "amount": 12.5, "currency": "EUR", "account_number": "1"}\n'
        "\n"
        '["not", "an", "object"]\n'
        '{"client_orderid": "j-2", "colour": "red"}\n',
        encoding="utf-8",
    )
    batch = read_batch(path)
    assert [r.number for r in batch.rows] == [1]
    assert batch.rows[0].values["amount"] == "12.5"
    assert [(p.row, p.field) for p in batch.problems] == [(3, "(row)"), (4, "colour")]


def test_an_unknown_column_and_a_short_row_are_named(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("client_orderid,amount,colour\nx-1,10.00,red\nx-2,11.00\n", encoding="utf-8")
    validation = check_batch(read_batch(path), never_sent)
    assert validation.header_broken
    table = [(p.row, p.field) for p in validation.problems if p.severity is Severity.ERROR]
    assert (0, "colour") in table
    assert (3, "(row)") in table
    assert "is not a payout-check field or alias" in validation.problems[0].message


def test_a_file_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_bytes("client_orderid,amount\nx-1,10.00\nMüller,1\n".encode("latin-1"))
    with pytest.raises(BatchFileError, match="line 3 is not UTF-8"):
        read_batch(path)


def test_invalid_rows_duplicates_and_an_accepted_id(tmp_path: Path) -> None:
    rows = [
        card_row("ok-1"),
        card_row("dup", "11.00"),
        card_row("dup", "12.00"),
        card_row("bad-amount", "1,50"),
        card_row("sent-before", "99.00"),
        card_row("ok-2", "30.00", "USD"),
    ]
    path = write_csv(tmp_path / "p.csv", rows, ";")

    def journal(order_id: str) -> Verdict:
        if order_id == "sent-before":
            return Verdict(Seen.ACCEPTED, order_id, gateway_order_id="777")
        return Verdict(Seen.NEW, order_id)

    v = check_batch(read_batch(path), journal)
    states = {c.row.client_orderid + str(c.row.number): c.state for c in v.rows}
    assert states == {
        "ok-12": RowState.READY,
        "dup3": RowState.INVALID,
        "dup4": RowState.INVALID,
        "bad-amount5": RowState.INVALID,
        "sent-before6": RowState.ACCEPTED,
        "ok-27": RowState.READY,
    }
    assert v.error_rows == [3, 4, 5]
    dup = next(p for p in v.problems if p.row == 3 and p.field == "client_orderid")
    assert "also on row 4" in dup.message
    amount = next(p for p in v.problems if p.row == 5)
    assert amount.field == "amount"
    assert "decimal comma (47,11)" in amount.message  # the file's hint, the same on every row
    accepted = next(c for c in v.rows if c.state is RowState.ACCEPTED)
    assert "gateway order 777" in accepted.note
    assert {c: (t.count, t.total, t.largest) for c, t in v.totals.items()} == {
        "EUR": (1, Decimal("10.00"), Decimal("10.00")),
        "USD": (1, Decimal("30.00"), Decimal("30.00")),
    }
    plan = Plan(v, "test", False, BatchLimits(100))
    refusal = plan.refusal()
    assert refusal is not None
    assert refusal.code == Refused.INVALID
    assert "rows 3, 4, 5" in refusal.message
    skipping = Plan(v, "test", False, BatchLimits(100), skip_invalid=True)
    assert skipping.refusal() is None
    assert [c.row.client_orderid for c in skipping.to_send] == ["ok-1", "ok-2"]


def test_limits_refuse_too_many_rows_or_too_much_money(tmp_path: Path) -> None:
    v = check_batch(read_batch(card_file(tmp_path / "p.csv", 3)), never_sent)  # 10+11+12 EUR
    assert Plan(v, "live", True, BatchLimits(3, Decimal("33.00"))).refusal() is None
    rows = Plan(v, "live", True, BatchLimits(2)).refusal()
    assert rows is not None
    assert rows.code == Refused.OVER_LIMIT
    assert "(2 rows)" in rows.message
    money = Plan(v, "live", True, BatchLimits(10, Decimal("32.99"))).refusal()
    assert money is not None
    assert "EUR total 33.00" in money.message


def test_a_production_batch_needs_its_own_summary_confirmed(tmp_path: Path) -> None:
    v = check_batch(read_batch(card_file(tmp_path / "p.csv", 3)), never_sent)
    plan = Plan(v, "live", True, BatchLimits(10))
    lines = plan.summary.lines()
    assert "3 payouts" in lines[0]
    assert "PRODUCTION" in lines[0]
    assert "Total EUR: 33.00 in 3 payouts" in lines
    assert "Largest EUR payout: 12.00 EUR (row 4, card 444444******4448)" in lines
    with pytest.raises(BatchRefusedError) as refused:
        plan.authorize(BatchDecision())
    assert refused.value.code == Refused.NOT_CONFIRMED
    other = Plan(
        check_batch(read_batch(card_file(tmp_path / "q.csv", 4)), never_sent),
        "live",
        True,
        BatchLimits(10),
    )
    with pytest.raises(BatchRefusedError):  # a confirmation of another batch does not count
        plan.authorize(BatchDecision(confirmed=other.summary))
    decide = plan.authorize(BatchDecision(confirmed=plan.summary))
    assert decide(plan.to_send[0]).production_confirmed


@pytest.mark.parametrize("kind", sorted(TEMPLATES))
def test_every_template_is_a_valid_batch_of_its_receiver_type(kind: str, tmp_path: Path) -> None:
    path = tmp_path / f"{kind}.csv"
    path.write_text(template_csv(kind), encoding="utf-8")
    batch = read_batch(path)
    assert batch.problems == []
    problems = validate("payout-check", batch.rows[0].values)
    assert [p.message for p in problems if p.severity is Severity.ERROR] == []


def test_a_file_that_cannot_be_read_whole_sends_nothing_even_leaving_out_rows(
    tmp_path: Path,
) -> None:
    path = write_csv(tmp_path / "p.csv", [card_row("ok-1"), card_row("ok-2")])
    with path.open("a", encoding="utf-8") as fh:
        fh.write('cut-1,"10.00\n')  # a quote that never closes: the rest cannot be read
    v = check_batch(read_batch(path), never_sent)
    assert v.header_broken
    assert [p.field for p in v.problems if p.severity is Severity.ERROR] == ["(file)"]
    assert [r.row.client_orderid for r in v.rows] == ["ok-1", "ok-2"]
    refusal = Plan(v, "test", False, BatchLimits(100), skip_invalid=True).refusal()
    assert refusal is not None
    assert "cannot be read" in refusal.message


def test_validate_without_an_environment_checks_the_file_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from console.cli import main

    path = write_csv(tmp_path / "p.csv", [card_row("ok-1"), card_row("bad", "ten")], ";")
    assert main(["batch", "validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "amount" in out
    assert "The journal was not checked" in out


def test_a_card_number_written_in_groups_is_read_as_the_form_reads_it(tmp_path: Path) -> None:
    from console.core.money import card_number_digits

    grouped = card_row("grouped-1")
    grouped[3] = "4444 4444 4444 4448"  # as printed on the card, as the form accepts it
    dashed = card_row("dashed-1", "11.00")
    dashed[3] = "4444-4444-4444-4448"
    typo = card_row("typo-1", "12.00")
    typo[3] = "4444 4444 4444 444B"  # not a card number in groups: named, not guessed
    path = write_csv(tmp_path / "p.csv", [grouped, dashed, typo])
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text(
        '{"client_orderid": "j-1", "amount": "1.00", "currency": "EUR", '
        '"credit_card_number": "4444 4444 4444 4448", "card_printed_name": "JOHN SMITH", '
        '"expire_month": "12", "expire_year": "2030", "cvv2": "123", '
        '"ipaddress": "203.0.113.10"}\n',
        encoding="utf-8",
    )
    v = check_batch(read_batch(path), never_sent)
    states = {c.row.client_orderid: c.state for c in v.rows}
    assert states == {
        "grouped-1": RowState.READY,
        "dashed-1": RowState.READY,
        "typo-1": RowState.INVALID,
    }
    assert {c.row.values["credit_card_number"] for c in v.rows[:2]} == {"4444444444444448"}
    errors = [p.field for p in v.problems if p.row == 4 and p.severity is Severity.ERROR]
    assert errors == ["credit_card_number"]
    assert card_number_digits("4444 4444 4444 4448") == "4444444444444448"  # the form's rule
    j = check_batch(read_batch(jsonl), never_sent)
    assert [c.state for c in j.rows] == [RowState.READY]


def test_a_refusal_counts_one_row_in_the_singular(tmp_path: Path) -> None:
    def unknown_for_b1(order_id: str) -> Verdict:
        return Verdict(Seen.UNKNOWN if order_id == "b-1" else Seen.NEW, order_id)

    v = check_batch(read_batch(card_file(tmp_path / "p.csv", 3)), unknown_for_b1)
    refusal = Plan(v, "sb", False, BatchLimits(10)).refusal()
    assert refusal is not None
    assert refusal.message.startswith("1 row's last send has an unknown outcome (row 3): ")
    bad = write_csv(tmp_path / "bad.csv", [card_row("x-1", "ten"), card_row("x-2")])
    refusal = Plan(check_batch(read_batch(bad), never_sent), "sb", False, BatchLimits(10)).refusal()
    assert refusal is not None
    assert refusal.message.startswith("1 row has errors (row 2): fix them")
