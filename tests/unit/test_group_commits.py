"""Jobs of several threads committed together: one that raises takes back its own writes
only, and its thread is told; the others' rows are committed (a refused send of one batch
row never loses the pending row of another)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from console.core.history.commits import GroupCommits


def test_a_job_that_raises_in_a_shared_commit_takes_back_its_own_writes_only(
    tmp_path: Path,
) -> None:
    db = sqlite3.connect(tmp_path / "j.sqlite3", check_same_thread=False, isolation_level=None)
    db.execute("CREATE TABLE rows (id TEXT PRIMARY KEY)")
    lock = threading.RLock()

    @contextmanager
    def transaction() -> Iterator[sqlite3.Connection]:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    commits = GroupCommits(lock, transaction, lambda: None)

    def writes(row: str, fail: bool = False) -> object:
        def job(conn: sqlite3.Connection) -> str:
            conn.execute("INSERT INTO rows VALUES (?)", (row,))
            if fail:
                raise ValueError(f"{row} refused")
            return row

        return job

    told: dict[str, object] = {}

    def run(row: str, fail: bool) -> None:
        try:
            told[row] = commits.run(writes(row, fail))  # type: ignore[arg-type]
        except ValueError as exc:
            told[row] = str(exc)

    with lock:  # both threads queue their jobs while another writer holds the journal
        threads = [
            threading.Thread(target=run, args=("kept", False)),
            threading.Thread(target=run, args=("refused", True)),
        ]
        for thread in threads:
            thread.start()
        time.sleep(0.3)
    for thread in threads:
        thread.join(10)
    assert told == {"kept": "kept", "refused": "refused refused"}
    assert [r[0] for r in db.execute("SELECT id FROM rows")] == ["kept"]
