"""The command line's argument parser: argparse's, with help as wide as the terminal worked
out without :mod:`shutil`.

argparse makes a help formatter for every option it adds, and its formatter imports shutil
for the terminal's width, and shutil imports the bz2, lzma and zlib libraries: a few
milliseconds of every command's start (``sign`` and ``verify`` are measured against bare
Python). The width is found the way ``shutil.get_terminal_size`` finds it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def terminal_columns() -> int:
    """``$COLUMNS`` when set, else the width of the terminal on standard output, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _TerminalWidth(argparse.HelpFormatter):
    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # argparse's own formatter leaves two columns free too
        super().__init__(
            prog,
            indent_increment,
            max_help_position,
            terminal_columns() - 2 if width is None else width,
        )


class HelpFormatter(_TerminalWidth):
    """argparse's help layout: descriptions and epilogs wrapped."""


class RawDescriptionHelpFormatter(_TerminalWidth, argparse.RawDescriptionHelpFormatter):
    """Descriptions and epilogs kept as written (tables of exit codes, examples)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose sub-command parsers are Parsers too (argparse makes them of
    the parent's class) and whose help is formatted by :class:`HelpFormatter` unless told."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
