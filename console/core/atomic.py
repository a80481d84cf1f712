"""Replacing a file atomically: written to a temporary file beside it, flushed to disk, then
renamed over it, so a reader (or a crash) never sees half a file. Only a regular file is
replaced: a device, a pipe or a folder of that name is refused."""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO


def write_text_atomic(path: Path, text: str, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically; ``mode`` as for write_atomic."""

    def write(fh: TextIO) -> None:
        fh.write(text)

    write_atomic(path, write, mode=mode)


def write_atomic(path: Path, write: Callable[[TextIO], None], *, mode: int | None = None) -> None:
    """Call ``write(file)`` on a temporary file in ``path``'s folder, then rename it to
    ``path``. ``mode`` sets the file's permissions (the temporary file's are 0600)."""

    def text(fd: int) -> None:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())

    _replace(path, text, mode)


def write_atomic_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """:func:`write_atomic` for a file of bytes (a workbook)."""

    def binary(fd: int) -> None:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())

    _replace(path, binary, mode)


def _replace(path: Path, write: Callable[[int], None], mode: int | None) -> None:
    if path.exists() and not path.is_file():
        # a device (/dev/full), a pipe or a folder would be replaced by a file (as root, a
        # device node too): refused, whatever the permissions allow
        raise OSError(errno.EINVAL, "not a regular file: a device, a pipe or a folder")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        write(fd)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
