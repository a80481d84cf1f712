"""Typed converters for the command line's numbers and addresses, used as argparse ``type=``
by every command.

A number that is not finite, out of range or too large for what it feeds (a socket timeout,
a port, an SQLite integer) is refused here, as a usage error (exit status 2) that names the
option and the range, before a command opens a journal or sends anything; so is a base
address an environment could not hold (the core's rule, ``env add``'s too).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from decimal import Decimal

from console.core.addresses import base_url_problem
from console.core.money import MoneyFactError, read_amount
from console.core.timeouts import CONNECT_TIMEOUT_MAX, READ_TIMEOUT_MAX

LONG_MAX = 2**63 - 1  # the largest integer SQLite and PostgreSQL store
HISTORY_ROWS_MAX = 1_000_000  # rows one listing prints; `history export` writes any number
DELAY_MAX = 86_400.0  # seconds: a day


def base_url(text: str) -> str:
    """A gateway's base address, held to the rule of an environment's (as given: not
    trimmed, since it is signed as it is)."""
    problem = base_url_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text


base_url.__name__ = "address"


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``."""

    def convert(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"give a whole number from {low} to {high}, not {text!r}"
            )
        return value

    convert.__name__ = "whole number"
    return convert


def listen_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` to listen on (``[::1]:8443`` for an IPv6 address; port 0: any free)."""
    host, sep, port = text.strip().rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        number = int(port, 10) if sep and host else -1
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(
            f"give HOST:PORT (0.0.0.0:8443, 127.0.0.1:8080, [::]:8443), not {text!r}"
        )
    return host, number


listen_address.__name__ = "address"


def seconds(high: float, *, zero: bool = False) -> Callable[[str], float]:
    """A finite number of seconds above 0 (from 0 with ``zero``) and at most ``high``."""

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        low_ok = value >= 0 if zero else value > 0
        if not (math.isfinite(value) and low_ok and value <= high):
            low = "from 0" if zero else "above 0"
            raise argparse.ArgumentTypeError(
                f"give a number of seconds {low} and at most {high:g}, not {text!r}"
            )
        return value

    convert.__name__ = "seconds"
    return convert


def amount(text: str) -> Decimal:
    """An amount above zero, written like 20000.00 (the core's one reading of amounts)."""
    try:
        return read_amount(text, "the value", above_zero=True)
    except MoneyFactError as exc:
        raise argparse.ArgumentTypeError(f"give an amount above 0: {exc}") from None


port = whole(0, 65535)  # 0: any free port
connect_timeout = seconds(CONNECT_TIMEOUT_MAX)
read_timeout = seconds(READ_TIMEOUT_MAX)
delay = seconds(DELAY_MAX, zero=True)
history_rows = whole(0, HISTORY_ROWS_MAX)
