"""A value of thousands of digits in any field is named as too long or too large, never a crash:
lengths and sizes are checked before anything is converted to a number."""

from __future__ import annotations

import pytest

from console.cli import main
from console.core.spec import COMMANDS, example_values, validate

HUGE = "1" * 5000
# the fields whose length or type 5000 digits break (free text up to 64k is fine)
FIELDS = [
    (c.name, f.name)
    for c in COMMANDS.values()
    for f in c.fields
    if not f.choices
    and ((f.length.max is not None and f.length.max < len(HUGE)) or f.type.value in ("Int", "Long"))
]


@pytest.mark.parametrize(("command", "name"), FIELDS, ids=[f"{c}:{n}" for c, n in FIELDS])
def test_thousands_of_digits_are_a_problem_not_a_crash(command: str, name: str) -> None:
    values = example_values(command)
    values[name] = HUGE
    found = [p for p in validate(command, values) if name in p.fields]
    assert found, name  # said, with the field named


@pytest.mark.parametrize("name", ["expire_month", "expire-month", "interval", "max-repeats-number"])
def test_the_command_line_names_the_field(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    command = "payout-check" if name == "expire_month" else "create-recurring-payment"
    assert main(["validate", command, "-f", f"{name}={HUGE}"]) == 1
    out = capsys.readouterr().out
    assert f"{name}:" in out
    assert "4300" not in out
    assert "internal error" not in out
