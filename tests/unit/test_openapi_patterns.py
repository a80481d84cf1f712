"""The patterns the OpenAPI description states are the formats validation checks: a value the
console takes always matches its field's pattern (a mock server or a generated client never
refuses it), and the contract's bad writings do not."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from console.core.exports import openapi_document
from console.core.spec import COMMANDS
from console.core.spec.field_rules import field_checks, field_pattern
from console.core.spec.model import Field, Problem, Severity

PATTERNED = [
    (c.name, f) for c in COMMANDS.values() for f in c.fields if field_pattern(f) is not None
]


def _accepted(f: Field, value: str) -> bool:
    """Validation's checks of ``f`` find no error in ``value`` (they stop where they say)."""
    out: list[Problem] = []
    for check in field_checks(f):
        if not check(f, f.name, value, out):
            break
    return not any(p.severity is Severity.ERROR for p in out)


@pytest.mark.parametrize(("command", "field"), PATTERNED, ids=[f.name for _, f in PATTERNED])
@given(value=st.text(alphabet="0123456789+-.,: AZaz", max_size=14))
def test_every_value_validation_takes_matches_the_pattern_stated(
    command: str, field: Field, value: str
) -> None:
    pattern = field_pattern(field)
    assert pattern is not None
    if _accepted(field, value):
        assert re.fullmatch(pattern, value), value


@pytest.mark.parametrize(
    ("command", "name", "value"),
    [
        ("payout-check", "amount", "1,234.50"),
        ("payout-check", "amount", "10."),
        ("payout-check", "expire_month", "13"),
        ("payout-check", "expire_month", "00"),
        ("payout-check", "currency", "usd"),
        ("payout-check", "receiver_country_code", "us"),
        ("create-recurring-payment", "country", "USA"),
        ("payout-check", "customer_id", "-1"),
        ("create-recurring-payment", "interval", "0"),
        ("create-recurring-payment", "start-date", "2030-12-01"),
        ("create-recurring-payment", "amount-sequence", "1.00, 2.00"),
    ],
)
def test_the_description_states_the_pattern_and_it_refuses_the_bad_writings(
    command: str, name: str, value: str
) -> None:
    field = COMMANDS[command].field(name)
    assert field is not None
    assert not _accepted(field, value)
    schema_name = "".join(part.title() for part in command.split("-")) + "Request"
    schema = openapi_document()["components"]["schemas"][schema_name]
    pattern = schema["properties"][name]["pattern"]
    assert pattern == field_pattern(field)
    assert not re.fullmatch(pattern, value)
