"""What the set of filled fields of a request decides on its own, worked out once per set.

A form, and every row of a batch file, fills the same few fields again and again. Which
required fields are missing, the order of the fields' findings, and the findings of every
cross-field rule that looks only at *which* fields are filled (not at their values) are the
same for every request with that set of fields: a :class:`Layout` holds them.

Which rules look only at presence is not declared anywhere (a list beside the rules could
drift from them): each rule is run once on the set's first request through a
:class:`Watched` mapping, which notes whether the rule read any value. A rule is a pure
function of what it reads, so a rule that read no value, only whether names are present,
says the same of every request with the same names filled, and its findings are kept; a
rule that read a value runs for each request.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TypeVar, overload

from .model import Problem
from .rules import Rule

_T = TypeVar("_T")
# One step of the fields' part: a filled field's name (its findings are looked up), or the
# constant findings of a required field that is missing.
FieldStep = str | tuple[Problem, ...]
# One step of the rules' part: a rule run for each request, or findings kept for the set.
RuleStep = Rule | tuple[Problem, ...]


class Watched(Mapping[str, str]):
    """``given`` as a rule sees it, noting whether the rule read a value (``saw_value``).

    Asking whether a name is present (``in``, or ``get`` of a missing name) reads no value;
    reading a present name's value, iterating or sizing the mapping does.
    """

    __slots__ = ("_given", "saw_value")

    def __init__(self, given: Mapping[str, str]) -> None:
        self._given = given
        self.saw_value = False

    def __contains__(self, key: object) -> bool:
        return key in self._given

    def __getitem__(self, key: str) -> str:
        self.saw_value = True
        return self._given[key]

    @overload
    def get(self, key: str, /) -> str | None: ...
    @overload
    def get(self, key: str, default: str, /) -> str: ...
    @overload
    def get(self, key: str, default: _T, /) -> str | _T: ...

    def get(self, key: str, default: object = None, /) -> object:
        if key not in self._given:
            return default
        self.saw_value = True
        return self._given[key]

    def __iter__(self) -> Iterator[str]:
        self.saw_value = True
        return iter(self._given)

    def __len__(self) -> int:
        self.saw_value = True
        return len(self._given)


@dataclass(frozen=True, slots=True)
class Layout:
    """The part of validating a request that depends only on which fields are filled."""

    fields: tuple[FieldStep, ...]  # in the contract's order: given and required fields
    missing: tuple[Problem, ...]  # the fields' part where no given field has findings
    rules: tuple[RuleStep, ...]  # in the rules' order


def rule_steps(rules: Sequence[Rule], given: Mapping[str, str], today: date) -> list[RuleStep]:
    """Each rule, or its findings where it read no value of ``given`` (runs of kept findings
    joined into one step)."""
    steps: list[RuleStep] = []
    for rule in rules:
        watched = Watched(given)
        found: list[Problem] = []
        rule(watched, today, found)
        if watched.saw_value:
            steps.append(rule)
        elif found:
            last = steps[-1] if steps else None
            if isinstance(last, tuple):
                steps[-1] = (*last, *found)
            else:
                steps.append(tuple(found))
    return steps
