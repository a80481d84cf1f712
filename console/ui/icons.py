"""Icons from the ``console.resources`` package (importlib.resources; never a CWD path).

Missing resources give an empty icon: the window works without them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from PySide6.QtGui import QIcon

_PACKAGE = "console.resources"


def _read(*parts: str) -> bytes | None:
    try:
        node = resources.files(_PACKAGE)
        for part in parts:
            node = node.joinpath(part)
        return node.read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, OSError, TypeError):
        return None


def _icon_from(data: bytes | None) -> QIcon:
    from PySide6.QtGui import QPixmap

    if not data:
        return QIcon()
    pix = QPixmap()
    pix.loadFromData(data)
    return QIcon(pix) if not pix.isNull() else QIcon()


@cache
def icon(name: str) -> QIcon:
    """A UI icon by name (``send``, ``copy``, ``reveal`` ...), or an empty icon."""
    return _icon_from(_read("icons", f"{name}.svg"))


@cache
def app_icon() -> QIcon:
    """The application icon in every size shipped, or an empty icon."""
    result = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        data = _read(f"app-icon-{size}.png")
        if data:
            from PySide6.QtGui import QPixmap

            pix = QPixmap()
            if pix.loadFromData(data):
                result.addPixmap(pix)
    return result
