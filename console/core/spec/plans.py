"""What validating requests of one command needs, worked out once, and what it met before.

Per command, once: the name and alias look-up and each field's checks. Then, as requests come:
each value's findings, once per name and text (an :data:`Entry`, or :data:`AS_GIVEN` for one
with nothing to say), and what each set of filled fields decides (a
:class:`~.layouts.Layout`). A form's requests and a batch file's rows repeat both, so most
of a request is looked up, not worked out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from . import checks as c
from . import formats as fm
from .codes import Code
from .command_rules import RULES
from .commands import COMMANDS, get_command
from .field_rules import always_required, field_checks
from .layouts import FieldStep, Layout, rule_steps
from .model import Command, Field, Problem
from .rules import Rule

# Names that must never go into the body: the login is the OAuth consumer key (contract 4.1,
# 5.3), and oauth_* parameters belong to the Authorization header.
NOT_BODY = frozenset({"login"})

# One value of a request as the checks see it, worked out once per name and text (see
# CommandPlan.entry): the findings before the field's own (white space, control character,
# unknown name), its field's contract name (None: empty, or not a field of the command), the value
# trimmed, the field's checks' findings, and whether a control character stopped them.
Entry = tuple[tuple[Problem, ...], str | None, str, tuple[Problem, ...], bool]


class AsGiven:
    """The entry of a value that is its field's (by the contract name), filled as given,
    and passes its checks: nothing to say of it (:data:`AS_GIVEN`, the one of its kind)."""

    __slots__ = ()


AS_GIVEN = AsGiven()
# Entries and layouts kept per command; cleared when full. A file's rows repeat most values,
# names and sets of filled fields; its ids, amounts and card numbers are new in each row, so
# no more than a few hundred values of one name are kept (a small memo stays in the
# processor's cache, which a large one of values never met again does not).
_MOST_ENTRIES = 16_384
_MOST_PER_NAME = 512
_MOST_LAYOUTS = 1_024


@dataclass(slots=True)
class CommandPlan:
    """What validation needs of one command, computed once, and what it met before."""

    command: Command
    by_name: dict[str, Field]  # contract name and alias -> field
    steps: tuple[tuple[Field, tuple[c.FieldCheck, ...], bool], ...]  # field, checks, required
    rules: tuple[Rule, ...]
    position: dict[str, int]  # contract name -> its step
    required: frozenset[int]  # the steps of fields always required
    checks_of: dict[str, tuple[Field, tuple[c.FieldCheck, ...]]]  # name or alias -> checks
    entries: dict[tuple[str, str], Entry | AsGiven] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)  # name -> its entries kept
    layouts: dict[tuple[date | str, ...], Layout] = field(default_factory=dict)

    def entries_of(self, pairs: list[tuple[str, str]]) -> list[Entry | AsGiven]:
        """The entry of each name and value (the values met before looked up at once)."""
        found = list(map(self.entries.get, pairs))
        if None in found:
            for at, known in enumerate(found):
                if known is None:
                    found[at] = self.entry(*pairs[at])
        return found  # type: ignore[return-value]  # no None left

    def entry(self, name: str, raw: str) -> Entry | AsGiven:
        """The entry of the value ``raw`` given under ``name`` (kept for the next time)."""
        value = raw.strip()
        known = self.checks_of.get(name)
        # most values: a field's, filled, without white space around them or any character
        # that is not printable (control characters are not): only the field's checks to run
        found: Entry | AsGiven
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

    def _unusual(self, name: str, raw: str, value: str) -> Entry:
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
        key: tuple[date | str, ...] = (today, *given)  # the rules' findings kept: the day's
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


def _plan(command: Command) -> CommandPlan:
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
    return CommandPlan(command, by_name, steps, rules, position, required, checks_of)


_PLANS: dict[str, CommandPlan] = {name: _plan(cmd) for name, cmd in COMMANDS.items()}


def plan_for(command: str) -> CommandPlan:
    """The plan of ``command`` (KeyError naming the valid commands for another name)."""
    plan = _PLANS.get(command)
    if plan is None:
        get_command(command)  # raises KeyError listing the valid names
        raise AssertionError("unreachable")  # pragma: no cover
    return plan


def is_not_body(name: str) -> bool:
    """``login`` and ``oauth_*``: names that never go into the request body."""
    return name in NOT_BODY or name.startswith("oauth_")


def _checked(
    f: Field, checks: tuple[c.FieldCheck, ...], who: str, value: str
) -> tuple[Problem, ...]:
    """The findings of ``f``'s checks on ``value`` (stopping at the first that fails)."""
    out: list[Problem] = []
    for check in checks:
        if not check(f, who, value, out):
            break
    return tuple(out) if out else ()


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
    elif is_not_body(name):
        msg = f"{name} belongs in the signed Authorization header, not the body. It is left out."
        out.append(Problem((name,), c.WARNING, msg, Code.NOT_BODY.value))
    else:
        msg = f"{name} is not a field of this command; it will be sent as typed. Check the name."
        out.append(Problem((name,), c.WARNING, msg, Code.UNKNOWN_FIELD.value))
