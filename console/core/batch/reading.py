"""Reading a batch file of any kind: an Excel workbook by its content, JSON Lines by its
extension, else CSV (the readers are :mod:`.source` and :mod:`.spreadsheet`); a CSV file
also as a stream of rows (:func:`stream_batch`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

from console.core.batch.source import (
    MAX_FILE_BYTES,
    BatchFile,
    BatchFileError,
    Row,
    csv_file,
    csv_rows,
    first_line,
    read_jsonl,
)
from console.core.batch.spreadsheet import ZIP_MAGIC, read_xlsx
from console.core.input_files import InputFileError, read_capped

# Reads the rows (problems met go to the file given; ``ids_only``: each row with its order id
# only, where the file is read as a stream).
RowReader = Callable[..., Iterator[Row]]


def read_batch(path: Path, sheet: str | None = None) -> BatchFile:
    """:func:`stream_batch`, every row read into ``rows``."""
    batch, rows = stream_batch(path, sheet)
    if batch.format == "csv":
        batch.rows = list(rows(batch))
    return batch


def stream_batch(path: Path, sheet: str | None = None) -> tuple[BatchFile, RowReader]:
    """Read a CSV, JSON Lines or Excel batch file (an .xlsx by its content; .jsonl/.ndjson
    by the extension; else CSV). ``sheet``: the workbook's sheet to read (default: the first).

    Raises:
        BatchFileError: the file cannot be read, is not UTF-8, or has no header; a sheet
            named for a file that is not a workbook.

    Returns:
        The file, and a function that reads its rows one at a time, each time it is called,
        adding the problems met to the file it is given (a large CSV file need not be held
        as rows; a workbook or JSON Lines file is read whole, its rows given as they are).
    """
    try:
        data = read_capped(path, MAX_FILE_BYTES)
    except InputFileError as exc:
        raise BatchFileError(f"{path}: {exc}; split it into smaller batches.") from exc
    except OSError as exc:
        raise BatchFileError(f"{path}: cannot read it ({exc.strerror or exc}).") from exc
    if data.startswith(ZIP_MAGIC):
        return _whole(read_xlsx(path, data, sheet))
    if sheet is not None:
        raise BatchFileError(f"{path}: --sheet names a sheet of an Excel workbook (.xlsx).")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise BatchFileError(
            f"{path}: line {line} is not UTF-8. Save the file as UTF-8 (in a spreadsheet: "
            "CSV UTF-8) and try again."
        ) from exc
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return _whole(read_jsonl(path, text))
    first = first_line(text)
    del text  # read again as a stream: one copy of the file in memory, not three
    return csv_file(path, first), partial(csv_rows, data=data)


def _whole(batch: BatchFile) -> tuple[BatchFile, RowReader]:
    return batch, lambda _into, ids_only=False: iter(batch.rows)
