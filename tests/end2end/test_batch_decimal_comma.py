"""A file saved by a spreadsheet that writes decimal commas (German Excel: ``47,11``) gets one
line saying so, naming its rows, instead of a "Write 47.11" line for each of its rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import EXIT_INVALID
from tests.helpers.batch_files import card_row, write_csv


def test_a_decimal_comma_file_gets_one_hint_for_all_its_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [card_row(f"de-{i}", f"{40 + i % 9},{i % 100:02d}") for i in range(2000)]
    rows.append(card_row("de-big", "1.234,50"))
    rows.append(card_row("de-ten", "ten"))  # a mistake of its own keeps its own line
    path = write_csv(tmp_path / "lohn.csv", rows, sep=";")

    assert main(["batch", "validate", str(path)]) == EXIT_INVALID
    said = capsys.readouterr().out
    amount_lines = [line for line in said.splitlines() if "  amount  " in line]
    assert len(amount_lines) == 2, said
    assert "decimal comma (47,11)" in amount_lines[0]
    assert "(the same in 2001 rows: 2-2002)" in amount_lines[0]
    assert "Write 4" not in said  # no line per row
    assert "2002 rows: 0 ready, 2002 with errors" in said


def test_totals_are_written_exactly_with_the_currencys_decimals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [card_row("bh-1", "500.002", "BHD"), card_row("bh-2", "500.003", "BHD")]
    rows += [card_row("eu-1", "10.5"), card_row("jp-1", "1000", "JPY")]
    assert main(["batch", "validate", str(write_csv(tmp_path / "p.csv", rows))]) == 0
    said = capsys.readouterr().out
    assert "BHD: 2 payouts, total 1000.005, largest 500.003 (row 3)" in said  # not 1000.00
    assert "EUR: 1 payouts, total 10.50" in said
    assert "JPY: 1 payouts, total 1000, largest 1000" in said
