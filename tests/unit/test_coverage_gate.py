"""The coverage gate (``scripts/check_coverage.py``, the end of ``make test``) fails on every
hole a money rule could slip through: a branch no test takes, a held module no test imports,
a line excluded by a pragma or a pattern, and a fully covered module that is not held yet."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

# The gate reads coverage's data: a test environment without coverage (the Qt-free run of
# CI) has no gate to test.
pytest.importorskip("coverage")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_coverage.py"
RULE = """\
def fee(amount):
    if amount > 100:
        return 1
    return 0
"""


def _gate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_coverage", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _project(tmp_path: Path, run: str, *, held: str = '"pkg/rule.py"', extra: str = "") -> Path:
    """A project whose ``pkg/rule.py`` is measured while ``run`` runs."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "rule.py").write_text(RULE)
    (tmp_path / "pkg" / "unused.py").write_text("LIMIT = 100\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.coverage.run]\nsource = ["pkg"]\nbranch = true\ndata_file = ".coverage"\n'
        f"{extra}\n[tool.coverage-gate]\nheld = [{held}]\n"
    )
    (tmp_path / "run.py").write_text(f"from pkg.rule import fee\n{run}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COV_CORE")}
    subprocess.run(
        [sys.executable, "-m", "coverage", "run", "--rcfile=pyproject.toml", "run.py"],
        cwd=tmp_path,
        env=env,
        check=True,
    )
    return tmp_path


def test_every_line_and_branch_run_passes(tmp_path: Path) -> None:
    root = _project(tmp_path, "fee(500)\nfee(5)")
    assert _gate().main(root) == 0


def test_a_branch_no_test_takes_fails_and_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, "fee(500)")  # never 100 or less
    assert _gate().main(root) == 1
    said = capsys.readouterr().err
    assert "pkg/rule.py: lines [4] not run; branches 2->4 not taken" in said


def test_a_held_module_no_test_imports_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, "fee(500)\nfee(5)", held='"pkg/rule.py", "pkg/unused.py"')
    assert _gate().main(root) == 1
    assert "pkg/unused.py: not measured (no Qt-free test imported it)" in capsys.readouterr().err


def test_an_exclusion_pattern_or_a_pragma_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = '[tool.coverage.report]\nexclude_also = ["return 0"]\n'
    root = _project(tmp_path, "fee(500)", extra=extra)  # the line it hides is not run
    (root / "pkg" / "rule.py").write_text(RULE.replace("return 0", "return 0  # pragma: no cover"))
    assert _gate().main(root) == 1
    said = capsys.readouterr().err
    assert "exclude_also in pyproject.toml: remove it" in said
    assert "pkg/rule.py: 'pragma: no cover' in a held module" in said


def test_a_module_that_reached_full_coverage_must_be_held(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, "fee(500)\nfee(5)\nimport pkg.unused", held='"pkg/rule.py"')
    assert _gate().main(root) == 1
    said = capsys.readouterr().err
    assert "pkg/unused.py: fully covered: add it to [tool.coverage-gate] held" in said
