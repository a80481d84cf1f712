"""``gateway-console history [--search TEXT] [--json] [--limit N]`` and ``history export FILE``.

Filters (also after ``export``): ``--search`` an id (``ord-2026*`` for ids starting so) or the
last four card digits, ``--env``,
``--command``, ``--outcome`` (repeatable), ``--since`` and ``--until`` (ISO dates or times,
local time; a date alone for ``--until`` includes that whole day).

Exit statuses: 0 done, 1 the export file cannot be written, 2 usage error, 10 the journal is
unavailable (the message says why, where the file is and what to do).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from console.cli.arg_types import HISTORY_ROWS_MAX, history_rows
from console.cli.failures import EXIT_FAILED, EXIT_JOURNAL, EXIT_USAGE
from console.core.errors import JournalUnavailableError
from console.core.history import (
    EXPORT_FORMATS,
    OUTCOME_TEXT,
    HistoryFilter,
    HistoryRow,
    export,
)
from console.core.journals import JournalStore, open_journal

_TABLE: tuple[tuple[str, Callable[[HistoryRow], str]], ...] = (
    ("TIME", lambda r: r.created.astimezone().strftime("%Y-%m-%d %H:%M:%S")),
    ("ENV", lambda r: r.environment),
    ("COMMAND", lambda r: r.command),
    ("CLIENT ORDER ID", lambda r: r.client_orderid or ""),
    ("AMOUNT", lambda r: r.amount_text),
    ("RECEIVER", lambda r: r.receiver or ""),
    ("OUTCOME", lambda r: r.outcome_text),
    ("FINAL", lambda r: r.final_status or ""),
    ("GATEWAY ORDER", lambda r: r.gateway_order_id or ""),
    ("SERIAL", lambda r: r.serial_number or ""),
)


def register(sub: Any) -> None:
    p = sub.add_parser("history", help="list, search or export the request history")
    _filter_options(p, argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--limit",
        type=history_rows,
        default=50,
        help=f"rows to show, 0 to {HISTORY_ROWS_MAX} (default 50)",
    )
    p.set_defaults(func=run_list)
    actions = p.add_subparsers(dest="history_action", metavar="ACTION")
    e = actions.add_parser("export", help="export matching rows to CSV or JSON")
    e.add_argument("file", type=Path, help="FILE.csv or FILE.json")
    e.add_argument("--format", choices=EXPORT_FORMATS, help="instead of the file's suffix")
    # SUPPRESS: filters given before "export" are not reset by the sub-command's defaults
    _filter_options(e, argparse.SUPPRESS)
    e.set_defaults(func=run_export)


def _filter_options(p: argparse.ArgumentParser, default: Any) -> None:
    g = p.add_argument_group("filters")
    g.add_argument(
        "--search",
        default=default,
        metavar="TEXT",
        help="an id (end it with * for ids starting so) or last four card digits",
    )
    g.add_argument("--env", action="append", default=default, metavar="NAME")
    g.add_argument("--command", dest="api_command", action="append", default=default)
    g.add_argument("--outcome", action="append", default=default, choices=sorted(OUTCOME_TEXT))
    g.add_argument("--since", default=default, metavar="DATE", help="from (included)")
    g.add_argument("--until", default=default, metavar="DATE", help="to (a date: that day too)")


def _when(text: str | None, *, end: bool) -> datetime | None:
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a date: write 2026-05-31 or 2026-05-31T14:30") from None
    if end and len(text) <= 10:  # a date alone: up to the end of that day
        value += timedelta(days=1)
    return value.astimezone() if value.tzinfo is None else value


def _filter(args: argparse.Namespace) -> HistoryFilter:
    def many(name: str) -> frozenset[str]:
        return frozenset(getattr(args, name, None) or ())

    return HistoryFilter(
        search=getattr(args, "search", None) or "",
        commands=many("api_command"),
        environments=many("env"),
        outcomes=many("outcome"),
        since=_when(getattr(args, "since", None), end=False),
        until=_when(getattr(args, "until", None), end=True),
    )


def _open(where: str) -> JournalStore | None:
    """The journal sends are written to: the team's when this profile has a team DSN."""
    try:
        history = open_journal()
    except JournalUnavailableError as exc:
        print(f"{where}: {exc.message}", file=sys.stderr)
        return None
    interrupted = history.interrupted_count()
    if interrupted:
        print(
            f"{where}: {interrupted} request(s) were interrupted before their answer came: "
            "outcome unknown. Check their status before sending them again.",
            file=sys.stderr,
        )
    return history


def _table(rows: list[HistoryRow]) -> None:
    cells = [[head for head, _ in _TABLE]] + [[get(r) for _, get in _TABLE] for r in rows]
    widths = [min(40, max(len(c[i]) for c in cells)) for i in range(len(_TABLE))]
    for line in cells:
        print("  ".join(c[:w].ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())


def run_list(args: argparse.Namespace) -> int:
    try:
        f = _filter(args)
    except ValueError as exc:
        print(f"gateway-console history: {exc}", file=sys.stderr)
        return EXIT_USAGE
    history = _open("gateway-console history")
    if history is None:
        return EXIT_JOURNAL
    with history:
        total = history.count(f)
        rows = history.fetch(f, 0, args.limit)
    if args.json:
        print(json.dumps([r.to_json() for r in rows], indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print("No requests match." if total == 0 else f"{total} requests match (--limit 0).")
        return 0
    _table(rows)
    if total > len(rows):
        print(f"({len(rows)} of {total} shown, newest first; --limit N shows more)")
    return 0


def run_export(args: argparse.Namespace) -> int:
    where = "gateway-console history export"
    try:
        f = _filter(args)
    except ValueError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    history = _open(where)
    if history is None:
        return EXIT_JOURNAL
    try:
        with history:
            count = export(history, args.file, filter=f, fmt=args.format)
    except ValueError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"{where}: cannot write {args.file} ({exc.strerror})", file=sys.stderr)
        return EXIT_FAILED
    print(f"{count} request(s) exported to {args.file}.")
    return 0
