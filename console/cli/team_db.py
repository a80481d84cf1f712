"""The team database a ``team`` command works on: ``--dsn``, else the DSN ``team init``
saved (or ``GATEWAY_CONSOLE_TEAM_DSN``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from console.cli.request_args import UsageError
from console.core.team.storage.dsn import configured_dsn, parse_dsn

if TYPE_CHECKING:
    from console.core.team.storage.journal import TeamJournal


def team_dsn(args: argparse.Namespace) -> str:
    dsn = args.dsn or configured_dsn()
    if not dsn:
        raise UsageError("no team database: run `team init --dsn URL` or pass --dsn")
    parse_dsn(dsn)
    return str(dsn)


def team_journal(args: argparse.Namespace) -> TeamJournal:
    # boundary: the team journal (client, SQLite, psycopg) loads for the command that uses it, not
    # for `team --help`
    from console.core.team.storage.journal import TeamJournal

    return TeamJournal(team_dsn(args))
