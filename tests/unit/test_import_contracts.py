"""The import contracts hold for modules nobody has written yet: a new module anywhere in the
window that imports the main window breaks the build's import check (``lint-imports``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
CONTRACT = "Nothing in the window imports the main window but the start-up"

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter not installed")


def _tree(tmp_path: Path) -> Path:
    """A copy of the package and its contracts, to add a module to."""
    shutil.copytree(
        ROOT / "console", tmp_path / "console", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("console/ui/new_pane.py", "from console.ui.main_window import MainWindow\n"),
        ("console/ui/window/new_part.py", "import console.ui.main_window\n"),
        ("console/ui/history/new_view.py", "from console.ui import main_window\n"),
    ],
)
def test_a_new_module_that_imports_the_main_window_breaks_the_import_check(
    tmp_path: Path, path: str, source: str
) -> None:
    tree = _tree(tmp_path)
    (tree / path).write_text(f'"""A part someone adds."""\n\n{source}', encoding="utf-8")
    result = _lint(tree)
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout
    module = path.removesuffix(".py").replace("/", ".")
    assert f"{module} -> console.ui.main_window" in result.stdout


def test_the_tree_as_it_is_keeps_every_contract(tmp_path: Path) -> None:
    result = _lint(_tree(tmp_path))
    assert result.returncode == 0, result.stdout
    assert CONTRACT in result.stdout


@pytest.mark.parametrize(
    ("path", "imported"),
    [
        ("console/core/environments/model.py", "console.core.pipeline"),
        ("console/core/siglab/diagnose.py", "console.core.batch"),
        ("console/sandbox/state.py", "console.sandbox.server"),
        ("console/cli/output.py", "console.cli.send_cmd"),
    ],
)
def test_a_module_importing_a_layer_above_its_own_breaks_the_import_check(
    tmp_path: Path, path: str, imported: str
) -> None:
    tree = _tree(tmp_path)
    with (tree / path).open("a", encoding="utf-8") as fh:
        fh.write(f"\nimport {imported}  # someone's shortcut\n")
    result = _lint(tree)
    assert result.returncode != 0, result.stdout
    importer = path.removesuffix(".py").replace("/", ".")
    assert f"{importer} -> {imported}" in result.stdout


@pytest.mark.parametrize(
    "path", ["console/core/new_rule.py", "console/ui/window/new_part.py", "console/cli/new_cmd.py"]
)
def test_a_new_module_must_be_given_its_layer(tmp_path: Path, path: str) -> None:
    tree = _tree(tmp_path)
    (tree / path).write_text('"""A module someone adds."""\n', encoding="utf-8")
    result = _lint(tree)
    assert result.returncode != 0, result.stdout
    assert path.removesuffix(".py").replace("/", ".") in result.stdout
