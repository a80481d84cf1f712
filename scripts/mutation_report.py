"""The score of the last mutation run of each money module (``make mutate``), and its
survivors held to a list.

A surviving mutant is a change to a money rule that no test notices. Each one is either
killed by a new test or listed in ``tests/mutation/survivors.toml`` with the reason it cannot
change what the console does (an equivalent mutant). Per module and over all modules run,
this prints the mutants, how many were killed (a timeout counts: the tests did not pass), the
survivors listed with a reason, and the score both ways: killed of all mutants, and killed of
all but the listed survivors (an equivalent mutant cannot be killed). It fails when a
survivor is not listed, when a listed mutant no longer survives (so the list stays true), or
when the score of all but the listed is under 95%.

    python scripts/mutation_report.py                # every module that was run
    python scripts/mutation_report.py masking guard  # some of them
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

from mutate import chosen, folder, module_name

ROOT = Path(__file__).resolve().parent.parent
SURVIVORS = ROOT / "tests" / "mutation" / "survivors.toml"
GOAL = 0.95
CAUGHT = {"killed", "timeout", "segfault", "suspicious"}  # a test run that did not pass
MISSED = {"survived", "no tests"}


def results(path: str) -> dict[str, str]:
    """Each mutant's status in the module's folder, from ``mutmut results --all true``."""
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=folder(path),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name.startswith(module_name(path) + "."):
            found[name] = status
    return found


def main(argv: list[str]) -> int:
    listed: dict[str, str] = tomllib.loads(SURVIVORS.read_text(encoding="utf-8"))
    total: Counter[str] = Counter()
    unexplained: list[str] = []
    stale: list[str] = []
    print(f"{'module':44} mutants  killed  timeout  survived (listed)  score  without listed")
    for path in chosen(argv):
        if not (folder(path) / "mutants").is_dir():
            print(f"{path:44} not run")
            continue
        statuses = results(path)
        counts = Counter(statuses.values())
        missed = sorted(n for n, s in statuses.items() if s in MISSED)
        explained = [n for n in missed if listed.get(n)]
        unexplained += [n for n in missed if not listed.get(n)]
        mine = [n for n in listed if n.startswith(module_name(path) + ".")]
        stale += [n for n in mine if n not in missed]
        run = sum(n for s, n in counts.items() if s in CAUGHT | MISSED)
        killed = sum(n for s, n in counts.items() if s in CAUGHT)
        total.update(run=run, killed=killed, timeout=counts["timeout"])
        total.update(missed=len(missed), explained=len(explained))
        print(_row(path, run, killed, counts["timeout"], len(missed), len(explained)))
    if not total["run"]:
        print("mutation: no results (run `make mutate` first)", file=sys.stderr)
        return 1
    print(
        _row(
            "all modules run",
            total["run"],
            total["killed"],
            total["timeout"],
            total["missed"],
            total["explained"],
        )
    )
    for name in unexplained:
        print(f"  survived, not explained: {name}  (mutmut show {name})")
    for name in stale:
        print(f"  listed, but no longer survives: {name}: remove it from {SURVIVORS.name}")
    score = total["killed"] / max(1, total["run"] - total["explained"])
    if score < GOAL or unexplained or stale:
        print(f"mutation: below {GOAL:.0%}, or survivors not explained in {SURVIVORS}")
        return 1
    return 0


def _row(name: str, run: int, killed: int, timeout: int, missed: int, explained: int) -> str:
    score = killed / run if run else 0.0
    rest = run - explained
    without = killed / rest if rest else 1.0
    return (
        f"{name:44} {run:7}  {killed:6}  {timeout:7}  {missed:8} ({explained:6})"
        f"  {score:5.1%}  {without:14.1%}"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
