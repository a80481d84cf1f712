"""Excel batch files (``.xlsx``, made with openpyxl as a spreadsheet would save them): the same
checks, row numbers and results as the CSV of the same rows, formulas read as their stored
values and flagged, results written as a workbook when asked."""

from __future__ import annotations

import csv
import shutil
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from console.cli import main
from console.cli.failures import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from console.core.batch import read_batch
from console.sandbox import SandboxHandle
from tests.helpers.batch_files import HEADER, card_row, write_csv


def typed(row: list[str]) -> list[object]:
    """A row as a spreadsheet holds it: amounts, months and years as numbers."""
    order, amount, currency, pan, name, month, year, cvv2, ip = row
    number = float(amount) if amount.replace(".", "").isdigit() else amount
    return [order, number, currency, pan, name, int(month), int(year), cvv2, ip]


def write_xlsx(path: Path, rows: list[list[str]], *, sheet: str = "payouts") -> Path:
    workbook = Workbook()
    first = workbook.active
    assert first is not None
    first.title = sheet
    first.append(list(HEADER))
    for row in rows:
        first.append(typed(row))
    for column in ("B",):  # amounts shown with two decimals, as finance sheets do
        for cell in first[column][1:]:
            cell.number_format = "0.00"
    for cell in first["F"][1:]:
        cell.number_format = "00"
    workbook.save(path)
    return path


def rows_of(count: int) -> list[list[str]]:
    rows = [card_row(f"x-{i}", f"{10 + i % 50}.50", cvv2="123") for i in range(count)]
    rows[3] = card_row("x-3", "ten")  # an error on spreadsheet row 5 (line 5 of the CSV)
    rows[7] = card_row("x-6")  # a repeated id: rows 8 and 9
    return rows


def results(path: Path) -> list[dict[str, str]]:
    if path.suffix == ".xlsx":
        workbook = load_workbook(path, read_only=True)
        values = list(workbook.worksheets[0].iter_rows(values_only=True))
        workbook.close()
        header = [str(h) for h in values[0]]
        return [dict(zip(header, (v or "" for v in r), strict=True)) for r in values[1:]]
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_a_workbook_is_checked_dry_run_and_run_like_the_csv_of_the_same_rows(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = rows_of(300)
    sheet = write_xlsx(tmp_path / "payouts.xlsx", rows)
    text = write_csv(tmp_path / "payouts.csv", rows)

    said = {}
    for path in (sheet, text):
        assert main(["batch", "validate", str(path)]) == EXIT_INVALID
        said[path.suffix] = capsys.readouterr().out
    assert said[".xlsx"] == said[".csv"]
    assert "     5  error     amount" in said[".xlsx"]
    assert "300 rows: 297 ready, 3 with errors" in said[".xlsx"]

    for path in (sheet, text):
        assert main(["batch", "run", str(path), *conn, "--dry-run", "--skip-invalid"]) == EXIT_OK
        assert "297 rows signed, nothing sent" in capsys.readouterr().out

    out = tmp_path / "payouts.results.xlsx"
    run = ["batch", "run", str(sheet), *conn, "--skip-invalid", "--concurrency", "4"]
    assert main([*run, "--results", str(out)]) == EXIT_OK
    assert main(["batch", "status", str(text), *conn]) != EXIT_USAGE  # the CSV: same ids, sent
    got = results(out)
    assert len(got) == 300
    assert [r["row"] for r in got[:5]] == ["2", "3", "4", "5", "6"]
    assert {r["outcome"] for r in got} == {"accepted", "invalid"}
    csv_results = results(tmp_path / "payouts.results.csv")
    assert [(r["row"], r["client_orderid"], r["amount"], r["outcome"]) for r in got] == [
        (r["row"], r["client_orderid"], r["amount"], r["outcome"]) for r in csv_results
    ]
    # status refreshes the workbook and finds its environment in it
    assert main(["batch", "status", str(sheet), "--results", str(out)]) != EXIT_USAGE


def test_the_sheet_is_chosen_by_name_and_a_missing_one_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_xlsx(tmp_path / "book.xlsx", [card_row("s-1")], sheet="March")
    assert main(["batch", "validate", str(path), "--sheet", "March"]) == EXIT_OK
    assert main(["batch", "validate", str(path), "--sheet", "April"]) == EXIT_USAGE
    assert "no sheet 'April'; its sheets are March" in capsys.readouterr().err
    renamed = shutil.copy(path, tmp_path / "book.csv")  # a workbook by its content
    assert main(["batch", "validate", str(renamed)]) == EXIT_OK
    assert "is not a field" not in capsys.readouterr().out


def with_stored_value(path: Path, formula: str, value: str) -> None:
    """Store ``value`` as the formula's last computed result, as a spreadsheet saves it."""
    with zipfile.ZipFile(path) as old:
        parts = {n: old.read(n) for n in old.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"]
    parts["xl/worksheets/sheet1.xml"] = sheet.replace(
        f"<f>{formula}</f><v />".encode(), f"<f>{formula}</f><v>{value}</v>".encode()
    )
    with zipfile.ZipFile(path, "w") as new:
        for name, data in parts.items():
            new.writestr(name, data)


def test_a_formula_is_read_as_its_stored_value_and_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_xlsx(tmp_path / "f.xlsx", [card_row("f-1"), card_row("f-2")])
    workbook = load_workbook(path)
    sheet = workbook.active
    assert sheet is not None
    sheet["B2"] = "=5+5.5"
    sheet["B3"] = "=1+1"
    workbook.save(path)
    with_stored_value(path, "5+5.5", "10.5")

    batch = read_batch(path)
    assert batch.rows[0].values["amount"] == "10.50"
    assert main(["batch", "validate", str(path), "--warnings"]) == EXIT_INVALID
    said = capsys.readouterr().out
    assert "amount is a formula (=5+5.5): read as the value the spreadsheet last stored, 10.50" in (
        said
    )
    assert "amount is a formula (=1+1) with no value stored" in said
    assert "1 with errors" in said


def test_results_written_as_a_workbook_keep_formula_like_text_as_text(tmp_path: Path) -> None:
    from console.core.batch.results import ResultLine, write_results

    out = tmp_path / "r.xlsx"
    write_results(out, {2: ResultLine(2, "=HYPERLINK(1)", "1.00", "EUR", "", "invalid")})
    workbook = load_workbook(out)
    sheet = workbook.active
    assert sheet is not None
    assert (sheet["B2"].value, sheet["B2"].data_type) == ("=HYPERLINK(1)", "s")
