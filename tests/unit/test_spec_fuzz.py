"""validate() and request_fields() take whatever a person can type without raising."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from console.core.spec import COMMANDS, PROBLEM_CODES, Severity, request_fields, validate

_NAMES = sorted(
    {n for c in COMMANDS.values() for f in c.fields for n in (f.name, f.alias) if n}
    | {"login", "oauth_nonce", "unknown"}
)
# Text that looks like the values the checks parse, mixed with anything at all.
_VALUES = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"[0-9.,\- :/]{0,24}", fullmatch=True),
    st.sampled_from(["SRC", "DST", "day", "US", "USA", "0", "-1", "13", "2026-12-01"]),
)


@settings(max_examples=200, deadline=None)
@given(
    command=st.sampled_from(sorted(COMMANDS)),
    values=st.dictionaries(st.one_of(st.sampled_from(_NAMES), st.text(max_size=10)), _VALUES),
    today=st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 12, 31)),
)
def test_validate_never_raises(command: str, values: dict[str, str], today: date) -> None:
    problems = validate(command, values, today=today)
    for p in problems:
        assert p.code in PROBLEM_CODES
        assert p.severity in (Severity.ERROR, Severity.WARNING)
        assert p.fields
        assert p.message
    pairs = request_fields(command, values)
    # sent exactly as given: never trimmed, only empty or blank values left out
    assert all(value.strip() and values[name] == value for name, value in pairs)
    assert not any(name == "login" or name.startswith("oauth_") for name, _ in pairs)
