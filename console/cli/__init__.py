"""The command line: ``gateway-console [COMMAND] ...``.

With no command it opens the window. Each sub-command lives in its own module that offers
``register(subparsers)``; the handler it sets as ``func`` returns the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from console import APP_NAME
from console.cli.parser import Parser
from console.core.errors import ConsoleError

# Each command and the module that registers it, in the order ``--help`` lists them. A run
# loads only its command's module (the boundary of lazy loading on the command line); help
# and a mistyped command load them all.
COMMAND_MODULES: dict[str, str] = {
    "gui": "console.cli.gui_cmd",
    "sign": "console.cli.sign_cmd",
    "validate": "console.cli.sign_cmd",
    "send": "console.cli.send_cmd",
    "sandbox": "console.cli.sandbox_cmd",
    "env": "console.cli.env_cmd",
    "keys": "console.cli.keys_cmd",
    "history": "console.cli.history_cmd",
    "verify": "console.cli.verify_cmd",
    "import-curl": "console.cli.import_curl_cmd",
    "team": "console.cli.team_cmd",
    "batch": "console.cli.batch_cmd",
    "code": "console.cli.code_cmd",
    "export": "console.cli.export_cmd",
}
SUBCOMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(COMMAND_MODULES.values()))


class _VersionAction(argparse.Action):
    """``--version``, reading the installed version only when asked (it is slow to read)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        # boundary: reading the version loads importlib.metadata, only for --version
        from console import __version__

        print(f"{parser.prog} {__version__}")  # on stdout, like argparse's own version action
        parser.exit()


_GUI_OPTIONS = ("--screenshot", "--command", "--fill-example")


def build_parser(modules: Sequence[str] = SUBCOMMAND_MODULES) -> argparse.ArgumentParser:
    """The argument parser with the sub-commands of ``modules`` (all of them by default)."""
    parser = Parser(
        prog="gateway-console",
        description=f"{APP_NAME}: sign, validate and send v4 gateway requests.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        importlib.import_module(name).register(sub)
    return parser


def with_command(argv: Sequence[str]) -> list[str]:
    """``argv`` with the ``gui`` command put in front when it names none (open the window)."""
    args_list = list(argv)
    if not args_list or args_list[0].split("=")[0] in _GUI_OPTIONS:
        return ["gui", *args_list]
    return args_list


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the process exit status."""
    args_list = with_command(sys.argv[1:] if argv is None else argv)
    # Only the command's own module: the others (client, sandbox, keyring, siglab, batch,
    # team) would only delay the window's first paint or a signature.
    one = COMMAND_MODULES.get(args_list[0])
    parser = build_parser((one,) if one is not None else SUBCOMMAND_MODULES)
    args = parser.parse_args(args_list)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2

    # boundary: the failure reports load after the command has run, so the window's first
    # paint does not wait for them
    from console.cli import failures

    code: int | None = None
    try:
        try:
            code = int(func(args))
        except ConsoleError as exc:  # what a person can meet: their words, a documented status
            code = failures.report(args, exc)
        sys.stdout.flush()  # here, where a closed pipe can still be handled
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader left early (``| head -1``): stop writing, keep the status if it is known.
        _silence_stdout()
        return 141 if code is None else code  # 141: what a shell reports for SIGPIPE
    except Exception as exc:  # a programming error: logged, never reported as bad input
        return failures.internal_error(args, exc)
    return code


def _silence_stdout() -> None:
    """Point standard output at the null device so the exit's flush does not fail again."""

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass  # not a real file (tests capture it): nothing is flushed at exit anyway
