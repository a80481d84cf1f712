"""Reading a batch file of any kind: an Excel workbook by its content, JSON Lines by its
extension, else CSV (the readers are :mod:`.source` and :mod:`.spreadsheet`)."""

from __future__ import annotations

from pathlib import Path

from console.core.batch.source import (
    MAX_FILE_BYTES,
    BatchFile,
    BatchFileError,
    first_line,
    read_csv,
    read_jsonl,
)
from console.core.batch.spreadsheet import ZIP_MAGIC, read_xlsx
from console.core.input_files import InputFileError, read_capped


def read_batch(path: Path, sheet: str | None = None) -> BatchFile:
    """Read a CSV, JSON Lines or Excel batch file (an .xlsx by its content; .jsonl/.ndjson
    by the extension; else CSV). ``sheet``: the workbook's sheet to read (default: the first).

    Raises:
        BatchFileError: the file cannot be read, is not UTF-8, or has no header; a sheet
            named for a file that is not a workbook.
    """
    try:
        data = read_capped(path, MAX_FILE_BYTES)
    except InputFileError as exc:
        raise BatchFileError(f"{path}: {exc}; split it into smaller batches.") from exc
    except OSError as exc:
        raise BatchFileError(f"{path}: cannot read it ({exc.strerror or exc}).") from exc
    if data.startswith(ZIP_MAGIC):
        return read_xlsx(path, data, sheet)
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
        return read_jsonl(path, text)
    first = first_line(text)
    del text  # read again as a stream: one copy of the file in memory, not three
    return read_csv(path, data, first)
