"""``gateway-console gui``: open the window (the default with no command)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("gui", help="open the console window (the default)")
    p.add_argument("--screenshot", metavar="FILE.png", help="render the window to a PNG and exit")
    p.add_argument("--command", dest="form_command", metavar="NAME", help="form to show first")
    p.add_argument("--fill-example", action="store_true", help="fill the form with an example")
    p.add_argument(
        "--theme", choices=("system", "light", "dark"), help="colour theme for this start only"
    )
    p.add_argument("--size", type=window_size, metavar="WxH", help="window size, e.g. 1024x700")
    p.set_defaults(func=run)


def window_size(text: str) -> tuple[int, int]:
    """``1024x700`` -> (1024, 700)."""
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit() and int(width) and int(height)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1024x700")
    return int(width), int(height)


def run(args: argparse.Namespace) -> int:
    try:
        # boundary: PySide6 and the window, only for gui (not for --help)
        from console.ui.app import run_app
    except ImportError as exc:  # PySide6 missing, or the window not installed
        print(
            f"The window cannot start: {exc}.\n"
            "Install the window's dependencies with: pip install 'gateway-console[gui]'\n"
            "The command line works without them: gateway-console --help",
            file=sys.stderr,
        )
        return 3
    return run_app(args)
