"""Numbers in workbooks as office programs save them: an amount is the number the cell
stores, and a format showing another value is an error naming both; a card number, account
number or id kept as a number (15 significant digits) is refused for its column, once.

Workbooks come from LibreOffice itself (``soffice --headless --convert-to xlsx``; skipped
without it, except in CI) and from openpyxl with the number formats set."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from console.cli import main
from console.cli.failures import EXIT_INVALID, EXIT_OK
from console.core.batch import read_batch
from tests.helpers.batch_files import HEADER, PAN, card_row
from tests.helpers.office import convert, fods

FIX = "the spreadsheet keeps 15 digits of a number: format the column as Text and type them again"


def _validate(path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str]:
    code = main(["batch", "validate", str(path), *more])
    said = capsys.readouterr()
    return code, " ".join((said.out + said.err).split())


def test_libreoffice_amounts_shown_rounded_are_refused_naming_the_stored_and_shown_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def row(order_id: str, amount: str, shown_as: str) -> list[str | tuple[str, str]]:
        cells: list[str | tuple[str, str]] = list(card_row(order_id))
        cells[1] = (amount, shown_as)
        return cells

    sheet = fods(
        tmp_path / "march.fods",
        HEADER,
        [
            row("lo-1", "1234.56", "0.0"),  # shown 1234.6
            row("lo-2", "1234.56", "#,##0.0"),  # shown 1,234.6
            row("lo-3", "10.04", "0.0"),  # shown 10.0
            row("lo-4", "10.5", "0.00"),  # shown 10.50: the same value
            row("lo-5", "1234.56", "0"),  # shown 1235
        ],
    )
    (book,) = convert([sheet], tmp_path)

    batch = read_batch(book)
    assert [r.values["amount"] for r in batch.rows] == [
        "1234.56",
        "1234.56",
        "10.04",
        "10.50",
        "1234.56",
    ]
    code, said = _validate(book, capsys)
    assert code == EXIT_INVALID
    assert "amount: the cell holds 1234.56, but its number format (0.0) shows 1234.6" in said
    assert "its number format (#,##0.0) shows 1234.6" in said
    assert "the cell holds 10.04, but its number format (0.0) shows 10.0" in said
    assert "its number format (0) shows 1235" in said
    assert "5 rows: 1 ready, 4 with errors" in said
    assert "EUR: 1 payouts, total 10.50" in said


def test_libreoffice_card_numbers_typed_as_numbers_are_refused_once_for_the_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a CSV opened in LibreOffice: every card number becomes a number of 15 digits;
    # 4000056655684995 rounds to 4000056655685000, which still passes the check digit
    text = tmp_path / "payroll.csv"
    rows = [card_row(f"p-{i}") for i in range(40)]
    rows[1][3] = "4000056655684995"
    text.write_text(
        "\n".join(
            ",".join(r) for r in [[*HEADER[:7], "ipaddress"], *[[*r[:7], r[8]] for r in rows]]
        )
        + "\n",
        encoding="utf-8",
    )
    (book,) = convert([text], tmp_path)
    stored = [r.values["credit_card_number"] for r in read_batch(book).rows]
    assert stored[:2] == ["4444444444444450", "4000056655685000"]  # what the workbook keeps

    code, said = _validate(book, capsys)
    assert code == EXIT_INVALID
    assert said.count(FIX) == 1
    column = "credit_card_number credit_card_number holds numbers, not text (rows 2-41)"
    assert f"header error {column}: {FIX}." in said
    assert "check digit" not in said  # no question per row: the column is wrong
    assert "decide" not in said
    assert "0 ready" in said
    assert "no row is sent" in said

    code = main(["batch", "run", str(book), "--dry-run=sandbox", "--skip-invalid", "--yes"])
    assert code == EXIT_INVALID  # nothing is signed, nothing is paid to a rounded number
    said = capsys.readouterr().out
    assert "4000056655685000" not in said
    assert "400005******5000" not in said


def _openpyxl_book(path: Path, cells: dict[str, tuple[object, str]]) -> Path:
    """One card payout whose named cells hold (value, number format)."""
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    header = [*HEADER, "account_number"]
    sheet.append(header)
    sheet.append([*card_row("o-1"), ""])
    for name, (value, shown_as) in cells.items():
        cell = sheet.cell(row=2, column=header.index(name) + 1, value=value)
        cell.number_format = shown_as
    workbook.save(path)
    return path


@pytest.mark.parametrize(
    ("amount", "shown_as", "shown"),
    [
        (1234.56, "0.0", "1234.6"),
        (1234.56, "#,##0.0", "1234.6"),
        (10.04, "0.0", "10.0"),
        (1234.56, "0", "1235"),
        (1234.56, "#,##0", "1235"),
        (1234.56, '#,##0.0 "EUR"', "1234.6"),
        (0.125, "0.0%", "12.5%"),  # no: 12.5% is the value; see the equal cases below
    ][:-1],
)
def test_openpyxl_amounts_under_a_format_showing_another_value_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], amount: float, shown_as: str, shown: str
) -> None:
    book = _openpyxl_book(tmp_path / "b.xlsx", {"amount": (amount, shown_as)})
    code, said = _validate(book, capsys)
    assert code == EXIT_INVALID
    assert f"the cell holds {amount}, but its number format ({shown_as}) shows {shown}" in said


@pytest.mark.parametrize(
    ("amount", "shown_as", "read"),
    [
        (10.5, "0.00", "10.50"),
        (1234.56, "#,##0.00", "1234.56"),
        (20, "0", "20"),
        (7.25, "General", "7.25"),
    ],
)
def test_openpyxl_amounts_shown_as_stored_are_read_as_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], amount: float, shown_as: str, read: str
) -> None:
    book = _openpyxl_book(tmp_path / "b.xlsx", {"amount": (amount, shown_as)})
    assert read_batch(book).rows[0].values["amount"] == read
    assert _validate(book, capsys)[0] == EXIT_OK


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("credit_card_number", int(PAN)),
        ("credit_card_number", float(PAN)),
        ("account_number", 40817810099910004312),
        ("client_orderid", 1001),
    ],
)
def test_openpyxl_card_account_numbers_and_ids_in_numeric_cells_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str, value: object
) -> None:
    book = _openpyxl_book(tmp_path / "b.xlsx", {column: (value, "0")})
    code, said = _validate(book, capsys)
    assert code == EXIT_INVALID
    assert f"{column} holds numbers, not text (row 2): {FIX}." in said
