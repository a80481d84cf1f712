"""validate(), validate_rows() and request_fields(): the contract applied to what a person
typed, or a batch file holds.

What does not depend on the values is worked out once per command, and what does is kept as
it is met (:mod:`.plans`): a call looks most of a request up, then runs the rules that read
values, which keeps validation cheap enough for every keystroke and every row of a file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from itertools import repeat
from typing import cast

from . import checks as c
from .codes import Code
from .layouts import Layout
from .model import Field, Problem
from .plans import AS_GIVEN, AsGiven, CommandPlan, Entry, is_not_body, plan_for


def validate(
    command: str, values: Mapping[str, str], *, today: date | None = None
) -> list[Problem]:
    """Check the values of one request against the contract.

    Args:
        command: the command's wire name.
        values: wire name (or alias) -> text as typed. Empty or only white space means "not
            given". White space around a value is checked without it, but it is signed and
            sent as given, so it earns a warning (``Code.SURROUNDING_SPACE``). A control
            character anywhere in a value is an error (``Code.CONTROL_CHARACTER``), and that
            field's other checks are skipped.
        today: the date expiry and other date checks compare with (default: today).

    Returns:
        The problems in the order of the contract's table, then the cross-field rules. An empty
        list means nothing to report. Errors block sending, warnings do not.

    Raises:
        KeyError: unknown command.
    """
    plan = plan_for(command)
    pairs = list(values.items())
    found = plan.entries_of(pairs)
    when = today if today is not None else date.today()
    out: list[Problem] = []
    if found.count(AS_GIVEN) == len(found):  # most requests: nothing to say of any value
        given = dict(pairs)
        layout = plan.layout(given, when)
        out.extend(layout.missing)
    else:
        given, layout = _fields_part(plan, pairs, found, when, out)
    _rules_part(layout, given, when, out)
    return out


def validate_rows(
    command: str, rows: Sequence[Mapping[str, str]], *, today: date | None = None
) -> list[list[Problem]]:
    """:func:`validate` of each of many requests (a batch file's rows): the same findings.

    The values of all of them are looked up together, each different one once: a request
    none of whose values says anything (an entry :data:`AS_GIVEN`) needs only the layout of
    its fields and the rules that read values; any other is validated on its own.

    Raises:
        KeyError: unknown command.
    """
    plan = plan_for(command)
    when = today if today is not None else date.today()
    if set(map(type, rows)) - {dict}:  # the look-up below reads plain dicts
        return [validate(command, row, today=when) for row in rows]
    plain = cast("Sequence[dict[str, str]]", rows)
    value_of: Callable[[dict[str, str], str], str | None] = dict.get
    telling: dict[str, set[str]] = {}  # name -> its values that say something
    entries = plan.entries
    for name in set().union(*plain):
        for raw in set(map(value_of, plain, repeat(name))):
            if (
                raw is not None
                and (entries.get((name, raw)) or plan.entry(name, raw)) is not AS_GIVEN
            ):
                telling.setdefault(name, set()).add(raw)
    found: list[list[Problem]] = []
    for row in rows:
        if telling and any(row.get(name) in raws for name, raws in telling.items()):
            found.append(validate(command, row, today=when))
            continue
        layout = plan.layout(row, when)
        out = list(layout.missing)
        _rules_part(layout, row, when, out)
        found.append(out)
    return found


def _rules_part(layout: Layout, given: Mapping[str, str], when: date, out: list[Problem]) -> None:
    """The findings of the cross-field rules: those kept for the layout, and those of the
    rules that read values, run on ``given``."""
    for rule in layout.rules:
        if isinstance(rule, tuple):
            out.extend(rule)
        else:
            rule(given, when, out)


def _fields_part(
    plan: CommandPlan,
    pairs: list[tuple[str, str]],
    found: list[Entry | AsGiven],
    when: date,
    out: list[Problem],
) -> tuple[dict[str, str], Layout]:
    """The findings of the values and the required fields missing, in ``out``: the filled
    fields by their contract names, and their layout."""
    given: dict[str, str] = {}
    findings: dict[str, tuple[Problem, ...]] = {}  # the fields' own, where there are any
    for (name_given, raw), entry in zip(pairs, found, strict=True):
        if isinstance(entry, AsGiven):
            entry = ((), name_given, raw, (), False)
        before, name, value, own, control = entry
        if before:
            out.extend(before)
        if name is None:
            continue
        if name in given:
            out.append(_alias_duplicate(plan.by_name[name]))
            if control:  # a control character in either: nothing else to say of the field
                findings.pop(name, None)
        else:
            given[name] = value
            if own:
                findings[name] = own
    layout = plan.layout(given, when)
    if findings:  # in the contract's order, between the required fields missing
        for step in layout.fields:
            out.extend(findings.get(step, ()) if isinstance(step, str) else step)
    else:
        out.extend(layout.missing)
    return given, layout


def _alias_duplicate(f: Field) -> Problem:
    return Problem(
        (f.name, f.alias or f.name),
        c.ERROR,
        f"{f.name} and its alias {f.alias} are both filled; the gateway would get both. "
        "Keep only one of them.",
        Code.ALIAS_DUPLICATE.value,
    )


def request_fields(command: str, values: Mapping[str, str]) -> list[tuple[str, str]]:
    """The body parameters to send, in the contract's order.

    Values are sent exactly as given, never trimmed; empty ones and those of white space only
    are left out (``validate`` warns about both kinds of white space). Names stay as the user
    gave them (an alias is sent as the alias). Names the command does not know are sent last,
    in the order given; ``login`` and ``oauth_*`` never go into the body.

    Raises:
        KeyError: unknown command.
    """
    plan = plan_for(command)
    pairs: list[tuple[str, str]] = []
    for f, _checks, _required in plan.steps:
        for name in (f.name, f.alias):
            if name is not None and name in values and (value := values[name]).strip():
                pairs.append((name, value))
    for name, raw in values.items():
        if name not in plan.by_name and not is_not_body(name) and raw.strip():
            pairs.append((name, raw))
    return pairs
