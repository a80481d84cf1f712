"""The contract as data: commands, fields, rules, paths and examples.

Pure data and pure functions, no I/O and no Qt. The UI builds its forms from
:data:`COMMANDS`, and the CLI, the client and the sandbox all validate with :func:`validate`.

Public API:
    COMMANDS, get_command, sections, SECTION_TITLES: the tables.
    validate, request_fields, PROBLEM_CODES, Code: the rules.
    command_url: request addresses from path templates.
    example_values: valid example requests.
    preload: load the ISO code lists ahead of the first validation.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .codes import PROBLEM_CODES, Code
    from .commands import COMMANDS, SECTION_TITLES, get_command, sections
    from .engine import request_fields, validate
    from .examples import example_values
    from .iso import preload
    from .model import (
        CardType,
        Command,
        Field,
        FieldType,
        Length,
        Necessity,
        Problem,
        ResponseField,
        Severity,
    )
    from .paths import command_url

# Each public name and the module it lives in. A name is loaded on first use, so importing
# one table (the masking rule reads the command tables; the lab reads nothing else) does not
# load the rule engine, the examples and the path rules with it.
_HOMES = {
    "PROBLEM_CODES": "codes",
    "Code": "codes",
    "COMMANDS": "commands",
    "SECTION_TITLES": "commands",
    "get_command": "commands",
    "sections": "commands",
    "request_fields": "engine",
    "validate": "engine",
    "example_values": "examples",
    "preload": "iso",
    "CardType": "model",
    "Command": "model",
    "Field": "model",
    "FieldType": "model",
    "Length": "model",
    "Necessity": "model",
    "Problem": "model",
    "ResponseField": "model",
    "Severity": "model",
    "command_url": "paths",
}

__all__ = [
    "COMMANDS",
    "PROBLEM_CODES",
    "SECTION_TITLES",
    "CardType",
    "Code",
    "Command",
    "Field",
    "FieldType",
    "Length",
    "Necessity",
    "Problem",
    "ResponseField",
    "Severity",
    "command_url",
    "example_values",
    "get_command",
    "preload",
    "request_fields",
    "sections",
    "validate",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # once: later look-ups are plain module attributes
    return value
