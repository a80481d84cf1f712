"""environments.json on disk: read it whole or refuse it untouched; write it atomically.

Reading turns every way the file can be damaged (not UTF-8, not JSON, nested too deep, wrong
shapes, a newer schema) into :class:`EnvironmentFileError`, whose message says where the file
is and what to do; the file is never changed then. Changes are made under a lock file next to
it (``environments.json.lock``, through ``filelock``): the file is read again under the lock,
changed, and replaced atomically (temporary file, fsync, rename), so processes that change it
at the same time each keep their change.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from console.core.environments.errors import EnvironmentFileError
from console.core.environments.model import Environment

SCHEMA_VERSION = 1
LOCK_TIMEOUT = 15.0  # seconds; a change takes milliseconds, so waiting this long means trouble
_NOTE = "No secrets here: keys and control secrets are kept in the OS keyring."

Contents = tuple[str | None, list[Environment]]
"""The active environment's name (or None) and the stored environments."""


def _damaged(path: Path, detail: str) -> EnvironmentFileError:
    return EnvironmentFileError(
        f"{path} is damaged ({detail}). Fix it in a text editor or move it away (the console "
        "then starts with no saved environments); nothing was changed."
    )


def read(path: Path) -> Contents:
    """The file's contents; nothing stored when it does not exist.

    Raises:
        EnvironmentFileError: unreadable, damaged or written by a newer console.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, []
    except OSError as exc:
        raise EnvironmentFileError(
            f"Cannot read {path}: {exc.strerror}. Check the file's permissions; "
            "nothing was changed."
        ) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _damaged(path, f"it is not UTF-8 text: byte {exc.start} is not valid") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise _damaged(path, "it is nested too deeply to be environment settings") from None
    except ValueError as exc:
        raise _damaged(path, str(exc)) from exc
    try:
        schema = int(data.get("schema", 0))
        if schema > SCHEMA_VERSION:
            raise EnvironmentFileError(
                f"{path} was written by a newer Gateway Console (schema {schema}); "
                "update the console. The file was left as it is."
            )
        envs = [Environment.from_json(e) for e in data.get("environments", [])]
        active = data.get("active")
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise _damaged(path, f"{type(exc).__name__}: {exc}") from exc
    return (str(active) if active else None), envs


def write(path: Path, active: str | None, envs: list[Environment]) -> None:
    """Replace the file atomically with ``envs``; call it under :func:`locked`."""
    data = {
        "schema": SCHEMA_VERSION,
        "note": _NOTE,
        "active": active,
        "environments": [e.to_json() for e in sorted(envs, key=lambda e: e.name.lower())],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".environments-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; Windows cannot open a folder for this)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the lock of ``path`` (one change at a time, across processes).

    Raises:
        EnvironmentFileError: another process held it for :data:`LOCK_TIMEOUT` seconds.
    """
    import filelock  # on the first change: its import costs a start-up ~20 ms

    path.parent.mkdir(parents=True, exist_ok=True)
    lock_path = path.with_name(path.name + ".lock")
    lock = filelock.FileLock(lock_path, timeout=LOCK_TIMEOUT)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise EnvironmentFileError(
            f"{path} is being changed by another Gateway Console ({lock_path} stayed locked "
            f"for {LOCK_TIMEOUT:g} s). Try again when it has finished; nothing was changed."
        ) from None
    try:
        yield
    finally:
        lock.release()
