"""Fail unless the modules that hold money rules are fully covered by the test run.

Reads the coverage data ``make test`` wrote (``pytest --cov``, combined from its workers) and names, per file,
the lines no test ran. The files are listed in ``pyproject.toml`` under
``[tool.coverage.run] include``: the send pipeline and its double-payout guard, masking, the
team's hold and approval, and the batch runner.
"""

from __future__ import annotations

import sys

import coverage


def main() -> int:
    cov = coverage.Coverage()
    cov.load()
    measured = sorted(cov.get_data().measured_files())
    if not measured:
        print("coverage: no data (run the tests under coverage first)", file=sys.stderr)
        return 1
    gaps = []
    for path in measured:
        _, statements, _, missing, _ = cov.analysis2(path)
        if missing:
            lines = cov.analysis2(path)[4]
            gaps.append(f"{path}: {len(missing)} of {len(statements)} lines not run: {lines}")
    if gaps:
        print("coverage: these money rules have lines no test runs:", file=sys.stderr)
        for gap in gaps:
            print(f"  {gap}", file=sys.stderr)
        return 1
    print(f"coverage: 100% of the lines of {len(measured)} money-rule modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
