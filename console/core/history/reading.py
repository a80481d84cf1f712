"""Reading the history journal: counts, pages, selections and details for the pane and exports.

:class:`HistoryQueries` is the reading half of :class:`console.core.history.journal.History`, which
supplies the connection (:meth:`reading`) and forgets remembered counts when it writes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from console.core.history.query import (
    ORDER_SQL,
    ROW_SQL,
    HistoryDetail,
    HistoryFilter,
    HistoryRow,
    distinct_values,
    query_details,
    with_parts,
)

_DENSE_AT = 5000  # matches above which a search pages along the time index
# One order id's sends, found through the client_orderid index so that it stays instant at any
# size: the unary + keeps SQLite from preferring the command index, which would walk every
# payout ever sent. Rows from before the gateway was recorded are matched by environment.
_SENT_BEFORE_SQL = (
    f"{ROW_SQL} WHERE client_orderid = ? AND +command = ?"
    " AND (+gateway = ? OR (gateway IS NULL AND +environment = ?))"
    f"{ORDER_SQL}"
)
_SENT_IN_ENVIRONMENT_SQL = (
    f"{ROW_SQL} WHERE client_orderid = ? AND +command = ? AND +environment = ?{ORDER_SQL}"
)


def sent_before(
    db: sqlite3.Connection,
    gateway: str | None,
    command: str,
    client_orderid: str,
    environment: str,
) -> list[HistoryRow]:
    """Every journalled send of ``command`` with ``client_orderid`` to ``gateway`` (an identity
    from :mod:`console.core.gateway_identity`; rows that predate it: in ``environment``),
    newest first (on any connection to the journal, e.g. a read-only one of the window).
    ``gateway`` None: the sends labelled ``environment`` (for showing what became of a
    file's rows when the gateway's address is not at hand; never for the guard)."""
    if gateway is None:
        found = db.execute(_SENT_IN_ENVIRONMENT_SQL, (client_orderid.strip(), command, environment))
    else:
        found = db.execute(
            _SENT_BEFORE_SQL, (client_orderid.strip(), command, gateway, environment)
        )
    return [HistoryRow.from_sql(r) for r in found]


def sent_before_each(
    db: sqlite3.Connection,
    gateway: str | None,
    command: str,
    client_orderids: Iterable[str],
    environment: str,
) -> dict[str, list[HistoryRow]]:
    """:func:`sent_before` of many order ids at once (a batch file's), 500 ids a query: each
    id given (stripped) that was sent before -> its sends, newest first."""
    wanted = sorted({i.strip() for i in client_orderids} - {""})
    found: dict[str, list[HistoryRow]] = {}
    if gateway is None:
        where, extra = "+command = ? AND +environment = ?", [command, environment]
    else:
        where = "+command = ? AND (+gateway = ? OR (gateway IS NULL AND +environment = ?))"
        extra = [command, gateway, environment]
    for start in range(0, len(wanted), 500):  # stay under SQLite's variable limit
        chunk = wanted[start : start + 500]
        sql = f"{ROW_SQL} WHERE client_orderid IN ({', '.join('?' * len(chunk))}) AND {where}"
        for r in db.execute(f"{sql}{ORDER_SQL}", [*chunk, *extra]):
            row = HistoryRow.from_sql(r)
            found.setdefault(row.client_orderid or "", []).append(row)
    return found


class HistoryQueries:
    """The journal's queries; mixed into :class:`console.core.history.journal.History`."""

    _counts: dict[HistoryFilter, int]
    _data_version: int

    def reading(self) -> AbstractContextManager[sqlite3.Connection]:
        """The connection, for reads, under the journal's lock."""
        raise NotImplementedError

    def count(self, filter: HistoryFilter | None = None) -> int:
        """How many rows match (the pane's row count; parts of ids when no whole id
        matches, see ``with_parts``)."""
        return self._count(with_parts(filter or HistoryFilter(), self._count))

    def _count(self, f: HistoryFilter) -> int:
        """How many rows match ``f`` as it is. Remembered until the journal changes, here or
        in another process (``PRAGMA data_version``)."""
        with self.reading() as db:
            version = db.execute("PRAGMA data_version").fetchone()[0]
            if version != self._data_version:
                self._counts.clear()
                self._data_version = version
            if f not in self._counts:
                where, args = f.where()
                sql = f"SELECT count(*) FROM requests{where}"  # noqa: S608 (placeholders only)
                self._counts[f] = int(db.execute(sql, args).fetchone()[0])
            return self._counts[f]

    def _where(self, f: HistoryFilter) -> tuple[str, list[Any]]:
        # A search matching many rows pages faster along the time index (see where()).
        f = with_parts(f, self._count)
        return f.where(dense=f.prefix_search and self._count(f) > _DENSE_AT)

    def fetch(
        self, filter: HistoryFilter | None = None, offset: int = 0, limit: int = 100
    ) -> list[HistoryRow]:
        """One page of matching rows, newest first."""
        where, args = self._where(filter or HistoryFilter())
        sql = f"{ROW_SQL}{where}{ORDER_SQL} LIMIT ? OFFSET ?"
        with self.reading() as db:
            return [HistoryRow.from_sql(r) for r in db.execute(sql, [*args, limit, offset])]

    def fetch_after(
        self, filter: HistoryFilter | None, after: HistoryRow | None, limit: int = 100
    ) -> list[HistoryRow]:
        """The next page after row ``after`` (keyset paging: as fast at row 900,000 as at 0)."""
        where, args = self._where(filter or HistoryFilter())
        if after is not None:
            where += (" AND " if where else " WHERE ") + "(created, id) < (?, ?)"
            args = [*args, after.created_ts, after.id]
        sql = f"{ROW_SQL}{where}{ORDER_SQL} LIMIT ?"
        with self.reading() as db:
            return [HistoryRow.from_sql(r) for r in db.execute(sql, [*args, limit])]

    def iter_rows(
        self, filter: HistoryFilter | None = None, batch: int = 1000
    ) -> Iterator[HistoryRow]:
        """Every matching row, newest first, read a batch at a time (for exports)."""
        last: HistoryRow | None = None
        while page := self.fetch_after(filter, last, batch):
            yield from page
            last = page[-1]

    def get(self, row_id: int) -> HistoryRow:
        """One row by id. Raises KeyError."""
        rows = self.rows(ids=[row_id])
        if not rows:
            raise KeyError(f"No history row {row_id}.")
        return rows[0]

    def rows(self, ids: Iterable[int]) -> list[HistoryRow]:
        """The rows with these ids (a selection), newest first."""
        wanted = sorted(set(ids))
        found: list[HistoryRow] = []
        with self.reading() as db:
            for start in range(0, len(wanted), 500):  # stay under SQLite's variable limit
                chunk = wanted[start : start + 500]
                sql = f"{ROW_SQL} WHERE id IN ({', '.join('?' * len(chunk))})"
                found += [HistoryRow.from_sql(r) for r in db.execute(sql, chunk)]
        return sorted(found, key=lambda r: (r.created, r.id), reverse=True)

    def details(self, row_id: int) -> HistoryDetail:
        """The row with its masked request, answer and linked callbacks."""
        row = self.get(row_id)
        with self.reading() as db:
            return HistoryDetail(row, *query_details(db, row_id))

    def sent_before(
        self, gateway: str | None, command: str, client_orderid: str, environment: str = ""
    ) -> list[HistoryRow]:
        """The earlier sends of this order id (see :func:`sent_before`), newest first."""
        with self.reading() as db:
            return sent_before(db, gateway, command, client_orderid, environment)

    def sent_before_each(
        self,
        gateway: str | None,
        command: str,
        client_orderids: Iterable[str],
        environment: str = "",
    ) -> dict[str, list[HistoryRow]]:
        """The earlier sends of each order id (see :func:`sent_before_each`)."""
        with self.reading() as db:
            return sent_before_each(db, gateway, command, client_orderids, environment)

    def distinct(self, column: str) -> list[str]:
        """Values present in ``environment``, ``command`` or ``outcome`` (for filter menus)."""
        with self.reading() as db:
            return distinct_values(db, column)
