"""How long `batch validate` of a 10,000-row .xlsx takes (target: under 2 s), beside its anchor
measured in the same run: openpyxl reading the same workbook in read-only mode, cell by cell.

Run with ``make bench``; the figures are printed (process CPU time: the machine may be busy).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
from openpyxl import load_workbook

from console.cli import main
from console.cli.failures import EXIT_OK
from tests.end2end.test_batch_xlsx import write_xlsx
from tests.helpers.batch_files import card_row

ROWS = 10_000


def _anchor(path: Path) -> None:
    workbook = load_workbook(path, read_only=True, data_only=True)
    for row in workbook.worksheets[0].iter_rows(values_only=True):
        list(row)
    workbook.close()


def test_validate_ten_thousand_workbook_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_xlsx(tmp_path / "big.xlsx", [card_row(f"b-{i}") for i in range(ROWS)])
    ours, anchor = [], []
    for _ in range(3):
        started = time.process_time()
        assert main(["batch", "validate", str(path)]) == EXIT_OK
        ours.append(time.process_time() - started)
        started = time.process_time()
        _anchor(path)
        anchor.append(time.process_time() - started)
    assert f"{ROWS} rows: {ROWS} ready" in capsys.readouterr().out
    with capsys.disabled():
        print(
            f"\nbatch validate, {ROWS} .xlsx rows: median {statistics.median(ours):.2f} s CPU "
            f"(target < 2 s); openpyxl read-only read of the same file: "
            f"{statistics.median(anchor):.2f} s; ratio "
            f"{statistics.median(ours) / statistics.median(anchor):.1f}x"
        )
