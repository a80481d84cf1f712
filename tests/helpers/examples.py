"""A command's example values with some fields changed or left out."""

from __future__ import annotations

from console.core.spec import example_values


def changed_example(command: str, change: dict[str, str | None]) -> dict[str, str]:
    """``command``'s example values with ``change`` applied (None: the field left out)."""
    values = example_values(command)
    for name, value in change.items():
        if value is None:
            del values[name]
        else:
            values[name] = value
    return values
