"""Every field gets the checks its table row asks for: length, type and necessity.

The rows themselves are compared with the contract in test_spec_tables.py; here every row is
walked to see that validation applies it, one field at a time.
"""

from __future__ import annotations

from datetime import date

import pytest

from console.core.spec import COMMANDS, Field, FieldType, Necessity, example_values, validate

TODAY = date(2026, 6, 15)
ALL = [(c.name, f) for c in COMMANDS.values() for f in c.fields]


def _ids(cases: list[tuple[str, Field]]) -> list[str]:
    return [f"{command}:{f.name}" for command, f in cases]


def codes_for(command: str, name: str, value: str | None) -> set[str]:
    """The problem codes about ``name`` after setting it in the command's example."""
    values = example_values(command, today=TODAY)
    if value is None:
        values.pop(name, None)
    else:
        values[name] = value
    return {p.code for p in validate(command, values, today=TODAY) if name in p.fields}


WITH_MAX = [(c, f) for c, f in ALL if f.length.max is not None and f.type is not FieldType.DATE]
WITH_MIN = [(c, f) for c, f in ALL if f.length.min is not None]


@pytest.mark.parametrize(("command", "f"), WITH_MAX, ids=_ids(WITH_MAX))
def test_length_limit_of_every_field(command: str, f: Field) -> None:
    assert f.length.max is not None
    assert "too-long" in codes_for(command, f.name, "1" * (f.length.max + 1))
    assert "too-long" not in codes_for(command, f.name, "1" * f.length.max)


@pytest.mark.parametrize(("command", "f"), WITH_MIN, ids=_ids(WITH_MIN))
def test_lower_length_limit(command: str, f: Field) -> None:
    assert f.length.min is not None
    assert "too-short" in codes_for(command, f.name, "1" * (f.length.min - 1))
    assert "too-short" not in codes_for(command, f.name, "1" * f.length.min)


REQUIRED = [(c, f) for c, f in ALL if f.necessity is Necessity.REQUIRED]


@pytest.mark.parametrize(("command", "f"), REQUIRED, ids=_ids(REQUIRED))
def test_every_required_field(command: str, f: Field) -> None:
    assert "required" in codes_for(command, f.name, None)
    assert "required" in codes_for(command, f.name, "   ")


NUMERIC = [(c, f) for c, f in ALL if f.type in (FieldType.NUMERIC, FieldType.INT, FieldType.LONG)]


@pytest.mark.parametrize(("command", "f"), NUMERIC, ids=_ids(NUMERIC))
def test_numbers_refuse_letters(command: str, f: Field) -> None:
    # a list of amounts is a format matter; a single number with a letter is of the wrong type
    expected = "format" if f.name == "amount-sequence" else "type"
    assert expected in codes_for(command, f.name, "1a")


DATES = [(c, f) for c, f in ALL if f.type is FieldType.DATE]


@pytest.mark.parametrize(("command", "f"), DATES, ids=_ids(DATES))
def test_dates_refuse_the_year_first_form(command: str, f: Field) -> None:
    assert "date" in codes_for(command, f.name, "2026-12-01")
    assert "date" not in codes_for(command, f.name, "01.12.2026")


URLS = [(c, f) for c, f in ALL if f.name.endswith(("_url", "-url"))]


@pytest.mark.parametrize(("command", "f"), URLS, ids=_ids(URLS))
def test_addresses_must_be_absolute_http(command: str, f: Field) -> None:
    assert "url" in codes_for(command, f.name, "www.merchant.example/x")
    assert "url" not in codes_for(command, f.name, "https://merchant.example/x")


CHOICES = [(c, f) for c, f in ALL if f.choices]


@pytest.mark.parametrize(("command", "f"), CHOICES, ids=_ids(CHOICES))
def test_enumerations_take_only_their_values(command: str, f: Field) -> None:
    assert "choice" in codes_for(command, f.name, "other")
    for choice in f.choices:
        assert "choice" not in codes_for(command, f.name, choice)


def test_the_walk_covers_every_kind_of_row() -> None:
    assert len(WITH_MAX) > 70
    assert {f.name for _, f in DATES} == {"start-date", "finish-date", "birthday"}
    assert len(URLS) == 7
