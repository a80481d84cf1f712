"""UI icons through ``console.core.resources`` (importlib.resources; never a CWD path).

A missing or unknown icon gives an empty QIcon: the window works without its icons.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon

from console.core import resources


@cache
def icon(name: str) -> QIcon:
    """A UI icon by name (``send``, ``copy``, ``reveal`` ...), or an empty icon."""
    try:
        path = resources.as_path(resources.icon(name))
    except (ValueError, OSError):
        return QIcon()
    return QIcon(str(path)) if path.is_file() else QIcon()


def app_icon() -> QIcon:
    """The application icon in every shipped size, or an empty icon when none is found."""
    result = QIcon()
    for size in resources.APP_ICON_SIZES:
        try:
            path = resources.as_path(resources.app_icon_png(size))
        except (ValueError, OSError):
            break
        if path.is_file():
            result.addFile(str(path), QSize(size, size))
    return result
