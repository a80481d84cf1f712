"""Reading a batch from an Excel workbook (``.xlsx``) with openpyxl in read-only mode: the
first sheet (or one named), its first non-empty row the header, one payout per row after it.

Rows are numbered as the spreadsheet shows them (the header on row 1 is row 1), so a person
finds a problem where the table says. Cells become the text the sheet shows: a number
formatted ``0.00`` is ``10.50``, ``00`` keeps a month's leading zero, a date is
``DD.MM.YYYY``. A formula is read as the value the spreadsheet last computed and stored, and
flagged (a warning), because nothing here recomputes it; one without a stored value is an
error. The same checks as a CSV file's follow (:mod:`console.core.batch.checking`).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

from console.core.batch.number_formats import decimals_shown, shown_number
from console.core.batch.source import (
    BatchFile,
    BatchFileError,
    FileProblem,
    Row,
    column_names,
)
from console.core.masking import pan_fields
from console.core.money import NUMBER_CELL_FIX, TEXT_NUMBER_FIELDS
from console.core.spec.model import Severity

ZIP_MAGIC = b"PK\x03\x04"  # an .xlsx is a zip archive, whatever its name says
_ZERO_PADDED = re.compile(r"0+")


def cell_text(value: Any, number_format: str = "General") -> str:
    """A cell's value as the text the sheet shows (None: empty)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime):
        shown = value.strftime("%d.%m.%Y")
        return shown if value.time() == time(0) else f"{shown} {value:%H:%M:%S}"
    if isinstance(value, date):
        return value.strftime("%d.%m.%Y")
    if isinstance(value, int | float):
        fmt = number_format.split(";")[0]
        number = _number(value)
        places = decimals_shown(fmt)
        # the stored value, with the zeros the format adds (10.5 under 0.00: 10.50), never
        # rounded to what the format shows (that is a problem of its own: shown_otherwise)
        exponent = number.as_tuple().exponent
        if places and isinstance(exponent, int) and -exponent <= places:
            return f"{number:.{places}f}"
        if _ZERO_PADDED.fullmatch(fmt) and number == number.to_integral_value():
            return str(int(number)).zfill(len(fmt))
        if number == number.to_integral_value():
            return str(int(number))
        return f"{number:f}"
    return str(value)


def _number(value: int | float) -> Decimal:
    """The number a cell stores: a float as the shortest text that reads back as it (what
    the workbook's XML holds, 1234.56, not the binary fraction 1234.5599999...)."""
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def shown_otherwise(value: Any, number_format: str) -> str | None:
    """What the cell's number format shows, where that is another value than the number it
    holds (1234.56 under ``0.0``: 1234.6); None for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    found = shown_number(_number(value), number_format)
    return None if found is None else found[1]


def _sheet(workbook: Any, path: Path, sheet: str | None) -> Any:
    if sheet is None:
        return workbook.worksheets[0]
    if sheet not in workbook.sheetnames:
        raise BatchFileError(
            f"{path}: no sheet {sheet!r}; its sheets are {', '.join(workbook.sheetnames)}."
        )
    return workbook[sheet]


def _rows(worksheet: Any) -> Iterator[tuple[int, tuple[Any, ...]]]:
    """(row number, cells) of the non-empty rows."""
    for cells in worksheet.iter_rows():
        real = [c for c in cells if getattr(c, "row", None) is not None]
        if real and any(c.value not in (None, "") for c in real):
            yield real[0].row, tuple(cells)


def _formulas(path: Path, data: bytes, sheet: str | None) -> dict[tuple[int, int], str]:
    """(row, column) -> the formula of each formula cell (a second read-only pass)."""
    from openpyxl import load_workbook  # boundary: openpyxl (a few hundred ms), only for workbooks

    workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    try:
        found: dict[tuple[int, int], str] = {}
        for cells in _sheet(workbook, path, sheet).iter_rows():
            for c in cells:
                if isinstance(c.value, str) and c.value.startswith("=") and c.data_type == "f":
                    found[(c.row, c.column)] = c.value
        return found
    finally:
        workbook.close()


def _has_formulas(data: bytes) -> bool:
    """Whether any sheet holds a formula (``<f>`` in its XML): cheaper than a second pass."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                with archive.open(name) as fh:
                    while chunk := fh.read(1 << 20):
                        if b"<f>" in chunk or b"<f " in chunk:
                            return True
    return False


def read_xlsx(path: Path, data: bytes, sheet: str | None = None) -> BatchFile:
    """Read a batch from ``sheet`` (default: the first) of the Excel workbook ``data``.

    Raises:
        BatchFileError: not a workbook openpyxl can read, no such sheet, or no header.
    """
    from openpyxl import load_workbook  # boundary: openpyxl (a few hundred ms), only for workbooks
    from openpyxl.utils.exceptions import InvalidFileException  # boundary: as above

    try:
        formulas = _formulas(path, data, sheet) if _has_formulas(data) else {}
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except BatchFileError:
        raise
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, InvalidFileException) as exc:
        raise BatchFileError(
            f"{path}: cannot be read as an Excel workbook ({exc}). Save it as .xlsx, or as "
            "CSV UTF-8."
        ) from exc
    try:
        return _read(path, _sheet(workbook, path, sheet), formulas)
    finally:
        workbook.close()


def _read(path: Path, worksheet: Any, formulas: dict[tuple[int, int], str]) -> BatchFile:
    batch = BatchFile(path, "xlsx", sheet=worksheet.title)
    rows = _rows(worksheet)
    first = next(rows, None)
    if first is None:
        raise BatchFileError(
            f"{path}: sheet {worksheet.title!r} is empty; it needs a header row of field names."
        )
    header_row, header_cells = first
    columns = column_names(batch, [cell_text(c.value) for c in header_cells])
    batch.header_row = header_row
    kept_as_text = TEXT_NUMBER_FIELDS | pan_fields()
    numbers_in: dict[str, list[int]] = {}  # a column of card numbers or ids -> rows of numbers
    for number, cells in rows:
        values: dict[str, str] = {}
        for column, cell in zip(columns, cells, strict=False):
            value, shown_as = cell.value, getattr(cell, "number_format", "General")
            text = cell_text(value, shown_as)
            formula = formulas.get((number, getattr(cell, "column", 0)))
            if formula is not None and column:
                _flag(batch, number, column, formula, text)
            if not column or text == "":
                continue
            values[column] = text
            if column in kept_as_text:
                if isinstance(value, int | float) and not isinstance(value, bool):
                    numbers_in.setdefault(column, []).append(number)
            elif (shown := shown_otherwise(value, shown_as)) is not None:
                batch.problems.append(
                    FileProblem(
                        number,
                        column,
                        f"{column}: the cell holds {text}, but its number format ({shown_as}) "
                        f"shows {shown}; {text} is what would be sent. Type the value meant, "
                        "or format the column to show every decimal (0.00).",
                    )
                )
        extra = [c for c in cells[len(columns) :] if c.value not in (None, "")]
        if extra:
            batch.problems.append(
                FileProblem(
                    number,
                    "(row)",
                    "The row has values right of the last named column: name the column "
                    "or clear the cells.",
                )
            )
            continue
        batch.rows.append(Row(number, values))
    for column, where in numbers_in.items():  # the column's problem, once: the file's own
        batch.problems.append(
            FileProblem(
                0,
                column,
                f"{column} holds numbers, not text ({_rows_text(where)}): {NUMBER_CELL_FIX}.",
            )
        )
    return batch


def _rows_text(rows: Sequence[int]) -> str:
    """``row 5``, ``rows 2-2001`` or ``rows 2, 4, 7-9`` (the first ten spans)."""
    spans: list[list[int]] = []
    for n in rows:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    texts = [f"{a}" if a == b else f"{a}-{b}" for a, b in spans[:10]]
    more = ", ..." if len(spans) > 10 else ""
    return f"{'row' if len(rows) == 1 else 'rows'} {', '.join(texts)}{more}"


def _flag(batch: BatchFile, number: int, column: str, formula: str, text: str) -> None:
    if text == "":
        batch.problems.append(
            FileProblem(
                number,
                column,
                f"{column} is a formula ({formula}) with no value stored: open the file in "
                "a spreadsheet, let it compute, and save it again.",
            )
        )
        return
    batch.problems.append(
        FileProblem(
            number,
            column,
            f"{column} is a formula ({formula}): read as the value the spreadsheet last "
            f"stored, {text}; check it is the one meant.",
            Severity.WARNING,
        )
    )


def workbook_bytes(header: Sequence[str], rows: Iterable[Sequence[str]]) -> bytes:
    """A one-sheet workbook of text cells (a value starting with ``=`` stays text, never a
    formula: it comes from a file or a gateway)."""
    from openpyxl import Workbook  # boundary: openpyxl (a few hundred ms), only for workbooks
    from openpyxl.cell import WriteOnlyCell  # boundary: as above

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("results")

    def text_cells(values: Sequence[str]) -> list[Any]:
        cells = []
        for value in values:
            cell = WriteOnlyCell(sheet, value=value)
            cell.data_type = "s"
            cells.append(cell)
        return cells

    sheet.append(text_cells(header))
    for row in rows:
        sheet.append(text_cells(row))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def first_row(path: Path) -> dict[str, str] | None:
    """The first data row of a workbook's first sheet by its header (None: unreadable)."""
    from openpyxl import load_workbook  # boundary: openpyxl (a few hundred ms), only for workbooks
    from openpyxl.utils.exceptions import InvalidFileException  # boundary: as above

    try:
        workbook = load_workbook(path, read_only=True, data_only=True)
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, InvalidFileException):
        return None  # no results workbook (yet): no environment named
    try:
        rows = workbook.worksheets[0].iter_rows(max_row=2, values_only=True)
        header, first = next(rows, ()), next(rows, ())
        return {str(h): cell_text(v) for h, v in zip(header, first, strict=False) if h}
    finally:
        workbook.close()
