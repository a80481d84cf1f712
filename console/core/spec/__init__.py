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
