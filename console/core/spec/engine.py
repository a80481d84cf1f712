"""validate() and request_fields(): the contract applied to what a person typed.

Everything that does not depend on the values is worked out once at import, per command: the
name and alias lookup, each field's tuple of checks, and the rules. A call then walks the
fields once and runs the rules, which keeps validation cheap enough for every keystroke.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import repeat
from typing import cast

from . import checks as c
from . import formats as fm
from .codes import Code
from .command_rules import RULES
from .commands import COMMANDS, get_command
from .layouts import FieldStep, Layout, rule_steps
from .model import CardType, Command, Field, FieldType, Necessity, Problem
from .rules import Rule

# Numeric amounts ('.' delimiter) and the one list of amounts.
AMOUNT_FIELDS = frozenset({"amount", "amount-from", "amount-to"})
AMOUNT_LIST_FIELDS = frozenset({"amount-sequence"})
# Numeric in the contract, but real values often carry "+", spaces or letters (see
# checks.check_digits_lenient): a warning, not an error.
LENIENT_NUMERIC_FIELDS = frozenset({"receiver_phone", "receiver_zip_code", "receiver_birthday"})
# Lower bounds of whole numbers; ids and counters are never negative.
INT_MINIMUM = {"interval": 1}
# Names that must never go into the body: the login is the OAuth consumer key (contract 4.1,
# 5.3), and oauth_* parameters belong to the Authorization header.
NOT_BODY = frozenset({"login"})

_callback_url = fm.url_check(callback=True)
_plain_url = fm.url_check(callback=False)
_NAMED_CHECKS: dict[str, tuple[c.FieldCheck, ...]] = {
    "currency": (fm.check_currency,),
    "ipaddress": (fm.check_ip,),
    "customer-ip": (fm.check_ip,),
    "receiver_country_code": (fm.country_check(alpha3=True),),
    "country": (fm.country_check(alpha3=False),),
    "receiver_email": (fm.check_email,),
    "email": (fm.check_email,),
    "server_callback_url": (_callback_url,),
    "notify_url": (_callback_url,),
    "redirect_url": (_plain_url,),
    "redirect_success_url": (_plain_url,),
    "redirect_fail_url": (_plain_url,),
    "credit_card_number": (fm.check_luhn,),
    "credit-card-number": (fm.check_luhn,),
    "expire_month": (fm.check_month,),
    "expire-month": (fm.check_month,),
    "expire_year": (fm.check_year,),
    "expire-year": (fm.check_year,),
}


def _type_checks(f: Field) -> tuple[c.FieldCheck, ...]:
    """The checks the Type column asks for."""
    if f.name in AMOUNT_LIST_FIELDS:
        return (c.check_amount_sequence,)
    if f.type is FieldType.DATE:
        return (c.check_date,)
    if f.type is FieldType.NUMERIC:
        if f.name in AMOUNT_FIELDS:
            return (c.check_length, c.check_amount)
        if f.name in LENIENT_NUMERIC_FIELDS:
            return (c.check_length, c.check_digits_lenient)
        return (c.check_length, c.check_digits)
    if f.type in (FieldType.INT, FieldType.LONG):
        top = c.INT_MAX if f.type is FieldType.INT else c.LONG_MAX
        return (c.check_length, c.integer_check(INT_MINIMUM.get(f.name, 0), top))
    if f.choices:
        return (c.check_length, c.check_choice)
    return (c.check_length,)


def field_checks(f: Field) -> tuple[c.FieldCheck, ...]:
    """Every check of one field, in the order they run (stopping at the first False)."""
    found = _type_checks(f) + _NAMED_CHECKS.get(f.name, ())
    if f.length.min is None and f.length.max is None:
        # "-": no limit to check
        found = tuple(check for check in found if check is not c.check_length)
    return found


# One value of a request as the checks see it, worked out once per name and text (see
# _Plan.entry): the findings before the field's own (white space, control character,
# unknown name), its field's contract name (None: empty, or not a field of the command), the value
# trimmed, the field's checks' findings, and whether a control character stopped them.
_Entry = tuple[tuple[Problem, ...], str | None, str, tuple[Problem, ...], bool]


class _AsGiven:
    """The entry of a value that is its field's (by the contract name), filled as given,
    and passes its checks: nothing to say of it (:data:`AS_GIVEN`, the one of its kind)."""

    __slots__ = ()


AS_GIVEN = _AsGiven()
# Entries and layouts kept per command; cleared when full. A file's rows repeat most values,
# names and sets of filled fields; its ids, amounts and card numbers are new in each row, so
# no more than a few hundred values of one name are kept (a small memo stays in the
# processor's cache, which a large one of values never met again does not).
_MOST_ENTRIES = 16_384
_MOST_PER_NAME = 512
_MOST_LAYOUTS = 1_024


@dataclass(slots=True)
class _Plan:
    """What validation needs of one command, computed once, and what it met before."""

    command: Command
    by_name: dict[str, Field]  # contract name and alias -> field
    steps: tuple[tuple[Field, tuple[c.FieldCheck, ...], bool], ...]  # field, checks, required
    rules: tuple[Rule, ...]
    position: dict[str, int]  # contract name -> its step
    required: frozenset[int]  # the steps of fields always required
    checks_of: dict[str, tuple[Field, tuple[c.FieldCheck, ...]]]  # name or alias -> checks
    entries: dict[tuple[str, str], _Entry | _AsGiven] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)  # name -> its entries kept
    layouts: dict[tuple[str, ...], Layout] = field(default_factory=dict)
    today: date | None = None  # the date the layouts' rule findings were made for

    def entries_of(self, pairs: list[tuple[str, str]]) -> list[_Entry | _AsGiven]:
        """The entry of each name and value (the values met before looked up at once)."""
        found = list(map(self.entries.get, pairs))
        if None in found:
            for at, known in enumerate(found):
                if known is None:
                    found[at] = self.entry(*pairs[at])
        return found  # type: ignore[return-value]  # no None left

    def entry(self, name: str, raw: str) -> _Entry | _AsGiven:
        """The entry of the value ``raw`` given under ``name`` (kept for the next time)."""
        value = raw.strip()
        known = self.checks_of.get(name)
        # most values: a field's, filled, without white space around them or any character
        # that is not printable (control characters are not): only the field's checks to run
        found: _Entry | _AsGiven
        if known is not None and value and value == raw and raw.isprintable():
            f, checks = known
            own = _checked(f, checks, name, value)
            found = AS_GIVEN if not own and name == f.name else ((), f.name, value, own, False)
        else:
            found = self._unusual(name, raw, value)
        kept = self.kept.get(name, 0)
        if kept < _MOST_PER_NAME:
            if len(self.entries) >= _MOST_ENTRIES:
                self.entries.clear()
                self.kept.clear()
                kept = 0
            self.entries[(name, raw)] = found
            self.kept[name] = kept + 1
        return found

    def _unusual(self, name: str, raw: str, value: str) -> _Entry:
        """:meth:`entry` of a value with white space around it, a character that is not
        printable, or a name that is not the command's."""
        before: list[Problem] = []
        if value != raw:
            before.append(_surrounding_space(name, value))
        f = self.by_name.get(name) if value else None
        control = fm.control_character((f.name if f else name,), name, raw) if value else None
        if control is not None:
            before.append(control)
        findings: tuple[Problem, ...] = ()
        if value and f is None:
            _unknown(name, before)
        elif f is not None and control is None:
            findings = _checked(f, self.steps[self.position[f.name]][1], name, value)
        return tuple(before), f.name if f else None, value, findings, control is not None

    def layout(self, given: Mapping[str, str], today: date) -> Layout:
        """The layout of requests filling the fields of ``given`` (kept for the next time)."""
        if today != self.today:  # the rules' findings kept were made for another day
            self.layouts.clear()
            self.today = today
        key = tuple(given)
        found = self.layouts.get(key)
        if found is None:
            order = sorted(self.required.union(map(self.position.__getitem__, given)))
            fields: list[FieldStep] = []
            for step in order:
                f = self.steps[step][0]
                fields.append(f.name if f.name in given else (_required(f),))
            missing = tuple(p for step in fields if isinstance(step, tuple) for p in step)
            found = Layout(tuple(fields), missing, tuple(rule_steps(self.rules, given, today)))
            if len(self.layouts) >= _MOST_LAYOUTS:
                self.layouts.clear()
            self.layouts[key] = found
        return found


def always_required(f: Field) -> bool:
    """The field is required whatever else the request holds (validation, OpenAPI)."""
    # Rows "Required" but "Not supported for DST" are required for SRC only; the card-type
    # rule reports them, knowing the profile's type.
    return f.necessity is Necessity.REQUIRED and (
        f.card_types is None or CardType.DST in f.card_types
    )


def _plan(command: Command) -> _Plan:
    by_name: dict[str, Field] = {}
    for f in command.fields:
        by_name[f.name] = f
        if f.alias:
            by_name[f.alias] = f
    steps = tuple((f, field_checks(f), always_required(f)) for f in command.fields)
    position = {f.name: i for i, f in enumerate(command.fields)}
    required = frozenset(i for i, (_f, _checks, needed) in enumerate(steps) if needed)
    checks_of = {name: (f, steps[position[f.name]][1]) for name, f in by_name.items()}
    rules = RULES.get(command.name, ())
    return _Plan(command, by_name, steps, rules, position, required, checks_of)


_PLANS: dict[str, _Plan] = {name: _plan(cmd) for name, cmd in COMMANDS.items()}


def _plan_for(command: str) -> _Plan:
    plan = _PLANS.get(command)
    if plan is None:
        get_command(command)  # raises KeyError listing the valid names
        raise AssertionError("unreachable")  # pragma: no cover
    return plan


def _is_not_body(name: str) -> bool:
    return name in NOT_BODY or name.startswith("oauth_")


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
    plan = _plan_for(command)
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
    plan = _plan_for(command)
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
    plan: _Plan,
    pairs: list[tuple[str, str]],
    found: list[_Entry | _AsGiven],
    when: date,
    out: list[Problem],
) -> tuple[dict[str, str], Layout]:
    """The findings of the values and the required fields missing, in ``out``: the filled
    fields by their contract names, and their layout."""
    given: dict[str, str] = {}
    findings: dict[str, tuple[Problem, ...]] = {}  # the fields' own, where there are any
    for (name_given, raw), entry in zip(pairs, found, strict=True):
        if isinstance(entry, _AsGiven):
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


def _checked(
    f: Field, checks: tuple[c.FieldCheck, ...], who: str, value: str
) -> tuple[Problem, ...]:
    """The findings of ``f``'s checks on ``value`` (stopping at the first that fails)."""
    out: list[Problem] = []
    for check in checks:
        if not check(f, who, value, out):
            break
    return tuple(out) if out else ()


def _alias_duplicate(f: Field) -> Problem:
    return Problem(
        (f.name, f.alias or f.name),
        c.ERROR,
        f"{f.name} and its alias {f.alias} are both filled; the gateway would get both. "
        "Keep only one of them.",
        Code.ALIAS_DUPLICATE.value,
    )


def _surrounding_space(name: str, value: str) -> Problem:
    if not value:
        msg = f"{name} holds only white space: it counts as empty and is not sent. Clear it."
    else:
        msg = (
            f"{name} has white space before or after it: it is signed and sent exactly as "
            "given, and the gateway may refuse it. Remove the spaces unless they are meant."
        )
    return Problem((name,), c.WARNING, msg, Code.SURROUNDING_SPACE.value)


def _required(f: Field) -> Problem:
    also = f" (or its alias {f.alias})" if f.alias else ""
    msg = f"{f.name}{also} is required: fill it in before sending."
    return Problem((f.name,), c.ERROR, msg, Code.REQUIRED.value)


def _unknown(name: str, out: list[Problem]) -> None:
    if name in NOT_BODY:
        msg = (
            f"{name} is never sent in the request body: the login goes into the OAuth "
            "header as the consumer key (set it in the environment). It is left out."
        )
        out.append(Problem((name,), c.WARNING, msg, Code.NOT_BODY.value))
    elif _is_not_body(name):
        msg = f"{name} belongs in the signed Authorization header, not the body. It is left out."
        out.append(Problem((name,), c.WARNING, msg, Code.NOT_BODY.value))
    else:
        msg = f"{name} is not a field of this command; it will be sent as typed. Check the name."
        out.append(Problem((name,), c.WARNING, msg, Code.UNKNOWN_FIELD.value))


def request_fields(command: str, values: Mapping[str, str]) -> list[tuple[str, str]]:
    """The body parameters to send, in the contract's order.

    Values are sent exactly as given, never trimmed; empty ones and those of white space only
    are left out (``validate`` warns about both kinds of white space). Names stay as the user
    gave them (an alias is sent as the alias). Names the command does not know are sent last,
    in the order given; ``login`` and ``oauth_*`` never go into the body.

    Raises:
        KeyError: unknown command.
    """
    plan = _plan_for(command)
    pairs: list[tuple[str, str]] = []
    for f, _checks, _required in plan.steps:
        for name in (f.name, f.alias):
            if name is not None and name in values and (value := values[name]).strip():
                pairs.append((name, value))
    for name, raw in values.items():
        if name not in plan.by_name and not _is_not_body(name) and raw.strip():
            pairs.append((name, raw))
    return pairs
