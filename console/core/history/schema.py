"""The journal's SQLite schema and its migrations (``PRAGMA user_version``).

Each migration moves the database one version up inside one transaction, so a database is
always at a version this list knows. A database from a newer console is refused, never
touched.

Indexes serve the history pane (see :mod:`console.core.history.journal`): the newest rows first by
``(created, id)``; one ``(column, created)`` index per filter; one index per id column for
"search by any id"; and ``(last4, created)`` for the last-four search.
"""

from __future__ import annotations

import contextlib
import errno
import sqlite3
import time
from pathlib import Path

from console.core.errors import JournalUnavailableError
from console.core.private_files import owner_only

_V1 = """
CREATE TABLE requests (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,            -- Unix seconds (UTC) when the row was written
    finished REAL,                    -- Unix seconds when the answer (or failure) came
    environment TEXT NOT NULL,
    command TEXT NOT NULL,
    url TEXT NOT NULL,
    client_orderid TEXT,
    amount TEXT,
    currency TEXT,
    receiver TEXT,                    -- masked: card numbers as first six + last four
    last4 TEXT,                       -- last four digits of the card number, for searching
    outcome TEXT NOT NULL,            -- pending, then a client Result value
    interrupted INTEGER NOT NULL DEFAULT 0,  -- 1: the console stopped while it was pending
    http_status INTEGER,
    elapsed REAL,
    response_type TEXT,
    response_status TEXT,
    gateway_order_id TEXT,
    serial_number TEXT,
    card_ref_id TEXT,
    recurring_payment_id TEXT,
    summary TEXT,
    writer_pid INTEGER,
    deadline REAL                     -- after this a pending row cannot still be in flight
);
CREATE TABLE request_details (
    request_id INTEGER PRIMARY KEY REFERENCES requests(id) ON DELETE CASCADE,
    request_json TEXT NOT NULL,       -- the masked signed request
    response_json TEXT                -- the masked decoded answer, or the transport error
);
CREATE INDEX ix_requests_created ON requests(created);
CREATE INDEX ix_requests_environment ON requests(environment, created);
CREATE INDEX ix_requests_command ON requests(command, created);
CREATE INDEX ix_requests_outcome ON requests(outcome, created);
CREATE INDEX ix_requests_last4 ON requests(last4, created) WHERE last4 IS NOT NULL;
CREATE INDEX ix_requests_client_orderid ON requests(client_orderid)
    WHERE client_orderid IS NOT NULL;
CREATE INDEX ix_requests_gateway_order_id ON requests(gateway_order_id)
    WHERE gateway_order_id IS NOT NULL;
CREATE INDEX ix_requests_serial_number ON requests(serial_number)
    WHERE serial_number IS NOT NULL;
CREATE INDEX ix_requests_card_ref_id ON requests(card_ref_id) WHERE card_ref_id IS NOT NULL;
CREATE INDEX ix_requests_recurring_payment_id ON requests(recurring_payment_id)
    WHERE recurring_payment_id IS NOT NULL;
"""

# Version 2: order status tracking (status command and callbacks).
_V2 = """
ALTER TABLE requests ADD COLUMN final_status TEXT;
ALTER TABLE requests ADD COLUMN final_status_source TEXT;   -- status, callback
ALTER TABLE requests ADD COLUMN final_status_at REAL;
CREATE TABLE callbacks (
    id INTEGER PRIMARY KEY,
    received REAL NOT NULL,
    environment TEXT NOT NULL,
    method TEXT NOT NULL,
    remote TEXT NOT NULL,
    params_json TEXT NOT NULL,        -- masked; the control value is not kept
    status TEXT,
    type TEXT,
    orderid TEXT,
    client_orderid TEXT,
    check_result TEXT NOT NULL,       -- a console.core.history.callback_log.CheckResult
    duplicate_of INTEGER REFERENCES callbacks(id),
    request_id INTEGER REFERENCES requests(id)
);
CREATE INDEX ix_callbacks_key ON callbacks(environment, status, type, orderid, client_orderid);
CREATE INDEX ix_callbacks_received ON callbacks(received);
CREATE INDEX ix_callbacks_request ON callbacks(request_id) WHERE request_id IS NOT NULL;
"""

# Version 3: callbacks without a merchant control secret are "unverified" (they change nothing).
_V3 = """
UPDATE callbacks SET check_result = 'unverified' WHERE check_result = 'not-checked';
"""

# Version 4: the gateway's identity (normalised request URL and login) each send went to, what
# the double-payout guard is keyed on; rows written before it are matched by environment.
_V4 = """
ALTER TABLE requests ADD COLUMN gateway TEXT;
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4)
SCHEMA_VERSION = len(MIGRATIONS)


_NO_SEND = "Nothing can be sent until then: every request is written to the history first."


def open_database(path: Path) -> sqlite3.Connection:
    """Open (creating or migrating) the journal at ``path``.

    The file and its ``-wal``/``-shm`` companions are readable by their owner only (SQLite
    gives the companions the file's own permissions). Autocommit mode: writers open their
    own ``BEGIN IMMEDIATE`` transactions. WAL lets the pane read while a send is being
    journalled; ``synchronous=FULL`` while it is opened and migrated. The journal then
    commits without syncing and syncs its log itself after each durable commit
    (:mod:`console.core.history.commits`), because a pending row must survive a power cut,
    not only a crash, before the request leaves.

    Raises:
        JournalUnavailableError: the journal cannot be used; the message says why, where
            the file is and what to do. The file is never replaced or deleted.
    """
    db: sqlite3.Connection | None = None
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "a folder", str(path))
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        owner_only(path)
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
        _check_version(db, path)  # before WAL: switching it on rewrites the file header
        _use_wal(db)
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db, path)
    except JournalUnavailableError:
        raise
    except (sqlite3.Error, OSError) as exc:
        if db is not None:
            db.close()
        raise unavailable(path, exc) from exc
    return db


def _use_wal(db: sqlite3.Connection, patience: float = 10.0) -> None:
    """Switch the file to WAL. Several consoles opening a new history at once race for it,
    and SQLite answers "locked" at once rather than waiting; the switch lasts, so the loser
    finds it done when it asks again (opening only: nothing is sent here)."""
    deadline = time.monotonic() + patience
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def unavailable(path: Path, exc: BaseException) -> JournalUnavailableError:
    """The error for a journal that cannot be opened or written, by cause."""
    code = getattr(exc, "sqlite_errorcode", None)
    err = getattr(exc, "errno", None)
    folder = path.parent
    if path.is_dir() or err == errno.EISDIR:
        why = (
            f"There is a folder at {path}, where the history file belongs. Move or rename "
            "that folder; the console then starts a new history there."
        )
    elif err == errno.ENOSPC or code == sqlite3.SQLITE_FULL:
        why = (
            f"The disk holding the history ({path}) is full. Free some space on it, then "
            "start again; the history file is kept as it is."
        )
    elif err in (errno.EACCES, errno.EPERM, errno.EROFS) or code in (
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PERM,
    ):
        why = (
            f"The history at {path} cannot be written: the file or its folder {folder} is "
            "read-only for this user. Give your user write access to that folder, or set "
            f"GATEWAY_CONSOLE_HOME to a writable folder. ({_detail(exc)})"
        )
    else:
        why = (
            f"The history file {path} is damaged ({_detail(exc)}). Move it away (keep it "
            "for inspection); the console then starts a new history."
        )
    return JournalUnavailableError(
        f"The history journal is unavailable. {why} {_NO_SEND}", str(path)
    )


def _detail(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def migrate(db: sqlite3.Connection, path: Path | str = "the history") -> int:
    """Bring ``db`` to :data:`SCHEMA_VERSION`; return the version it had."""
    version = _check_version(db, path)
    for target in range(version + 1, SCHEMA_VERSION + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another process opening the same new file
            # may have migrated it since (two consoles started at once).
            if _check_version(db, path) < target:
                for statement in _statements(MIGRATIONS[target - 1]):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version={target}")
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed: a newer schema
                if db.in_transaction:
                    db.execute("ROLLBACK")
            raise
    return version


def _check_version(db: sqlite3.Connection, path: Path | str) -> int:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        db.close()
        raise JournalUnavailableError(
            f"The history journal is unavailable. {path} was written by a newer Gateway "
            f"Console (schema {version}, this one knows {SCHEMA_VERSION}). Update the "
            "console to use it, or move the file away to start a new history here; the file "
            f"was not changed. {_NO_SEND}",
            str(path),
        )
    return version


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (executescript would commit on its own)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
