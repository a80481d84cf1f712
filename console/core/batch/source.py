"""Reading a batch file: CSV (UTF-8, ``;`` or ``,`` detected from the header) or JSON Lines,
one payout-check per row.

Column names are the contract's field names or their aliases (``first_name`` for
``receiver_first_name``...); aliases are read as the contract name. Nothing is cut or
guessed: an unknown column, a row with more or fewer values than the header, a line that is
not a JSON object, or bytes that are not UTF-8 are problems that name the row and the fix.
Row numbers are the file's line numbers (the CSV header is line 1), so a person finds them
in any editor. A card number written in groups is read as its digits, as the form reads it
(``console.core.money.card_number_digits``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from console.core.errors import InputError
from console.core.input_files import parse_json
from console.core.masking import pan_fields
from console.core.money import card_number_digits
from console.core.order_facts import ORDER_ID_FIELDS, card_numbers_as_digits, client_orderid
from console.core.spec import get_command
from console.core.spec.model import Severity

COMMAND = "payout-check"
MAX_FILE_BYTES = 64 * 1024 * 1024  # far beyond any batch; refuses a wrong file quickly


class BatchFileError(InputError):
    """The file cannot be read as a batch at all (missing, not UTF-8, no header)."""


@dataclass(slots=True)  # not frozen (its values are a dict anyway): a file has many rows,
class Row:  # and frozen dataclasses are several times slower to build
    """One payout of the file.

    Attributes:
        number: the file's line number where the row starts.
        values: field name (the contract's, aliases resolved) -> value; empty cells left out.
    """

    number: int
    values: Mapping[str, str]

    @property
    def client_orderid(self) -> str:
        return client_orderid(self.values)


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A problem of the file's shape: a row (0: the header), a column and the fix. Field
    ``(file)`` means the file could not be read past this row."""

    row: int
    field: str
    message: str
    severity: Severity = Severity.ERROR  # a warning: a formula read as its stored value


@dataclass(slots=True)
class BatchFile:
    """The rows of a batch file and the problems met reading it."""

    path: Path
    format: str  # "csv", "jsonl" or "xlsx"
    rows: list[Row] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)
    delimiter: str = ""
    sheet: str = ""  # xlsx: the sheet read
    header_row: int = 1


def field_names() -> dict[str, str]:
    """Every accepted column name (contract names and aliases) -> the contract name."""
    names: dict[str, str] = {}
    for f in get_command(COMMAND).fields:
        names[f.name] = f.name
        if f.alias:
            names[f.alias] = f.name
    return names


def first_line(text: str) -> str:
    """The first line holding more than white space ('' when none), without splitting the
    whole file into lines: a growing head of it, until a line ends inside it."""
    size = 1 << 16
    while True:
        lines = text[:size].splitlines()
        whole = size >= len(text)
        for i, line in enumerate(lines):
            if line.strip() and (whole or i < len(lines) - 1):
                return line
        if whole:
            return ""
        size *= 4


def detect_delimiter(header: str) -> str:
    """``;`` when the header line holds more semicolons than commas, else ``,``."""
    return ";" if header.count(";") > header.count(",") else ","


def column_names(batch: BatchFile, header: list[str]) -> list[str | None]:
    """The contract name of each column (None for an unusable one, reported as row 0: the
    header)."""
    row = 0
    known = field_names()
    seen: dict[str, str] = {}
    out: list[str | None] = []
    for raw in header:
        name = raw.strip()
        contract = known.get(name) or known.get(name.lower())
        if not name:
            batch.problems.append(FileProblem(row, "(header)", "A column has no name: name it."))
            out.append(None)
        elif contract is None:
            batch.problems.append(
                FileProblem(
                    row,
                    name,
                    f"{name!r} is not a payout-check field or alias: rename the column to a "
                    "contract field name (see `gateway-console batch template`) or remove it.",
                )
            )
            out.append(None)
        elif contract in seen:
            batch.problems.append(
                FileProblem(
                    row,
                    name,
                    f"{name!r} and {seen[contract]!r} are the same field ({contract}): keep "
                    "one of the two columns.",
                )
            )
            out.append(None)
        else:
            seen[contract] = name
            out.append(contract)
    return out


def csv_file(path: Path, first: str) -> BatchFile:
    """A CSV batch file whose header line is ``first``, its rows not read yet."""
    if not first:
        raise BatchFileError(f"{path}: the file is empty; it needs a header row of field names.")
    return BatchFile(path, "csv", delimiter=detect_delimiter(first))


def csv_rows(batch: BatchFile, data: bytes, *, ids_only: bool = False) -> Iterator[Row]:
    """The rows of CSV ``data``, one at a time; the problems met are added to ``batch``.
    ``ids_only``: each row with its order id only (a first reading, for repeated ids)."""
    delimiter = batch.delimiter
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
    reader = csv.reader(stream, delimiter=delimiter, strict=True)
    try:
        header = next(reader)
        columns = column_names(batch, header)
        width = len(columns)
        usable = [c for c in columns if c] if None not in columns else []  # none left out
        ids = [(i, c) for i, c in enumerate(columns) if c in ORDER_ID_FIELDS]
        pans = [c for c in columns if c in pan_fields()]
        start = reader.line_num + 1
        for cells in reader:
            number, start = start, reader.line_num + 1
            if not "".join(cells).strip():
                continue  # a blank line
            if len(cells) != width:
                batch.problems.append(
                    FileProblem(
                        number,
                        "(row)",
                        f"The row has {len(cells)} values but the header has {width} "
                        f"columns: check the separators ({delimiter!r}) and quotes.",
                    )
                )
                continue
            if ids_only:
                yield Row(number, {c: cells[i] for i, c in ids})
                continue
            if usable and "" not in cells:  # every cell filled: no need to look at each
                values = dict(zip(usable, cells, strict=True))
            else:
                values = {c: v for c, v in zip(columns, cells, strict=True) if c and v != ""}
            for c in pans:  # written in groups, read as its digits
                if c in values:
                    values[c] = card_number_digits(values[c])
            yield Row(number, values)
    except csv.Error as exc:
        batch.problems.append(  # "(file)": the rest is unread, so nothing may be sent
            FileProblem(
                reader.line_num,
                "(file)",
                f"The CSV cannot be read from here on ({exc}): check the quotes.",
            )
        )


def _jsonl_lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def read_jsonl(path: Path, text: str) -> BatchFile:
    batch = BatchFile(path, "jsonl")
    known = field_names()
    for number, line in _jsonl_lines(text):
        try:
            data: Any = parse_json(line, exact_numbers=True)  # 10.50 stays 10.50
        except ValueError as exc:
            batch.problems.append(
                FileProblem(number, "(row)", f"The line is not JSON ({exc.args[0]}).")
            )
            continue
        if not isinstance(data, dict):
            batch.problems.append(
                FileProblem(number, "(row)", "Each line must be one JSON object of field: value.")
            )
            continue
        values: dict[str, str] = {}
        usable = True
        for key, value in data.items():
            name = known.get(str(key)) or known.get(str(key).lower())
            if name is None or name in values:
                batch.problems.append(
                    FileProblem(
                        number,
                        str(key),
                        f"{key!r} is not a payout-check field or alias (or repeats one): "
                        "rename or remove it.",
                    )
                )
                usable = False
            elif isinstance(value, (bool, list, dict)):
                batch.problems.append(
                    FileProblem(number, name, f"{name} must be a string or a number.")
                )
                usable = False
            elif value is not None and str(value) != "":
                values[name] = str(value)
        if usable:
            batch.rows.append(Row(number, card_numbers_as_digits(values)))
    if not batch.rows and not batch.problems:
        raise BatchFileError(f"{path}: the file holds no rows.")
    return batch
