"""Jobs of several threads committed together: one that raises takes back its own writes
only, and its thread is told; the others' rows are committed (a refused send of one batch
row never loses the pending row of another)."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history import History
from console.core.history.commits import GroupCommits
from tests.helpers.history_data import answered, prepared


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


def test_an_answer_is_written_while_another_rows_pending_record_is_synced(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's threads do not queue behind one row's sync to disk: meanwhile another row's
    answer is written; the row being synced is not let go (its request may not leave) until
    its sync ends."""
    name = "fdatasync" if hasattr(os, "fdatasync") else "fsync"
    with History(tmp_path / "j.sqlite3") as history:
        hooks = history.journal("sb")
        first = prepared(rsa_key, client_orderid="one")
        row = hooks.before_send(first)
        syncing, release = threading.Event(), threading.Event()
        real = getattr(os, name)

        def slow(fd: int) -> None:
            syncing.set()
            release.wait(10)
            real(fd)

        monkeypatch.setattr(os, name, slow)
        claimed: list[object] = []
        second = threading.Thread(
            target=lambda: claimed.append(
                hooks.before_send(prepared(rsa_key, client_orderid="two"))
            )
        )
        second.start()
        try:
            assert syncing.wait(10), "the second row's pending record was not synced by the journal"
            answer = answered(first, "type=async-response&merchant-order-id=one&orderid=77")
            writer = threading.Thread(target=hooks.after_answer, args=(row, answer))
            writer.start()
            writer.join(5)
            assert not writer.is_alive()  # written while the other row's sync goes on
            assert claimed == []  # and that row is not let go before its sync ends
        finally:
            release.set()
            second.join(10)
        assert len(claimed) == 1
        with history.reading() as db:
            outcome = db.execute("SELECT outcome FROM requests WHERE id = ?", (row,)).fetchone()
        assert outcome == ("accepted",)


def test_a_block_of_jobs_is_one_commit_and_one_sync_and_a_refused_one_writes_nothing(
    tmp_path: Path,
) -> None:
    db = sqlite3.connect(tmp_path / "j.sqlite3", check_same_thread=False, isolation_level=None)
    db.execute("CREATE TABLE rows (id TEXT PRIMARY KEY)")
    transactions: list[int] = []
    syncs: list[int] = []

    @contextmanager
    def transaction() -> Iterator[sqlite3.Connection]:
        transactions.append(1)
        db.execute("BEGIN IMMEDIATE")
        yield db
        db.execute("COMMIT")

    commits = GroupCommits(threading.RLock(), transaction, lambda: syncs.append(1))

    def writes(row: str) -> Any:
        def job(conn: sqlite3.Connection) -> str:
            conn.execute("INSERT INTO rows VALUES (?)", (row,))
            if row == "b":
                raise ValueError("b refused")
            return row

        return job

    told = commits.run_each([writes(r) for r in "abc"])
    assert told[0] == "a"
    assert told[2] == "c"
    assert isinstance(told[1], ValueError)
    assert str(told[1]) == "b refused"
    assert (len(transactions), len(syncs)) == (1, 1)  # three jobs, one commit, one sync
    assert [r for (r,) in db.execute("SELECT id FROM rows ORDER BY id")] == ["a", "c"]
    assert commits.run_each([]) == []
    assert commits.run_each([writes("d")], durable=False) == ["d"]
    assert (len(transactions), len(syncs)) == (2, 1)  # not durable: no sync of its own


def test_a_commit_made_while_another_sync_waits_is_synced_by_the_next_sync_only(
    tmp_path: Path,
) -> None:
    """Three threads' durable jobs: the first one's sync is slow; the two that commit
    meanwhile share the next sync, so three commits take two syncs, and each thread returns
    only once its own commit is on disk."""
    db = sqlite3.connect(tmp_path / "j.sqlite3", check_same_thread=False, isolation_level=None)
    db.execute("CREATE TABLE rows (id TEXT PRIMARY KEY)")
    written: list[str] = []
    committed: list[str] = []
    syncs: list[list[str]] = []
    slow = threading.Event()

    @contextmanager
    def transaction() -> Iterator[sqlite3.Connection]:
        db.execute("BEGIN IMMEDIATE")
        yield db
        db.execute("COMMIT")
        committed.extend(written)  # b and c may share a commit
        written.clear()

    def sync() -> None:
        syncs.append(list(committed))  # what this sync covers
        if len(syncs) == 1:
            slow.wait(timeout=10)

    commits = GroupCommits(threading.RLock(), transaction, sync)

    def durable(row: str) -> None:
        def job(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO rows VALUES (?)", (row,))
            written.append(row)

        commits.run(job)

    first = threading.Thread(target=durable, args=("a",))
    first.start()
    while not syncs:  # a's sync has begun, and waits
        time.sleep(0.01)
    others = [threading.Thread(target=durable, args=(r,)) for r in "bc"]
    for thread in others:
        thread.start()
    while len(committed) < 3:  # b and c committed while a's sync waits
        time.sleep(0.01)
    time.sleep(0.2)  # and counted as made, waiting for a's sync to end
    slow.set()
    for thread in (first, *others):
        thread.join(timeout=10)
    assert syncs == [["a"], ["a", "b", "c"]]  # three commits, two syncs
