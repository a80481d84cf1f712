"""The console's icons, found through importlib.resources (never relative to the current
directory), without Qt.

Where they are:

- installed wheel: ``console/resources/`` in site-packages (``setup.py`` maps the top-level
  ``resources/`` folder to the package ``console.resources``);
- PyInstaller build: the same ``console/resources/`` folder inside the bundle;
- source checkout or editable install: the top-level ``resources/`` folder itself.

Qt wants file names, so :func:`as_path` turns a resource into a real path (extracting it
only when the package was imported from a zip file).
"""

from __future__ import annotations

import atexit
import contextlib
from dataclasses import dataclass
from functools import cache
from importlib import resources as importlib_resources
from importlib.resources.abc import Traversable
from pathlib import Path

APP_ICON_SIZES: tuple[int, ...] = (16, 24, 32, 48, 64, 128, 256, 512)
ICON_NAMES: tuple[str, ...] = (
    "send",
    "copy",
    "reveal",
    "conceal",
    "generate",
    "sandbox",
    "production",
    "refresh",
    "history",
    "key",
    "environment",
    "help",
)
APP_ICON_SVG = "app-icon.svg"
APP_ICON_ICO = "app-icon.ico"
APP_ICON_ICNS = "app-icon.icns"

# Extracted copies (zip imports only) live until the process ends.
_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)


class ResourcesNotFoundError(FileNotFoundError):
    """The resources folder is missing: the installation is incomplete."""


@cache  # asked for every icon at start-up; the installation does not move while running
def root() -> Traversable:
    """The folder holding the icons (see the module docstring for where that is)."""
    packaged = importlib_resources.files("console") / "resources"
    if packaged.is_dir():
        return packaged
    source = Path(__file__).resolve().parents[2] / "resources"
    if source.is_dir():
        return source
    raise ResourcesNotFoundError(
        f"The icons of Gateway Console are missing (looked in {packaged} and {source}). "
        "Reinstall the application."
    )


def icon(name: str) -> Traversable:
    """A UI icon (SVG) by name, e.g. ``icon("send")``.

    Raises:
        ValueError: ``name`` is not one of :data:`ICON_NAMES`.
    """
    if name not in ICON_NAMES:
        raise ValueError(f"No icon named {name!r}; the icons are: {', '.join(ICON_NAMES)}.")
    return root() / "icons" / f"{name}.svg"


def app_icon_svg() -> Traversable:
    """The application icon's SVG master."""
    return root() / APP_ICON_SVG


def app_icon_png(size: int) -> Traversable:
    """The application icon rendered at ``size`` pixels.

    Raises:
        ValueError: no rendering of that size is shipped (see :data:`APP_ICON_SIZES`).
    """
    if size not in APP_ICON_SIZES:
        sizes = ", ".join(map(str, APP_ICON_SIZES))
        raise ValueError(f"No {size} px application icon; the sizes are: {sizes}.")
    return root() / f"app-icon-{size}.png"


def expected_files() -> list[str]:
    """Every file the console expects, relative to :func:`root`, in a stable order."""
    names = [APP_ICON_SVG, APP_ICON_ICO, APP_ICON_ICNS]
    names += [f"app-icon-{size}.png" for size in APP_ICON_SIZES]
    names += [f"icons/{name}.svg" for name in ICON_NAMES]
    return names


def as_path(resource: Traversable) -> Path:
    """A real file path for ``resource``, for APIs such as Qt's that want a file name."""
    if isinstance(resource, Path):
        return resource
    return _extracted.enter_context(importlib_resources.as_file(resource))


@dataclass(frozen=True, slots=True)
class ResourceCheck:
    """The outcome of :func:`check`: where the resources are and which files are missing."""

    location: str
    expected: int
    missing: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.missing

    def summary(self) -> str:
        """One line for the log and the diagnostics text."""
        if self.ok:
            return f"all {self.expected} resource files found in {self.location}"
        return (
            f"{len(self.missing)} of {self.expected} resource files missing in "
            f"{self.location}: {', '.join(self.missing)}"
        )


def check() -> ResourceCheck:
    """Look for every expected file; never raises."""
    names = expected_files()
    try:
        base = root()
    except ResourcesNotFoundError as exc:
        return ResourceCheck(str(exc), len(names), tuple(names))
    missing = tuple(name for name in names if not _child(base, name).is_file())
    return ResourceCheck(str(base), len(names), missing)


def missing() -> list[str]:
    """The expected files that are absent (empty when the installation is complete)."""
    return list(check().missing)


def _child(base: Traversable, relative: str) -> Traversable:
    node = base
    for part in relative.split("/"):
        node = node / part
    return node
