"""The window (PySide6).

PySide6 replaces Python's import statement for the whole process with its own, which reads
the source of every module imported after it to see whether it mentions PySide6: that is
how its opt-in ``from __feature__ import snake_case, true_property`` switches know which
modules asked. The console uses none of them, and reading the window's hundred modules cost
about a fifth of its start-up. Python's own import statement, which PySide6 keeps beside
its replacement as ``builtins.__orig_import__``, is put back before any module of the
window loads.
"""

import builtins

import PySide6  # noqa: F401 (installs its import statement; put back below)

builtins.__import__ = getattr(builtins, "__orig_import__", builtins.__import__)
