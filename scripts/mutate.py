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
    python scripts/mutate.py --max-children 1 masking  # one mutant at a time (a shared machine)

Then ``scripts/mutation_report.py`` prints the score of each module run and its survivors.

The team's modules are tested against a real PostgreSQL server. mutmut runs each mutant's
tests in a pytest session of its own, which would start (initdb) and stop a throwaway cluster
every time; instead one server is started here for all of them, named to the tests by
``GATEWAY_CONSOLE_TEST_PG_PORT`` (``tests/helpers/postgres.py``), and stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
# Linked into each module's folder: the code, the tests and what the tests read.
LINKED = ("console", "tests", "pyproject.toml")
TEAM = "console/core/team/"  # modules whose tests need a PostgreSQL server


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


@contextmanager
def test_server(paths: list[str]) -> Iterator[dict[str, str]]:
    """What to add to the tests' environment: the port of one PostgreSQL server started for
    all the mutants of the team's modules among ``paths`` (stopped on leaving), else
    nothing (also when the caller named a running server, or none is installed: the tests
    then say so)."""
    sys.path.insert(0, str(ROOT))
    # the tests' own helper starts it as they would (imported here: only mutate needs it)
    from tests.helpers.postgres import SERVER_PORT, bindir, running_cluster

    binaries = bindir()
    if not any(p.startswith(TEAM) for p in paths) or SERVER_PORT in os.environ or not binaries:
        yield {}
        return
    with running_cluster(binaries) as cluster:
        print(f"mutate: PostgreSQL for the team's tests on port {cluster.port}", flush=True)
        yield {SERVER_PORT: str(cluster.port)}


def run(
    path: str, mutants: list[str], extra: dict[str, str] | None = None, children: int = 0
) -> int:
    """Run mutmut over one module (its listed mutants only, when given), with ``extra``
    added to the tests' environment, ``children`` mutants at a time (0: one per core)."""
    where = prepare(path)
    print(f"mutate: {path} ({', '.join(modules()[path])})", flush=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **(extra or {})}
    # a mutant that makes a test hang (a lost wake-up) fails after this, not mutmut's limit
    env.setdefault("GATEWAY_CONSOLE_TEST_HANG_SECONDS", "60")
    at_once = ["--max-children", str(children)] if children else []
    command = [sys.executable, "-m", "mutmut", "run", *at_once, *mutants]
    # the command is this interpreter running mutmut on mutant names from its own results
    return subprocess.run(command, cwd=where, env=env, check=False).returncode  # noqa: S603


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="module paths or their tails (all: none)")
    parser.add_argument("--mutant", action="append", default=[], help="rerun this mutant only")
    parser.add_argument(
        "--max-children", type=int, default=0, help="mutants run at a time (default: one a core)"
    )
    args = parser.parse_args(argv)
    failed = 0
    paths = [
        path
        for path in chosen(args.modules)
        if not args.mutant or any(m.startswith(module_name(path) + ".") for m in args.mutant)
    ]
    with test_server(paths) as extra:
        for path in paths:
            mine = [m for m in args.mutant if m.startswith(module_name(path) + ".")]
            failed |= run(path, mine, extra, args.max_children)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
