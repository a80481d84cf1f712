"""What validation works out once and keeps (each value's findings, what a set of filled
fields decides, a batch file's rows checked together) says exactly what checking each request
afresh says: the same problems, in the same order, whatever was validated before."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from console.core.spec import (
    COMMANDS,
    Code,
    Problem,
    example_values,
    validate,
    validate_rows,
)
from console.core.spec.command_rules import RULES
from console.core.spec.layouts import rule_steps

_NAMES = sorted(
    {n for c in COMMANDS.values() for f in c.fields for n in (f.name, f.alias) if n}
    | {"login", "oauth_nonce", "unknown"}
)
# Values the checks and rules tell apart, and anything at all.
_TOLD_APART = [
    "SRC", "DST", "US", "USA", "DE", "12", "1", "13", "2020", "2031", "30", "0", "0.00",
    "10.00", "10.505", "1.234", "5,6", "EUR", "JPY", "BHD", "01.01.2027", "31.12.2026",
    "https://merchant.example/cb", "4444444444444448", "4444444444444449", " 12", "a\tb", "",
    " ",
]  # fmt: skip
_VALUES = st.one_of(st.sampled_from(_TOLD_APART), st.text(max_size=12))
_DAYS = st.sampled_from([date(2020, 5, 5), date(2026, 11, 25), date(2031, 1, 1)])


@st.composite
def _request(draw: st.DrawFn, command: str) -> dict[str, str]:
    """A command's valid example with some fields left out and some values changed."""
    values = example_values(command, today=date(2026, 11, 25))
    for name in draw(st.lists(st.sampled_from(sorted(values)), max_size=4)):
        values.pop(name, None)
    values.update(draw(st.dictionaries(st.sampled_from(_NAMES), _VALUES, max_size=4)))
    return values


def _fresh(command: str, values: Mapping[str, str], today: date) -> list[Problem]:
    """The rules part of validation as the rule table says it: every rule run in turn."""
    out: list[Problem] = []
    for rule in RULES.get(command, ()):
        rule(values, today, out)
    return out


@settings(max_examples=300, deadline=None)
@given(data=st.data(), command=st.sampled_from(sorted(RULES)), today=_DAYS)
def test_rule_findings_kept_for_a_set_of_fields_are_what_every_rule_says(
    data: st.DataObject, command: str, today: date
) -> None:
    names = data.draw(st.sets(st.sampled_from(sorted(f.name for f in COMMANDS[command].fields))))
    first, second = ({n: data.draw(_VALUES.filter(bool)) for n in sorted(names)} for _ in "ab")
    steps = rule_steps(RULES[command], first, today)
    found: list[Problem] = []
    for step in steps:  # kept on the first request, used for another with the same fields
        if isinstance(step, tuple):
            found.extend(step)
        else:
            step(second, today, found)
    assert found == _fresh(command, second, today)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), command=st.sampled_from(sorted(COMMANDS)), today=_DAYS)
def test_rows_checked_together_get_what_each_gets_on_its_own(
    data: st.DataObject, command: str, today: date
) -> None:
    rows = data.draw(st.lists(_request(command), max_size=6))
    rows += rows[:2]  # repeated rows and values, as in a real file
    assert validate_rows(command, rows, today=today) == [
        validate(command, row, today=today) for row in rows
    ]


def test_a_card_expiring_this_month_is_warned_about_from_the_next_month_on() -> None:
    # the same request on two days: what one day kept is not the next day's word
    values = example_values("payout-check", today=date(2026, 11, 25))
    values.update(expire_month="11", expire_year="2026")

    def expired(today: date) -> bool:
        return any(p.code == Code.EXPIRED for p in validate("payout-check", values, today=today))

    assert not expired(date(2026, 11, 30))
    assert expired(date(2026, 12, 1))
    assert not expired(date(2026, 11, 30))


def test_a_field_filled_under_its_name_and_its_alias_is_an_error_whatever_came_before() -> None:
    values = example_values("payout-check", today=date(2026, 11, 25))
    validate("payout-check", values)  # its values met before, each with nothing to say
    both = {"first_name": values["receiver_first_name"], **values}  # the alias first
    problems = validate("payout-check", both)
    assert [p.code for p in problems if p.code == Code.ALIAS_DUPLICATE] == ["alias-duplicate"]
    assert validate_rows("payout-check", [both]) == [problems]
