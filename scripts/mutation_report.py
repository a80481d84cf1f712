"""The score of the last ``mutmut run`` (``make mutate``), and its survivors held to a list.

A surviving mutant is a change to a money rule that no test notices. Each one is either
killed by a new test or listed in ``tests/mutation/survivors.toml`` with the reason it cannot
change what the console does (an equivalent mutant). This fails when the score (mutants
killed, of those run) is under 95%, or when a survivor is not listed; listed names that no
longer survive are named so that the list stays true.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SURVIVORS = ROOT / "tests" / "mutation" / "survivors.toml"
GOAL = 0.95
CAUGHT = {"killed", "timeout", "segfault", "suspicious"}  # a test run that did not pass
MISSED = {"survived", "no tests"}


def results() -> dict[str, str]:
    """Each mutant's status, from ``mutmut results --all true``."""
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            found[name] = status
    return found


def main() -> int:
    statuses = results()
    counts = Counter(statuses.values())
    run = sum(n for status, n in counts.items() if status in CAUGHT | MISSED)
    if not run:
        print("mutation: no results (run `make mutate` first)", file=sys.stderr)
        return 1
    listed = tomllib.loads(SURVIVORS.read_text(encoding="utf-8")) if SURVIVORS.exists() else {}
    missed = sorted(name for name, status in statuses.items() if status in MISSED)
    killed = sum(n for status, n in counts.items() if status in CAUGHT)
    score = killed / run
    print(
        f"mutation: {killed} of {run} mutants killed ({score:.1%}); "
        + ", ".join(f"{status} {n}" for status, n in sorted(counts.items()))
    )
    unexplained = [name for name in missed if not listed.get(name)]
    for name in missed:
        reason = listed.get(name)
        print(f"  survived: {name}" + (f" ({reason})" if reason else " (not explained)"))
    stale = sorted(set(listed) - set(missed))
    for name in stale:
        print(f"  listed, but no longer survives: {name}: remove it from {SURVIVORS.name}")
    failed = score < GOAL or bool(unexplained) or bool(stale)
    if failed:
        print(f"mutation: below {GOAL:.0%}, or survivors not explained in {SURVIVORS}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
