"""The documentation's command lines run as printed: every ``gateway-console`` line in a
fenced code block of README.md and docs/*.md names commands and options the real command
line has. Placeholders such as FILE or NAME are fine as text values; a number is printed as
a number, since the command line checks it.

An example is parsed by the command line's own parser; a synopsis (``[--opt X]``,
``(--a | --b)``) has each option it names looked up in its command's ``--help``.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from console.cli import build_parser, with_command

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROGRAM = "gateway-console"
SHELL_OPERATORS = set("();<>|&")
OPTION = re.compile(r"^--?[A-Za-z][\w-]*$")
COMMAND_WORD = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True)
class Example:
    """One command line as printed: where it is, and its text with continuations joined."""

    where: str
    text: str


def examples(markdown: str, name: str) -> list[Example]:
    """The ``gateway-console`` command lines of the fenced code blocks in ``markdown``."""
    found: list[Example] = []
    lines = markdown.splitlines()
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        command = line.strip().removeprefix("$ ")
        if not fenced or command.split(" ", 1)[0] != PROGRAM:
            continue
        start = i
        parts = [command]
        # A trailing backslash continues the line; so does an indented line (a synopsis
        # wrapped to fit, or a comment carried on under the one before).
        while i < len(lines) and (parts[-1].endswith("\\") or lines[i][:1].isspace()):
            parts[-1] = parts[-1].removesuffix("\\")
            if lines[i].lstrip().startswith("```"):
                break
            parts.append(lines[i])
            i += 1
        found.append(Example(f"{name}:{start}", "\n".join(parts)))
    return found


def words(text: str) -> list[str]:
    """Shell words of ``text``: quotes removed, comments dropped, operators apart."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def run_parser(argv: list[str]) -> tuple[int, str, str]:
    """Parse ``argv`` as the command line does, without running it: (status, out, err)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            build_parser().parse_args(with_command(argv))
        except SystemExit as stop:
            return int(stop.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def problem(example: Example) -> str | None:
    """What is wrong with ``example``, or None when the command line takes it."""
    tokens = words(example.text)[1:]
    if any(t == "(" or t.startswith("[") for t in tokens):
        return synopsis_problem(tokens)
    for n, token in enumerate(tokens):
        if set(token) <= SHELL_OPERATORS:  # a pipe or a redirection: the command ends here
            tokens = tokens[:n]
            break
    status, _, err = run_parser(tokens)
    return None if status == 0 else err.strip().splitlines()[-1]


def synopsis_problem(tokens: list[str]) -> str | None:
    """A synopsis: its command exists and has every option it names."""
    command: list[str] = []
    for token in with_command(tokens):  # the window's options are the gui command's
        if not COMMAND_WORD.match(token):
            break
        command.append(token)
    status, usage, err = run_parser([*command, "--help"])
    if status != 0:
        return err.strip().splitlines()[-1]
    named = (t.strip("[](){}|").split("=", 1)[0] for t in tokens)
    missing = [
        option
        for option in dict.fromkeys(named)
        if OPTION.match(option) and not re.search(rf"(?<![\w-]){option}(?![\w-])", usage)
    ]
    return f"{' '.join(command)}: no option {', '.join(missing)}" if missing else None


ALL = [e for page in PAGES for e in examples(page.read_text(encoding="utf-8"), page.name)]


def test_the_pages_print_command_lines() -> None:
    pages = {e.where.split(":")[0] for e in ALL}
    assert {"README.md", "command-line.md", "sandbox.md", "batch.md", "team.md"} <= pages


@pytest.mark.parametrize("example", ALL, ids=[e.where for e in ALL])
def test_a_printed_command_line_is_one_the_command_line_takes(example: Example) -> None:
    assert problem(example) is None, f"{example.where}: {example.text}\n{problem(example)}"


def test_an_option_the_command_line_lacks_is_found() -> None:
    page = """
```sh
gateway-console send payout-check --env NAME \\
    --fields-file payout.json --retry 3 > out.txt   # sends it
gateway-console verify [FILE|-] (--public-key FILE | --signer FILE)
    [--json]
gateway-console refund --env NAME
gateway-console --screenshot FILE.png [--theme light|dark] [--zoom N]
```
"""
    found = [problem(e) for e in examples(page, "page.md")]
    assert len(found) == 4
    assert "unrecognized arguments: --retry 3" in str(found[0])
    assert found[1] == "verify: no option --signer"
    assert "invalid choice: 'refund'" in str(found[2])
    assert found[3] == "gui: no option --zoom"


def test_placeholders_pipes_and_comments_are_taken() -> None:
    page = """
```console
$ gateway-console history --search 'po-1*' --json | head -1   # the newest
gateway-console batch template card > payouts.csv
```
Text outside a block: gateway-console --no-such-option
"""
    found = examples(page, "page.md")
    assert [problem(e) for e in found] == [None, None]


LINK = re.compile(r"\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")


def anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings of ``markdown``."""
    fenced = False
    found = set()
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_link_between_pages_and_every_picture_is_there(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = []
    for match in LINK.finditer(text):
        target = match.group(1) or match.group(2)
        if re.match(r"^[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        missing = not linked.exists()
        if missing or (anchor and anchor not in anchors(linked.read_text(encoding="utf-8"))):
            broken.append(target)
    assert not broken, f"{page.name}: {broken}"


BUILT_IN = {"local-sandbox"}  # the environment every console has


def unknown_environments(page_examples: list[Example]) -> list[str]:
    """The examples that name an environment (``--env NAME`` in lower case, not a
    placeholder) that no example before it on the page adds (``env add NAME``): copied in
    order into a fresh console, each must run."""
    added = set(BUILT_IN)
    unknown: list[str] = []
    for example in page_examples:
        tokens = words(example.text)[1:]
        if tokens[:2] == ["env", "add"] and len(tokens) > 2:
            added.add(tokens[2])
        for n, token in enumerate(tokens[:-1]):
            name = tokens[n + 1]
            if token == "--env" and name.islower() and name not in added:
                unknown.append(f"{example.where}: --env {name}")
    return unknown


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_environment_an_example_uses_is_added_before_it(page: Path) -> None:
    found = examples(page.read_text(encoding="utf-8"), page.name)
    assert unknown_environments(found) == []


def test_an_environment_used_before_it_is_added_is_found() -> None:
    page = """
```sh
gateway-console send payout-check --env my-sandbox -f amount=1
gateway-console env add my-sandbox --kind sandbox --base-url https://sandbox.example/paynet
gateway-console send payout-check --env my-sandbox -f amount=1
gateway-console send payout-check --env local-sandbox -f amount=1
gateway-console send payout-check --env NAME -f amount=1
```
"""
    assert unknown_environments(examples(page, "page.md")) == ["page.md:3: --env my-sandbox"]
