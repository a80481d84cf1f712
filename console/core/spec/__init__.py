"""The contract as data: commands, fields, rules, paths and examples.

Pure data and pure functions, no I/O and no Qt. The UI builds its forms from
:data:`COMMANDS`, and the CLI, the client and the sandbox all validate with :func:`validate`.

Public API:
    COMMANDS, get_command, sections, SECTION_TITLES: the tables.
    validate, validate_rows, request_fields, PROBLEM_CODES, Code: the rules (validate_rows:
        many requests at once, a batch file's rows).
    command_url: request addresses from path templates.
    example_values: valid example requests.
    preload: load the ISO code lists ahead of the first validation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.core.lazy import lazy_exports

if TYPE_CHECKING:
    from .codes import PROBLEM_CODES, Code
    from .commands import COMMANDS, SECTION_TITLES, get_command, sections
    from .engine import request_fields, validate, validate_rows
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
    "validate_rows": "engine",
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
    "validate_rows",
]


__getattr__ = lazy_exports(__name__, _HOMES)
