"""Files only their owner may read: journals, state files, drafts."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def owner_only(path: Path) -> None:
    """Create the file 0600, or take group and other access away from an existing one (and
    from its SQLite ``-wal`` and ``-shm`` files, which SQLite makes with the file's mode)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    os.close(fd)
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(FileNotFoundError):
            if name.stat().st_mode & 0o077:
                name.chmod(0o600)
