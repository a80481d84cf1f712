"""The window (PySide6), and two settings of its process made as its first module loads.

PySide6 replaces Python's import statement for the whole process with its own, which reads
the source of every module imported after it to see whether it mentions PySide6: that is
how its opt-in ``from __feature__ import snake_case, true_property`` switches know which
modules asked. The console uses none of them, and reading the window's hundred modules cost
about a fifth of its start-up. Python's own import statement, which PySide6 keeps beside
its replacement as ``builtins.__orig_import__``, is put back before any module of the
window loads.

Until the window's first paint, Python's cycle collector runs rarely: the start creates
some fifty thousand objects that all stay (Qt's enums, the contract's tables, the widgets),
and walking them again and again found nothing to free while costing several milliseconds.
:func:`collect_as_usual` (called after the first paint) restores the usual pace; a process
that never shows a window still collects, a hundred times less often.
"""

import builtins
import gc

_USUAL_PACE = gc.get_threshold()
gc.set_threshold(_USUAL_PACE[0] * 100, *_USUAL_PACE[1:])

import PySide6  # noqa: E402, F401 (installs its import statement; put back below)

builtins.__import__ = getattr(builtins, "__orig_import__", builtins.__import__)


def collect_as_usual() -> None:
    """The window is up: the cycle collector runs at Python's usual pace again."""
    gc.set_threshold(*_USUAL_PACE)
