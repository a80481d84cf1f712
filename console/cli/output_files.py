"""Files the command line writes where a person says (--output, --output-dir): a place that
cannot be written is the option's problem, said so, never an internal error."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from console.cli.request_args import UsageError


@contextmanager
def writing(option: str, path: Path) -> Iterator[None]:
    """A file or folder that cannot be written (a full disk, /dev/full, no permission, a
    device, a pipe or a file where a folder should be) is a usage error naming ``option``."""
    try:
        yield
    except OSError as exc:
        raise UsageError(
            f"{option} {path}: cannot write there ({exc.strerror or exc}). Name a file or "
            "folder you can write to, with room left."
        ) from exc
