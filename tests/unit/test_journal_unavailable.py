"""A journal that cannot be opened: one clear error per cause, the file left as it is, and the
command line's ``history`` commands say so with exit status 10. Also: who may read the
journal's files, and how many interrupted requests the command line reports."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core import paths
from console.core.errors import JournalUnavailableError
from console.core.history import History
from console.core.history.schema import SCHEMA_VERSION
from tests.helpers.history_data import prepared


def _journal_path() -> Path:
    return paths.resolve().history_db


def _refused(path: Path) -> JournalUnavailableError:
    with pytest.raises(JournalUnavailableError) as caught:
        History(path)
    assert caught.value.path == str(path)
    assert str(path) in caught.value.message  # where the file is
    assert "Nothing can be sent" in caught.value.message
    return caught.value


def test_a_folder_at_the_journal_path_says_move_that_folder() -> None:
    path = _journal_path()
    path.mkdir(parents=True)
    (path / "keep.txt").write_text("mine", encoding="utf-8")
    error = _refused(path)
    assert "There is a folder at" in error.message
    assert "Move or rename that folder" in error.message
    assert (path / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_a_damaged_file_says_move_it_away_and_is_kept() -> None:
    path = _journal_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    error = _refused(path)
    assert "is damaged" in error.message
    assert "Move it away" in error.message
    assert path.read_bytes() == before


def test_a_newer_schema_says_update_and_is_kept() -> None:
    path = _journal_path()
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 7}")
    before = path.read_bytes()
    error = _refused(path)
    assert "newer Gateway Console" in error.message
    assert "Update the console" in error.message
    assert path.read_bytes() == before


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() == 0,
    reason="a read-only folder does not stop root (or Windows ACLs are not chmod)",
)
def test_a_read_only_folder_says_give_write_access() -> None:
    path = _journal_path()
    path.parent.mkdir(parents=True)
    path.parent.chmod(0o500)
    try:
        error = _refused(path)
    finally:
        path.parent.chmod(0o700)
    assert "read-only" in error.message
    assert "write access" in error.message
    assert not path.exists()


def test_a_read_only_database_says_give_write_access(monkeypatch: pytest.MonkeyPatch) -> None:
    """What SQLite says for a read-only folder or file, injected (tests run as root here,
    and root writes through a chmod)."""
    real = sqlite3.connect

    def read_only(*args: object, **kwargs: object) -> sqlite3.Connection:
        db = real(*args, **kwargs)  # type: ignore[arg-type]
        db.close()
        exc = sqlite3.OperationalError("attempt to write a readonly database")
        exc.sqlite_errorcode = sqlite3.SQLITE_READONLY
        raise exc

    monkeypatch.setattr("console.core.history.schema.sqlite3.connect", read_only)
    error = _refused(_journal_path())
    assert "read-only for this user" in error.message
    assert "Move it away" not in error.message


def test_a_full_disk_says_free_space_not_move_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOSPC injected at the SQLite open (a real full disk needs a mount of its own)."""

    def full(*args: object, **kwargs: object) -> sqlite3.Connection:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("console.core.history.schema.sqlite3.connect", full)
    error = _refused(_journal_path())
    assert "is full" in error.message
    assert "Free some space" in error.message
    assert "Move" not in error.message


def test_a_full_disk_while_journalling_refuses_the_send(
    rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = History()
    hooks = history.journal("sb")

    def full(durable: bool = True) -> object:
        exc = sqlite3.OperationalError("database or disk is full")
        exc.sqlite_errorcode = sqlite3.SQLITE_FULL
        raise exc

    monkeypatch.setattr(history, "writing", full)
    with pytest.raises(JournalUnavailableError, match="Free some space"):
        hooks.before_send(prepared(rsa_key))


@pytest.mark.parametrize("action", [["history"], ["history", "export", "out.csv"]])
def test_history_commands_say_why_and_exit_10(
    action: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _journal_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage" * 500)
    if action[-1] == "out.csv":
        action = [*action[:-1], str(tmp_path / "out.csv")]
    assert main(action) == 10
    captured = capsys.readouterr()
    assert "is damaged" in captured.err
    assert str(path) in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""
    assert path.read_bytes() == b"garbage" * 500


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_journal_files_are_readable_by_their_owner_only(rsa_key: rsa.RSAPrivateKey) -> None:
    umask = os.umask(0o022)  # the usual umask, under which files were created 0644
    try:
        with History() as history:
            history.journal("sb").before_send(prepared(rsa_key))
            path = history.path
            for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                assert name.exists(), name
                assert _mode(name) == 0o600, name
    finally:
        os.umask(umask)
    assert _mode(path.parent) == 0o700


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_an_existing_world_readable_journal_is_tightened() -> None:
    path = _journal_path()
    path.parent.mkdir(parents=True)
    sqlite3.connect(path).close()
    path.chmod(0o644)
    History(path).close()
    assert _mode(path) == 0o600


def test_history_counts_every_interrupted_request(
    rsa_key: rsa.RSAPrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    """Twenty sends killed one after another: each next start recovered the one before."""
    for n in range(20):
        with History() as sending:  # a console that is killed while sending
            row = sending.begin("sb", prepared(rsa_key, client_orderid=f"k-{n}"), window=-1.0)
            with sending.writing() as db:  # its process is gone
                db.execute("UPDATE requests SET writer_pid = 0 WHERE id = ?", (row,))
    with History() as history:
        history.set_final_status("sb", "k-3", "approved", source="status")  # one was checked
    assert main(["history", "--limit", "0"]) == 0
    assert "19 request(s) were interrupted" in capsys.readouterr().err


def test_a_disk_that_fails_the_sync_refuses_the_send_and_names_the_journal(
    rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pending row is written but its sync fails (ENOSPC from the disk): it may not be
    on disk, so nothing may leave."""
    history = History()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fdatasync", full)
    with pytest.raises(JournalUnavailableError) as refused:
        history.journal("sb").before_send(prepared(rsa_key))
    assert refused.value.path == str(history.path)
    assert f"The disk holding the history ({history.path}) is full" in refused.value.message
