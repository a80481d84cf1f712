"""Fail unless the modules that hold money rules are fully covered by the test run, and hold
every module of the core that reached full coverage there (a ratchet).

Reads the coverage data ``make test`` wrote (``pytest --cov``, combined from its workers; the
core is measured in the Qt-free tests, lines and branches) and the list of held modules in
``pyproject.toml`` (``[tool.coverage-gate] held``). It fails, naming the fix, when:

* a held module has a line or a branch no test ran;
* a held module was not measured at all (no test imported it);
* a held module carries ``pragma: no cover``, or the configuration excludes lines by a
  pattern of its own (a line that cannot run is removed; one that can is tested);
* a module that is not held is fully covered: add it to the list, so that it stays so.
"""

from __future__ import annotations

import json
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import coverage

ROOT = Path(__file__).resolve().parent.parent
PRAGMA = "pragma: no cover"


def _config(root: Path) -> dict[str, object]:
    with (root / "pyproject.toml").open("rb") as fh:
        return tomllib.load(fh)["tool"]


def _files(cov: coverage.Coverage, root: Path) -> dict[str, dict[str, Any]]:
    """Each measured file's figures, by absolute path (coverage's JSON report)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "coverage.json"
        cov.json_report(outfile=str(out), ignore_errors=True)
        files: dict[str, dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))["files"]
    return {str((root / name).resolve()): figures for name, figures in files.items()}


def _gaps(figures: dict[str, Any]) -> str:
    """What of a file no test ran, in words (empty: every line and branch)."""
    said = []
    if figures["missing_lines"]:
        said.append(f"lines {figures['missing_lines']} not run")
    if figures["missing_branches"]:
        arcs = ", ".join(
            f"{line}->{'exit' if to < 0 else to}" for line, to in figures["missing_branches"]
        )
        said.append(f"branches {arcs} not taken")
    return "; ".join(said)


def main(root: Path = ROOT) -> int:
    """Check the coverage data of the project at ``root``; 0 when the gate holds."""
    tool = _config(root)
    held = [str(root / p) for p in tool["coverage-gate"]["held"]]  # type: ignore[index]
    report = tool["coverage"].get("report", {})  # type: ignore[union-attr]
    problems = [
        f"[tool.coverage.report] {key} in pyproject.toml: remove it (no exclusion by pattern)"
        for key in ("exclude_lines", "exclude_also")
        if report.get(key)
    ]
    cov = coverage.Coverage(
        data_file=str(root / ".coverage"), config_file=str(root / "pyproject.toml")
    )
    cov.load()
    files = _files(cov, root) if cov.get_data().measured_files() else {}
    measured = {path for path, figures in files.items() if figures["executed_lines"]}
    if not files:
        print("coverage: no data (run the tests under coverage first)", file=sys.stderr)
        return 1
    for path in held:
        name = Path(path).relative_to(root)
        if not Path(path).exists():
            problems.append(f"{name}: listed as held, but there is no such file")
            continue
        if PRAGMA in Path(path).read_text(encoding="utf-8"):
            problems.append(f"{name}: '{PRAGMA}' in a held module: test the line or remove it")
        if path not in measured:
            problems.append(f"{name}: not measured (no Qt-free test imported it)")
        elif gaps := _gaps(files[path]):
            problems.append(f"{name}: {gaps}")
    for path in sorted(measured - set(held)):
        if not _gaps(files[path]):
            name = Path(path).relative_to(root)
            problems.append(f"{name}: fully covered: add it to [tool.coverage-gate] held")
    if problems:
        print("coverage gate:", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"coverage: 100% of the lines and branches of {len(held)} held modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
