"""House rules the code keeps: no module reads another object's private members, no circle of
imports anywhere in the console, an import inside a function only with its reason, one Luhn
check."""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "console"


def _private_reads(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        if not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and getattr(owner.func, "id", "") == "super":
            continue
        found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reads_another_objects_private_members() -> None:
    found = [line for path in sorted(ROOT.rglob("*.py")) for line in _private_reads(path)]
    assert found == []


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, name: str, modules: set[str]) -> set[str]:
    """The console modules ``name`` (at ``path``) imports: at the top, under TYPE_CHECKING
    (a type a module names is a dependency all the same, and what makes a circle of types
    today makes one of calls tomorrow) and inside functions (they run too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            source = ".".join([*base, *filter(None, [node.module])])
            for alias in node.names:  # ``from package import module`` imports the module
                child = f"{source}.{alias.name}"
                found.add(child if child in modules else source)
    return found & modules


def _circles(prefix: str) -> list[list[str]]:
    """Groups of modules under ``prefix`` that import each other, directly or around."""
    paths = {_module_name(p): p for p in ROOT.rglob("*.py")}
    modules = set(paths)
    graph = {
        name: {m for m in _imported(path, name, modules) if m.startswith(prefix) and m != name}
        for name, path in paths.items()
        if name.startswith(prefix)
    }
    # Tarjan's strongly connected components, iteratively (no recursion limit to meet).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = stack[stack.index(node) :]
                del stack[stack.index(node) :]
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def test_no_two_modules_anywhere_in_the_console_import_each_other_around_a_circle() -> None:
    """The core, the sandbox, the window and the command line alike."""
    assert _circles("console") == []


def test_a_circle_in_the_window_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two window modules importing each other are a circle (the check reaches ui/)."""
    package = tmp_path / "console" / "ui"
    package.mkdir(parents=True)
    (tmp_path / "console" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "theme.py").write_text("from console.ui.guard_row import colour\n")
    (package / "guard_row.py").write_text("from console.ui import theme\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path / "console")
    assert _circles("console") == [["console.ui.guard_row", "console.ui.theme"]]


def _unexplained_imports(source: str) -> list[int]:
    """Lines of imports inside a function with no comment on them or on the line above."""
    comments = {
        token.start[0]
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    }
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            end = node.end_lineno or node.lineno
            if not comments.intersection(range(node.lineno - 1, end + 1)):
                found.append(node.lineno)
    return sorted(set(found))


def test_an_import_inside_a_function_says_why_it_is_not_at_the_top() -> None:
    """Imports sit at the top of their module; one inside a function is a lazy-loading
    boundary (PySide6, requests, psycopg, openpyxl, the keyring, the spec's tables loaded only
    when needed, so `sign`, `validate` and the window's first picture start fast) and a
    comment on its line or the line above says which. Breaking a circle is no reason: the
    layers in pyproject.toml say which way an import goes."""
    found = [
        f"{path.relative_to(ROOT.parent)}:{line}"
        for path in sorted(ROOT.rglob("*.py"))
        for line in _unexplained_imports(path.read_text(encoding="utf-8"))
    ]
    assert found == [], (
        "move these imports to the top of their modules, or say on the line (or the line "
        "above) what loading them later keeps out of start-up"
    )


def test_an_import_inside_a_function_without_a_comment_is_found() -> None:
    source = (
        "def bare():\n"
        "    import json\n"
        "\n"
        "def with_reason():\n"
        "    # boundary: loaded on first use\n"
        "    import csv\n"
        "    import gzip  # boundary: as above\n"
        "    from os import (\n"
        "        path,  # boundary: a comment inside the import counts too\n"
        "    )\n"
        "\n"
        "class Holder:\n"
        "    def method(self):\n"
        "        if self:\n"
        "            import zlib\n"
    )
    assert _unexplained_imports(source) == [2, 15]


def test_the_console_has_one_luhn_check() -> None:
    # console.core.spec.formats.luhn_valid (held to python-stdnum's): the card number warning,
    # masking (what is a card number in free text) and the sandbox's seeds agree.
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.FunctionDef) and "luhn" in node.name.lower():
                names.append(node.name)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("stdnum"):
                names.extend(f"stdnum {a.name}" for a in node.names)
            if isinstance(node, ast.Import):
                names.extend(a.name for a in node.names if a.name.startswith("stdnum"))
            found += [f"{path.relative_to(ROOT.parent)}: {name}" for name in names]
    assert sorted(found) == [
        "console/core/spec/formats.py: check_luhn",
        "console/core/spec/formats.py: luhn_valid",
    ]


def test_the_spec_package_lists_every_public_name_once() -> None:
    import console.core.spec as spec

    for name in spec.__all__:
        assert getattr(spec, name) is not None, name
