"""The sandbox's memory: SQLite in a file (``--state FILE``) or in memory.

One connection shared by every thread behind a re-entrant lock; :meth:`Database.transaction`
groups changes that must happen together (check for a duplicate order, then insert it).
The schema is generated from ``records.py``; ``PRAGMA user_version`` records its version,
and a state file of another version is refused with a clear message instead of misread.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from console.core.private_files import owner_only
from console.sandbox.records import RECORD_TYPES

SCHEMA_VERSION = 1
_SQL_TYPES = {"str": "TEXT", "int": "INTEGER", "float": "REAL"}
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS orders_by_client ON orders(client_orderid, endpoint_id)",
    "CREATE INDEX IF NOT EXISTS callbacks_by_state ON callbacks(state)",
    "CREATE INDEX IF NOT EXISTS events_by_order ON order_events(orderid)",
    "CREATE UNIQUE INDEX IF NOT EXISTS card_refs_by_first ON card_refs(first_orderid, login)",
)
R = TypeVar("R")


_NAMES: dict[object, list[str]] = {}


def _names(cls: Any) -> list[str]:
    """Column names of a record type (dataclasses.asdict copies deeply: too slow per row)."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = [f.name for f in dataclasses.fields(cls)]
    return names


class StateError(Exception):
    """The state file cannot be used; the message says why and what to do."""


def _column(field: dataclasses.Field[Any], key: str) -> str:
    annotation = str(field.type).replace(" ", "")
    nullable = annotation.endswith("|None")
    sql = _SQL_TYPES[annotation.removesuffix("|None")]
    if field.name == key:
        return f"{field.name} {sql} PRIMARY KEY"
    return f"{field.name} {sql}" + ("" if nullable else " NOT NULL")


def create_statements() -> list[str]:
    """CREATE TABLE statements for every record type, then the indexes."""
    statements = []
    for cls in RECORD_TYPES:
        cols = ", ".join(_column(f, cls.KEY) for f in dataclasses.fields(cls))
        statements.append(f"CREATE TABLE IF NOT EXISTS {cls.TABLE} ({cols})")
    statements.append("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
    return [*statements, *_INDEXES]


class Database:
    """Typed access to the sandbox's tables. Thread-safe.

    Args:
        path: a SQLite file (created when missing) or None for memory only.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.lock = threading.RLock()
        self._depth = 0
        try:
            if self.path is not None:
                owner_only(self.path)  # orders, cards (masked) and merchants: the owner's only
            self._conn = sqlite3.connect(
                str(path) if path is not None else ":memory:",
                check_same_thread=False,
                isolation_level=None,  # transactions are explicit
            )
            self._setup()
        except (sqlite3.DatabaseError, OSError) as exc:
            raise StateError(
                f"The state file {path} cannot be opened as a sandbox state ({exc}). "
                "Give another file, or delete this one to start afresh."
            ) from exc

    def _setup(self) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise StateError(
                f"The state file {self.path} was written by another sandbox version "
                f"(schema {version}, this one reads {SCHEMA_VERSION}). Give another file, "
                "or delete this one to start afresh."
            )
        if self.path is not None:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
        with self.transaction():
            for statement in create_statements():
                self._conn.execute(statement)
            self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside happens together or not at all (nesting joins the outer one)."""
        with self.lock:
            outer = self._depth == 0
            if outer:
                self._conn.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield
            except BaseException:
                self._depth -= 1
                if outer:
                    self._conn.execute("ROLLBACK")
                raise
            self._depth -= 1
            if outer:
                self._conn.execute("COMMIT")

    def insert(self, record: Any) -> None:
        """Insert a record; an auto-numbered record gets its new id set."""
        values = {name: getattr(record, name) for name in _names(type(record))}
        key = type(record).KEY
        if values.get(key) is None:
            del values[key]
        names = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        with self.lock:
            cur = self._conn.execute(
                f"INSERT INTO {record.TABLE} ({names}) VALUES ({marks})",  # noqa: S608
                tuple(values.values()),
            )
        if key not in values:
            setattr(record, key, cur.lastrowid)

    def update(self, record: Any, *names: str) -> None:
        """Write the named fields (all when none are named) of a stored record."""
        key = type(record).KEY
        fields = names or tuple(f.name for f in dataclasses.fields(record) if f.name != key)
        sets = ", ".join(f"{n} = ?" for n in fields)
        with self.lock:
            self._conn.execute(
                f"UPDATE {record.TABLE} SET {sets} WHERE {key} = ?",  # noqa: S608
                (*(getattr(record, n) for n in fields), getattr(record, key)),
            )

    def get(self, cls: type[R], key: object) -> R | None:
        """The record with this key, or None."""
        found = self.select(cls, f"{cls.KEY} = ?", (key,))  # type: ignore[attr-defined]
        return found[0] if found else None

    def select(
        self, cls: type[R], where: str = "", params: Sequence[object] = (), order: str = ""
    ) -> list[R]:
        """Records matching a SQL condition, in the given order (key order by default)."""
        names = _names(cls)
        sql = f"SELECT {', '.join(names)} FROM {cls.TABLE}"  # type: ignore[attr-defined]  # noqa: S608
        if where:
            sql += f" WHERE {where}"
        sql += f" ORDER BY {order or cls.KEY}"  # type: ignore[attr-defined]
        with self.lock:
            rows = self._conn.execute(sql, tuple(params)).fetchall()
        return [cls(**dict(zip(names, row, strict=True))) for row in rows]

    def next_id(self, name: str, start: int) -> int:
        """The next number of a named counter (``start`` first); survives restarts."""
        with self.transaction():
            current = self.meta(name)
            value = int(current) + 1 if current is not None else start
            self.set_meta(name, str(value))
        return value

    def meta(self, name: str) -> str | None:
        """A stored setting (clock offset, counters), or None."""
        with self.lock:
            row = self._conn.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, name: str, value: str) -> None:
        with self.lock:
            self._conn.execute(
                "INSERT INTO meta (name, value) VALUES (?, ?) "
                "ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                (name, value),
            )

    def close(self) -> None:
        with self.lock:
            self._conn.close()
