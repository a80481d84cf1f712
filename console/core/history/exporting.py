"""Export history rows (a selection or everything a filter matches) to CSV or JSON.

CSV carries the pane's columns and a few more; JSON adds the masked request and answer of
each row. Both hold only what the journal holds, so card data stays masked.
"""

from __future__ import annotations

import csv
import errno
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from console.core.csv_cells import csv_row
from console.core.history.query import HistoryDetail, HistoryFilter, HistoryRow

CSV_COLUMNS = (
    "id",
    "created",
    "environment",
    "command",
    "client_orderid",
    "amount",
    "currency",
    "receiver",
    "last4",
    "outcome",
    "outcome_text",
    "final_status",
    "gateway_order_id",
    "serial_number",
    "card_ref_id",
    "recurring_payment_id",
    "http_status",
    "elapsed",
    "summary",
)
FORMATS = ("csv", "json")


class ExportSource(Protocol):
    """What an export reads of a journal (either one: this console's or the team's)."""

    def rows(self, ids: Iterable[int]) -> list[HistoryRow]: ...

    def iter_rows(
        self, filter: HistoryFilter | None = None, batch: int = 1000
    ) -> Iterator[HistoryRow]: ...

    def details(self, row_id: int) -> HistoryDetail: ...


def _rows(
    history: ExportSource, ids: Iterable[int] | None, filter: HistoryFilter | None
) -> Iterator[HistoryRow]:
    if ids is not None:
        yield from history.rows(ids)
    else:
        yield from history.iter_rows(filter)


def export(
    history: ExportSource,
    path: Path,
    *,
    ids: Iterable[int] | None = None,
    filter: HistoryFilter | None = None,
    fmt: str | None = None,
) -> int:
    """Write the rows with ``ids`` (else all rows matching ``filter``) to ``path``.

    The format comes from ``fmt`` or the file's suffix (``.csv``/``.json``). The file is
    written whole or not at all, into a folder that exists (a mistyped folder is not made).
    Returns the number of rows written.

    Raises:
        ValueError: no known format.
        OSError: the file cannot be written; FileNotFoundError when its folder is missing.
    """
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        raise ValueError(
            f"Cannot export to {path.name!r}: name it .csv or .json, or give a format."
        )
    folder = path.parent
    if not folder.is_dir():
        raise FileNotFoundError(
            errno.ENOENT, f"there is no folder {str(folder)!r}: create it or choose another", folder
        )
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=folder)
    count = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            if fmt == "csv":
                writer = csv.writer(fh)
                writer.writerow(CSV_COLUMNS)
                for row in _rows(history, ids, filter):
                    data = row.to_json()
                    writer.writerow(csv_row(data.get(c) for c in CSV_COLUMNS))
                    count += 1
            else:
                stamp = json.dumps(datetime.now(UTC).isoformat())
                fh.write(f'{{"exported": {stamp}, "rows": [')
                for row in _rows(history, ids, filter):
                    detail = history.details(row.id)
                    item = {
                        **row.to_json(),
                        "request": detail.request,
                        "response": detail.response,
                        "callbacks": list(detail.callbacks),
                    }
                    fh.write(("," if count else "") + "\n" + json.dumps(item, default=str))
                    count += 1
                fh.write("\n]}\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count
