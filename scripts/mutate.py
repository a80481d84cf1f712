"""Mutation testing of the money modules, one module at a time (``make mutate``).

Each module listed in ``[tool.mutation.modules]`` of ``pyproject.toml`` gets a folder of its
own, ``mutants/<module>/``: the project's folders linked in, and mutmut's settings for that
module alone written to its ``setup.cfg`` (mutmut reads them there because the linked
``pyproject.toml`` has no ``[tool.mutmut]``): only that module mutated, its own tests run.
mutmut collects which of those tests reach each function once per folder and keeps each
mutant's result there, so a module is run again without touching the others' results.

    python scripts/mutate.py                       # every module, in the listed order
    python scripts/mutate.py masking pipeline/guard  # some (a path's tail is enough)
    python scripts/mutate.py --mutant console.core.masking.x_mask_pan__mutmut_3  # rerun one

Then ``scripts/mutation_report.py`` prints the score of each module run and its survivors.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
# Linked into each module's folder: the code, the tests and what the tests read.
LINKED = ("console", "tests", "pyproject.toml")


def settings() -> dict[str, object]:
    """``[tool.mutation]`` of ``pyproject.toml``."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found: dict[str, object] = data["tool"]["mutation"]
    return found


def modules() -> dict[str, list[str]]:
    """Module path -> the tests its mutants run, in the order they are run (cheapest first)."""
    listed = settings()["modules"]
    assert isinstance(listed, dict)
    return {str(path): [str(t) for t in tests] for path, tests in listed.items()}


def module_name(path: str) -> str:
    """``console/core/masking.py`` -> ``console.core.masking`` (its folder, its mutants' prefix)."""
    return path.removesuffix(".py").replace("/", ".")


def folder(path: str) -> Path:
    """Where the mutants of the module at ``path`` are made, run and kept."""
    return MUTANTS / module_name(path)


def chosen(names: list[str]) -> list[str]:
    """The module paths ``names`` mean (all when none); a name matches a path's tail."""
    listed = list(modules())
    if not names:
        return listed
    picked = []
    for name in names:
        tail = name.removesuffix(".py").replace(".", "/")
        matches = [p for p in listed if p.removesuffix(".py").endswith(tail)]
        if len(matches) != 1:
            sys.exit(f"mutate: {name!r} names {len(matches)} of the modules: {', '.join(listed)}")
        picked.append(matches[0])
    return picked


def _cfg_list(values: list[str]) -> str:
    return "".join(f"\n    {v}" for v in values)


def prepare(path: str) -> Path:
    """The module's folder, with the project linked in and mutmut's settings for it."""
    where = folder(path)
    where.mkdir(parents=True, exist_ok=True)
    extra = settings()
    also_copy = [str(p) for p in extra["also_copy"]]  # type: ignore[attr-defined]
    for name in (*LINKED, *also_copy):
        link = where / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name)
    cli_args = [str(a) for a in extra["pytest_add_cli_args"]]  # type: ignore[attr-defined]
    (where / "setup.cfg").write_text(
        "# Written by scripts/mutate.py from [tool.mutation] in pyproject.toml: do not edit.\n"
        "[mutmut]\n"
        "source_paths = console\n"
        f"only_mutate = {path}\n"
        f"pytest_add_cli_args_test_selection = {_cfg_list(modules()[path])}\n"
        f"pytest_add_cli_args = {_cfg_list(cli_args)}\n"
        f"also_copy = {_cfg_list(also_copy)}\n"
        # the module's own tests decide; the git history of files beside them does not
        "use_git_change_detection = false\n",
        encoding="utf-8",
    )
    return where


def run(path: str, mutants: list[str]) -> int:
    """Run mutmut over one module (its listed mutants only, when given)."""
    where = prepare(path)
    print(f"mutate: {path} ({', '.join(modules()[path])})", flush=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "mutmut", "run", *mutants]
    # the command is this interpreter running mutmut on mutant names from its own results
    return subprocess.run(command, cwd=where, env=env, check=False).returncode  # noqa: S603


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="module paths or their tails (all: none)")
    parser.add_argument("--mutant", action="append", default=[], help="rerun this mutant only")
    args = parser.parse_args(argv)
    failed = 0
    for path in chosen(args.modules):
        mine = [m for m in args.mutant if m.startswith(module_name(path) + ".")]
        if args.mutant and not mine:
            continue
        failed |= run(path, mine)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
