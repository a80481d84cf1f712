"""Counting the lab's verdicts over the corpus: each mistake named, named wrongly, left
unexplained, or named in part; each correct request valid or not.

"Named wrongly" is a verdict that calls a mistaken request valid or names a mistake the
request does not have; "unexplained" is one that says it cannot name it (or cannot read the
request), for a mistake the lab ought to know.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from console.core.siglab.mistakes import NOTES
from tests.clients.wire import Case

NOT_NAMED = frozenset(("unexplained", "unreadable"))


def outcome(case: Case, valid: bool, codes: frozenset[str]) -> str:
    """``valid``/``invalid`` for a correct request; ``named``, ``wrongly``, ``unexplained``
    or ``partly`` for a mistaken one."""
    named = codes - NOTES
    if not case.expect:
        return "valid" if valid and not named else "invalid"
    if valid:
        return "wrongly"
    if named == case.expect:
        return "named"
    if named & NOT_NAMED:
        return "unexplained"
    if named - case.expect:
        return "wrongly"
    return "partly"


@dataclass
class Tally:
    """Outcomes by client, and one line a request for the record."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def add(self, case: Case, valid: bool, codes: frozenset[str], beside: str = "") -> str:
        result = outcome(case, valid, codes)
        self.counts.setdefault(case.client, Counter())[result] += 1
        shown = ",".join(sorted(codes - NOTES)) or "-"
        expect = ",".join(sorted(case.expect)) or "(correct)"
        self.lines.append(f"{case.id:48} {result:11} lab {shown:40} want {expect} {beside}")
        return result

    def total(self, clients: tuple[str, ...] | None = None) -> Counter[str]:
        out: Counter[str] = Counter()
        for client, counter in self.counts.items():
            if clients is None or client in clients:
                out += counter
        return out

    def summary(self, clients: tuple[str, ...] | None = None) -> str:
        t = self.total(clients)
        mistakes = t["named"] + t["wrongly"] + t["unexplained"] + t["partly"]
        correct = t["valid"] + t["invalid"]
        return (
            f"{t['valid']} of {correct} correct requests valid; of {mistakes} mistakes "
            f"{t['named']} named, {t['wrongly']} named wrongly, {t['unexplained']} "
            f"unexplained, {t['partly']} named in part"
        )

    def named_share(self, clients: tuple[str, ...] | None = None) -> float:
        t = self.total(clients)
        mistakes = t["named"] + t["wrongly"] + t["unexplained"] + t["partly"]
        return t["named"] / mistakes if mistakes else 1.0
