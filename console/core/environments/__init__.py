"""Named environments: where requests go and as whom, and the connection built from one.

The public surface is what this package exports; its modules each do one job:
``model`` (the :class:`Environment` record and the built-in local sandbox), ``rules`` (what a
valid environment is, each problem naming the field and its fix), ``storage``
(environments.json: damaged files refused untouched, atomic writes under a lock file),
``store`` (:class:`EnvironmentStore`: list, add, edit, remove, choose) and ``connection``
(:func:`connect`: environment plus key, with the rules checked again before every use).

The file is readable JSON under the config directory (``paths.environments_file``) with a
``schema`` version; it never holds a secret (keys and control secrets are in the OS keyring,
see :mod:`console.core.vault`).

Errors (all :class:`EnvironmentStoreError`): :class:`InvalidEnvironmentError` (``problems``
name each field) and its :class:`UnusableEnvironmentError` (a stored environment breaks a
rule, typically after a hand edit: it is listed but nothing is sent to it),
:class:`ConfirmationRequiredError` (a production address changes: ask, then pass
``confirm=True``), :class:`UnknownEnvironmentError`, :class:`BuiltinEnvironmentError` (the
local sandbox cannot be edited), :class:`EnvironmentFileError` (damaged, unreadable or newer
file, left untouched; or locked by another process for too long),
:class:`EnvironmentNotReadyError` (local sandbox not running here).
"""

from __future__ import annotations

from console.core.environments.connection import Connection, connect, prepare_kwargs
from console.core.environments.errors import (
    BuiltinEnvironmentError,
    ConfirmationRequiredError,
    EnvironmentFileError,
    EnvironmentNotReadyError,
    InvalidEnvironmentError,
    UnknownEnvironmentError,
    UnusableEnvironmentError,
)
from console.core.environments.model import (
    LOCAL_SANDBOX_NAME,
    CallbackListenerSettings,
    Environment,
    EnvKind,
    local_sandbox,
)
from console.core.environments.rules import FieldProblem, problems
from console.core.environments.store import EnvironmentStore
from console.core.errors import EnvironmentStoreError

__all__ = [
    "LOCAL_SANDBOX_NAME",
    "BuiltinEnvironmentError",
    "CallbackListenerSettings",
    "ConfirmationRequiredError",
    "Connection",
    "EnvKind",
    "Environment",
    "EnvironmentFileError",
    "EnvironmentNotReadyError",
    "EnvironmentStore",
    "EnvironmentStoreError",
    "FieldProblem",
    "InvalidEnvironmentError",
    "UnknownEnvironmentError",
    "UnusableEnvironmentError",
    "connect",
    "local_sandbox",
    "prepare_kwargs",
    "problems",
]
