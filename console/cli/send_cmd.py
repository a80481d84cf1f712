"""``send``: validate, sign and send one request, and print the decoded answer.

It goes through the core's send pipeline (``console.core.pipeline``), like the window:
the double-payout guard, the order of the questions, the journal and masking are the
pipeline's. Where the window asks the person, ``send``'s answers are its flags
(``--yes`` for production, ``--resend-unknown`` after an unknown outcome,
``--confirm-card-number``; :mod:`console.cli.asking`); an accepted client_orderid is refused
with its own exit status. The exit statuses are in
``console.cli.failures`` (also printed by ``gateway-console send --help``).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import Any
from urllib.parse import urlsplit

from console.cli import arg_types
from console.cli.asking import CommandLineAsker, refused_error
from console.cli.failures import (
    EXIT_ACCESS_DENIED,
    EXIT_GATEWAY_FAILED,
    EXIT_INVALID,
    EXIT_NOT_FINAL,
    EXIT_NOT_SENT,
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_TABLE,
    EXIT_UNKNOWN,
)
from console.cli.output import print_outcome, print_refusal
from console.cli.parser import RawDescriptionHelpFormatter
from console.cli.request_args import (
    Connection,
    add_connection_options,
    add_field_options,
    read_fields,
    sender_connection,
)
from console.cli.schedule_output import no_charge_yet, print_schedule, schedule_for
from console.core.client import Outcome, Result
from console.core.journals import Journal, open_journal
from console.core.masking import mask_params
from console.core.pipeline import Pipeline, Refused, Sent
from console.core.pipeline.asking import HoldRule
from console.core.schedule_report import Schedule
from console.core.spec import COMMANDS

EXIT_BY_RESULT = {
    Result.ACCEPTED: EXIT_OK,
    Result.REJECTED: EXIT_REJECTED,
    Result.ACCESS_DENIED: EXIT_ACCESS_DENIED,
    Result.GATEWAY_FAILED: EXIT_GATEWAY_FAILED,
    Result.NOT_SENT: EXIT_NOT_SENT,
    Result.UNKNOWN: EXIT_UNKNOWN,
}
_log = logging.getLogger(__name__)


def register(sub: Any) -> None:
    names = sorted(COMMANDS)
    p_send = sub.add_parser(
        "send",
        help="validate, sign and send a request; print the decoded answer",
        epilog=EXIT_TABLE,
        formatter_class=RawDescriptionHelpFormatter,
    )
    p_send.add_argument("api_command", metavar="COMMAND", choices=names, help=", ".join(names))
    add_connection_options(p_send)
    add_field_options(p_send)
    p_send.add_argument(
        "--timeout",
        type=arg_types.read_timeout,
        help="read timeout in seconds (default: environment's, or 60)",
    )
    p_send.add_argument(
        "--connect-timeout",
        type=arg_types.connect_timeout,
        help="seconds (default: environment's, or 10)",
    )
    p_send.add_argument("--ca-bundle", help="CA bundle file for TLS verification")
    p_send.add_argument("--no-validate", action="store_true", help="send even with errors")
    p_send.add_argument(
        "--yes", action="store_true", help="send to a production environment without asking"
    )
    p_send.add_argument(
        "--confirm-card-number",
        action="store_true",
        help="send a card number that fails the Luhn check (you checked every digit)",
    )
    p_send.add_argument(
        "--resend-unknown",
        action="store_true",
        help="resend a client_orderid whose last send has an unknown outcome (after you "
        "checked its status); it goes with the same client_orderid",
    )
    p_send.add_argument(
        "--wait",
        type=arg_types.delay,
        default=0.0,
        metavar="SECONDS",
        help="team mode, where the approval policy holds the send back: wait this long for a "
        "checker's decision and send when approved (needed when the request carries card "
        "data, which only this process holds); with a team sender, how long to wait for its "
        "outcome (default 120)",
    )
    p_send.add_argument(
        "--no-wait",
        action="store_true",
        help="team mode with a team sender: submit, print the submission number and return "
        "(exit 12) without waiting for the outcome",
    )
    p_send.add_argument(
        "--after-rejection",
        action="store_true",
        help="team mode: submit a request again although a checker rejected the same request "
        "(or its client_orderid) before; said to the checkers and written in the audit trail",
    )
    p_send.set_defaults(func=run_send)


def run_send(args: argparse.Namespace) -> int:
    values = read_fields(args)
    journal = open_journal()
    try:
        conn = sender_connection(args, journal)
        pipeline = send_pipeline(args, conn, journal)
        check = pipeline.prepare(
            args.api_command, values, skip_validation=args.no_validate, **conn.settings
        )
        if not check.signed:
            print_refusal(check.prepared.problems, as_json=args.json)
            return EXIT_INVALID
        from console.cli.team_send import go  # boundary: team mode only (the approval rules)

        ready = pipeline.ask(check, CommandLineAsker(args))
        if isinstance(ready, Refused):
            raise refused_error(ready)
        done = go(args, pipeline, ready)
        if isinstance(done, Refused):  # decided again in the journal: accepted, on its way
            raise refused_error(done)
        if isinstance(done, int):
            return done
        if no_charge_yet(args, pipeline, journal, done, outcome_json):
            return EXIT_NOT_FINAL
        return report_sent(args, done)
    finally:
        journal.close()


def report_sent(args: argparse.Namespace, sent: Sent) -> int:
    """Print a send's answer (whatever breaks while printing) and return its exit status."""
    try:
        _print_sent(args, sent)
    except BrokenPipeError:
        raise  # the reader left (``| head -1``): the entry point ends quietly
    except Exception:  # the money may have moved: the outcome is said whatever broke
        _log.exception("printing the answer of %s failed", sent.outcome.prepared.command)
        print(
            f"{sent.outcome.prepared.command} -> {sent.result.upper()}: {sent.outcome.summary} "
            "(the full answer could not be printed: internal error, see the log file)",
            file=sys.stderr,
        )
    return EXIT_BY_RESULT[sent.result]


def send_pipeline(args: argparse.Namespace, conn: Connection, journal: Journal) -> Pipeline:
    """The send pipeline for this invocation's environment, journalled in ``journal``."""
    settings = conn.settings
    environment = args.env or f"command line ({urlsplit(settings['base_url']).netloc})"
    from console.core.transport import Timeouts, Transport  # sending only

    timeouts = Timeouts(connect=conn.connect_timeout, read=conn.read_timeout)
    holds: HoldRule | None = None
    if journal.shared:  # boundary: team mode only (its approval rule, psycopg)
        from console.core.team.approvals.held import hold

        holds = hold
    return Pipeline(
        environment,
        gateway=conn.gateway,
        production=conn.production,
        journal=journal,
        transport=lambda: Transport(timeouts=timeouts, verify=conn.ca_bundle or True),
        connect_timeout=conn.connect_timeout,
        read_timeout=conn.read_timeout,
        holds=holds,
    )


def _print_sent(args: argparse.Namespace, sent: Sent) -> None:
    outcome = sent.revealed if args.reveal else sent.outcome
    made = sent.result == Result.ACCEPTED  # a profile created: the charges it will make
    schedule = schedule_for(outcome.prepared.command, dict(outcome.prepared.params))
    schedule = schedule if made else None
    if args.json:
        out = outcome_json(outcome, masked=not args.reveal)
        out.update(_schedule(schedule) if schedule is not None else {})
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print_outcome(outcome)
        print_schedule(schedule)
    if sent.journal_error is not None:
        print(
            f"warning: the answer could not be stored in the history journal "
            f"({sent.journal_error}); it will show as outcome unknown there.",
            file=sys.stderr,
        )


def _schedule(schedule: Schedule) -> dict[str, Any]:
    return {"schedule": schedule.to_json()}


def outcome_json(outcome: Outcome, *, masked: bool = True) -> dict[str, Any]:
    """The ``send --json`` object: the decoded answer or the transport failure."""
    prepared = outcome.prepared
    base: dict[str, Any] = {
        "result": str(outcome.result),
        "summary": outcome.summary,
        "url": prepared.url,
        "params": [list(p) for p in (mask_params(prepared.params) if masked else prepared.params)],
        "elapsed": round(outcome.elapsed, 4),
    }
    if outcome.response is None:
        assert outcome.error is not None
        base.update(
            http_status=None,
            kind=str(outcome.result),
            type=None,
            status=None,
            fields={},
            raw="",
            error=outcome.error.message,
        )
        return base
    return {**outcome.response.to_json(), **base}
