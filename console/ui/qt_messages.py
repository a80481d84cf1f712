"""Qt's own messages: pass every one on except known offscreen-platform noise."""

from __future__ import annotations

import sys
from collections.abc import Callable

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

# The offscreen platform (``--screenshot``, tests) cannot pass window size hints on and says
# so on every shown window; it is not a problem of the application.
NOISE = ("This plugin does not support propagateSizeHints()",)

_Handler = Callable[[QtMsgType, QMessageLogContext, str], object]
_installed = False
_previous: _Handler | None = None


def is_noise(message: str) -> bool:
    """True for a message that says nothing about the application."""
    return message.strip() in NOISE


def install() -> None:
    """Filter :data:`NOISE`; everything else goes to the previous handler (or stderr)."""
    global _installed, _previous
    if _installed:
        return
    _installed = True
    _previous = qInstallMessageHandler(_handle)


def _handle(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    if is_noise(message):
        return
    if _previous is not None:
        _previous(kind, context, message)
    else:
        print(message, file=sys.stderr)
