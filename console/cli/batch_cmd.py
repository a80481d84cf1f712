"""``gateway-console batch``: payouts from a CSV or JSON Lines file.

``template TYPE`` writes a file template, ``validate FILE`` checks it (rows, repeated ids,
ids the journal holds for the environment, totals), ``run FILE`` sends it through the core's
send pipeline (or signs it only, or sends it to a throwaway local sandbox, with
``--dry-run``), ``status FILE`` refreshes the results file from the journal and, with
``--check``, asks the gateway about rows whose outcome is unknown. ``limits`` shows or sets
an environment's batch limits. The rules are the core's (``console.core.batch``).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from console.cli import arg_types
from console.cli.batch_output import (
    print_plan,
    print_report,
    print_validation,
    progress_line,
    summarised_log,
)
from console.cli.failures import (
    EXIT_APPROVAL_REFUSED,
    EXIT_ASK_UNKNOWN,
    EXIT_INVALID,
    EXIT_NOT_CONFIRMED,
    EXIT_NOT_FINAL,
    EXIT_OK,
    EXIT_OVER_LIMIT,
    EXIT_REJECTED,
    EXIT_ROWS_SKIPPED,
    EXIT_SUBMITTED,
    EXIT_UNKNOWN,
    EXIT_UNREGISTERED_GATEWAY,
    EXIT_USAGE,
)
from console.cli.parser import RawDescriptionHelpFormatter
from console.cli.request_args import (
    Connection,
    UsageError,
    add_connection_options,
    connection,
    gateway_of,
    sender_connection,
)
from console.cli.send_cmd import EXIT_BY_RESULT
from console.core import batch as core
from console.core.environments import EnvironmentStore, EnvKind
from console.core.errors import EnvironmentStoreError
from console.core.journals import open_journal
from console.core.pipeline import Pipeline
from console.core.pipeline.asking import HoldRule

if TYPE_CHECKING:  # sending only: checking a file needs no HTTP client
    from console.core.transport import Transport

EXIT_TABLE = f"""exit status:
  {EXIT_OK}  every row sent was accepted (or there was nothing left to send)
  {EXIT_INVALID}  rows have errors (fix them, or --skip-invalid): nothing was sent
  {EXIT_USAGE}  usage error (an option, the file, a key, an environment): nothing was sent
  {EXIT_REJECTED}  the batch ran; some rows were rejected or declined (see the results file)
  4  stopped: access denied (HTTP 403)
  5  stopped at a row whose answer was a gateway failure (500, unreadable): check its status
  6  stopped: the gateway could not be reached (that row was not sent)
  {EXIT_UNKNOWN}  stopped at a row whose outcome is unknown: check its status (batch status
     FILE --check) before running the file again
  {EXIT_ASK_UNKNOWN}  refused: rows' last sends have an unknown outcome (batch status FILE --check,
     or --resend-unknown)
  10 history journal unavailable: nothing was sent
  {EXIT_NOT_CONFIRMED} production batch not confirmed: nothing was sent
  {EXIT_SUBMITTED} team mode: the batch was submitted for approval (or waits for it): nothing
     was sent; once approved, run the same file again (card rows: --wait)
  {EXIT_APPROVAL_REFUSED} team mode: the batch was rejected, expired, or changed after its approval
  {EXIT_OVER_LIMIT} over the environment's batch limits (rows or total): nothing was sent
  {EXIT_ROWS_SKIPPED} the batch ran; rows were refused when their turn came and not sent (a card
     number failing its check digit, an id accepted meanwhile...): see the results file
  {EXIT_UNREGISTERED_GATEWAY} team mode: the team has not registered the gateway the batch goes to:
     nothing was sent or submitted
  70 internal error: a bug, the details are in the log file
"""

STATUS_EXIT_TABLE = f"""exit status (after a summary per final status: approved, declined, filtered,
error, rejected, processing, unknown, invalid, not sent):
  {EXIT_OK}  every row was approved
  {EXIT_USAGE}  usage error (an option, the file, a key, an environment)
  {EXIT_REJECTED}  rows were declined, filtered, in error or rejected: not paid (the results file's
     error column says why)
  {EXIT_UNKNOWN}  a row's outcome is unknown: check it (--check) before running the file again
  10 history journal unavailable
  {EXIT_NOT_FINAL} nothing needs fixing yet, but rows are not final: still processing (check again
     later), or not sent (invalid, or the batch has not run them)
  70 internal error: a bug, the details are in the log file
"""


def batch_exit(report: core.BatchReport) -> int:
    """The exit status of a batch that ran: the stopping row's, else 3 when a row was
    rejected, else 15 when a row was refused at its turn (skipped, not sent), else 0."""
    if report.stopped and report.results:
        stopping = [
            r
            for r in report.results
            if r.result in EXIT_BY_RESULT and r.result not in ("accepted", "rejected")
        ]
        if stopping:
            return EXIT_BY_RESULT[stopping[0].result]  # type: ignore[index]
    if any(r.result == "rejected" for r in report.results):
        return EXIT_REJECTED
    if any(r.result == core.SKIPPED for r in report.results):
        return EXIT_ROWS_SKIPPED
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("batch", help="payouts from a CSV or JSON Lines file")
    bsub = p.add_subparsers(dest="batch_command", metavar="ACTION", required=True)
    t = bsub.add_parser("template", help="print a file template for a receiver type")
    t.add_argument(
        "kind",
        metavar="TYPE",
        choices=sorted(core.TEMPLATES),
        help=", ".join(sorted(core.TEMPLATES)),
    )
    t.add_argument("--semicolon", action="store_true", help="separate with ; (spreadsheets)")
    t.add_argument(
        "--explain", action="store_true", help="say what each column holds instead of the file"
    )
    t.set_defaults(func=run_template)

    v = _file_command(bsub, "validate", "check a file; sends nothing")
    v.add_argument("--warnings", action="store_true", help="list warnings too")
    _card_numbers_option(v)
    v.set_defaults(func=run_validate)

    r = _file_command(bsub, "run", "send a file's payouts once each (resumes where it stopped)")
    r.add_argument(
        "--dry-run",
        nargs="?",
        const="sign",
        choices=("sign", "sandbox"),
        help="sign every row and send nothing (sign, the default), or send the whole file "
        "to a throwaway local sandbox (sandbox)",
    )
    r.add_argument(
        "--concurrency",
        type=arg_types.whole(1, core.MAX_CONCURRENCY),
        default=1,
        help=f"rows in flight at once, 1 to {core.MAX_CONCURRENCY} (default 1)",
    )
    r.add_argument(
        "--skip-invalid", action="store_true", help="leave rows with errors out and send the rest"
    )
    r.add_argument("--yes", action="store_true", help="confirm a production batch without asking")
    r.add_argument(
        "--resend-unknown",
        action="store_true",
        help="resend rows whose last send has an unknown outcome, with the same "
        "client_orderid (check their status first)",
    )
    _card_numbers_option(r)
    r.add_argument(
        "--wait",
        type=arg_types.delay,
        default=0.0,
        metavar="SECONDS",
        help="team mode, where the approval policy holds the batch back: wait this long for a "
        "checker's decision and run it when approved (needed for card rows, which only this "
        "process holds)",
    )
    r.add_argument(
        "--after-rejection",
        action="store_true",
        help="team mode: submit the batch again although a checker rejected it (or one of its "
        "order ids) before; said to the checkers and written in the audit trail",
    )
    r.add_argument(
        "--results",
        type=Path,
        metavar="OUT.csv",
        help="results file (default: FILE.results.csv beside it; a name ending in .xlsx "
        "writes an Excel workbook)",
    )
    r.set_defaults(func=run_batch)

    s = _file_command(
        bsub, "status", "refresh the results file; --check asks the gateway", STATUS_EXIT_TABLE
    )
    s.add_argument(
        "--check",
        action="store_true",
        help="send status checks for rows whose outcome is unknown or not final",
    )
    s.add_argument("--results", type=Path, metavar="OUT.csv")
    s.set_defaults(func=run_status)

    lim = bsub.add_parser("limits", help="show or set an environment's batch limits")
    lim.add_argument("--env", metavar="NAME", required=True)
    lim.add_argument(
        "--max-rows",
        type=arg_types.whole(1, arg_types.LONG_MAX),
        help="the most rows one batch may send",
    )
    lim.add_argument(
        "--max-total", type=arg_types.amount, help="the most money per currency one batch may send"
    )
    lim.add_argument("--clear", action="store_true", help="back to the defaults")
    lim.set_defaults(func=run_limits)


def _card_numbers_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--confirm-card-numbers",
        action="store_true",
        help="send rows whose card number fails its check digit (Luhn) as typed: you "
        "checked every digit (without it they need a decision and are not sent)",
    )


def _file_command(
    sub: Any, name: str, text: str, exits: str = EXIT_TABLE
) -> argparse.ArgumentParser:
    """A sub-command that reads FILE for an environment, with its exit table in its help."""
    p: argparse.ArgumentParser = sub.add_parser(
        name, help=text, epilog=exits, formatter_class=RawDescriptionHelpFormatter
    )
    p.add_argument(
        "file", type=Path, metavar="FILE", help="CSV (; or , separated), .jsonl or .xlsx"
    )
    p.add_argument(
        "--sheet", metavar="NAME", help="the sheet of an .xlsx workbook (default: the first)"
    )
    add_connection_options(p)
    p.add_argument(
        "--timeout", type=arg_types.read_timeout, help="read timeout in seconds (default 60)"
    )
    p.add_argument("--connect-timeout", type=arg_types.connect_timeout, help="seconds (default 10)")
    p.add_argument("--ca-bundle", help="CA bundle file for TLS verification")
    return p


def run_template(args: argparse.Namespace) -> int:
    if not args.explain:
        sys.stdout.write(core.template_csv(args.kind, ";" if args.semicolon else ","))
        return EXIT_OK
    print(
        f"The {args.kind} template: one row per payout to {core.TEMPLATES[args.kind][0]}. "
        "The header keeps the gateway's names for the columns:"
    )
    for column in core.explain(args.kind):
        print(f"  {column.name:26} {column.need:18} {column.words}")
    print(
        "No callback address: to hear each payout's final status, add a server_callback_url "
        "column with an address of yours the gateway can reach; else `batch status --check` "
        "asks for them."
    )
    return EXIT_OK


def _environment(
    args: argparse.Namespace, fallback: str | None = None
) -> tuple[str, bool, str | None]:
    """The journal's name for the environment (``fallback`` when no option names one),
    whether it is production, and the saved environment requests connect through (None:
    connection options, given or missing, as for a results file's "command line (...)")."""
    name = args.env or (None if getattr(args, "base_url", None) else fallback)
    if name:
        try:
            env = EnvironmentStore().get(name)
        except EnvironmentStoreError as exc:
            if not args.env:  # a results file's "command line (...)" environment
                return name, False, None
            raise UsageError(f"--env {args.env}: {exc.message}") from exc
        return env.name, env.kind is EnvKind.PRODUCTION, env.name
    if getattr(args, "base_url", None):
        return f"command line ({urlsplit(args.base_url).netloc})", False, None
    raise UsageError("name the environment: --env NAME, or --base-url with the other options")


def _plan(
    args: argparse.Namespace, pipeline: Pipeline, production: bool, *, stream: bool = False
) -> core.Plan:
    """The file checked for this environment, with the options' choices (``stream``: for
    showing only, ready rows counted and not kept: ``batch validate`` of a large file)."""
    if stream:
        batch, rows = core.stream_batch(args.file, args.sheet)
        validation = core.check_stream(
            batch, rows, lambda ids: pipeline.verdicts(core.COMMAND, ids)
        )
    else:
        batch = core.read_batch(args.file, args.sheet)
        ids = (row.client_orderid for row in batch.rows)
        validation = core.check_batch(batch, pipeline.verdicts(core.COMMAND, ids))
    limits = core.limits_for(pipeline.environment, production=production)
    return core.Plan(
        validation,
        pipeline.environment,
        production,
        limits,
        skip_invalid=getattr(args, "skip_invalid", False),
        resend_unknown=getattr(args, "resend_unknown", False),
        confirm_card_numbers=getattr(args, "confirm_card_numbers", False),
    )


def _pipeline(
    name: str,
    production: bool,
    args: argparse.Namespace,
    pool: core.TransportPool | None = None,
    journal: Any = None,
    conn: Connection | None = None,
) -> Pipeline:
    journal = journal if journal is not None else open_journal()
    holds: HoldRule | None = None
    if journal.shared:  # boundary: team mode only (the team sender sends its rows)
        from console.core.team.approvals.held import hold

        holds = hold
    return Pipeline(
        name,
        gateway=(
            conn.gateway
            if conn is not None and conn.settings
            # the environment's file read once a command, not once a chunk of ids
            else cache(lambda command: gateway_of(args, command))
        ),
        production=production,
        journal=journal,
        transport=pool or _new_transport,
        close_transport=pool is None,
        connect_timeout=conn.connect_timeout if conn else args.connect_timeout or 10.0,
        read_timeout=conn.read_timeout if conn else args.timeout or 60.0,
        holds=holds,
    )


def _new_transport() -> Transport:
    """An HTTP transport, its client loaded when a batch sends (checking a file needs none)."""
    from console.core.transport import Transport  # boundary: requests, only when a batch is sent

    return Transport()


def _close_journal(pipeline: Pipeline) -> None:
    """Close the journal this command opened (the team database's connections too)."""
    close = getattr(pipeline.journal, "close", None)
    if close is not None:
        close()


def run_validate(args: argparse.Namespace) -> int:
    if args.env or args.base_url:
        name, production, _saved = _environment(args)
        pipeline = _pipeline(name, production, args)
    else:  # the file alone: no journal to look ids up in
        production = False
        pipeline = Pipeline(
            "",
            gateway=lambda _command: "",
            production=False,
            journal=None,
            transport=_new_transport,
        )
    try:
        return _validate(args, pipeline, production)
    finally:
        _close_journal(pipeline)


def _validate(args: argparse.Namespace, pipeline: Pipeline, production: bool) -> int:
    plan = _plan(args, pipeline, production, stream=True)
    print_validation(plan, warnings=args.warnings)
    if pipeline.journal is None:
        print(
            "The journal was not checked: name the environment (--env NAME) to see the "
            "client_orderids it accepted before."
        )
    return EXIT_INVALID if plan.validation.error_rows or plan.validation.header_broken else EXIT_OK


def _connection(args: argparse.Namespace, command: str, env: str | None = None) -> Connection:
    return connection(args, command, env)


def run_batch(args: argparse.Namespace) -> int:
    if args.dry_run == "sandbox":
        return _sandbox_dry_run(args)
    name, _production, _saved = _environment(args)
    journal = open_journal(connections=args.concurrency)
    try:
        args.api_command = core.COMMAND
        conn = sender_connection(args, journal)
    except BaseException:
        journal.close()
        raise
    from console.core.transport import Timeouts, Transport  # sending: the HTTP client

    timeouts = Timeouts(connect=conn.connect_timeout, read=conn.read_timeout)
    pool = core.TransportPool(lambda: Transport(timeouts=timeouts, verify=conn.ca_bundle or True))
    pipeline = _pipeline(name, conn.production, args, pool, journal, conn)
    try:
        plan = _plan(args, pipeline, conn.production)
        out = core.check_results_path(args.file, args.results or core.results_path(args.file))
        if args.dry_run == "sign":
            report = core.sign_rows(pipeline, conn.settings, plan)
            print_report(report)
            print(f"Dry run: {report.count(core.SIGNED)} rows signed, nothing sent.")
            return batch_exit(report)  # rows the run would skip: as the run says
        return _send(args, pipeline, conn.settings, plan, out)
    finally:
        pool.close()
        _close_journal(pipeline)


def _confirm(args: argparse.Namespace, plan: core.Plan) -> core.BatchDecision:
    """The person's decision for the whole batch: one confirmation on production."""
    summary = plan.summary
    if not plan.production:
        return core.BatchDecision(resend_unknown=args.resend_unknown)
    for line in summary.lines():
        print(line, file=sys.stderr)
    if not args.yes and not sys.stdin.isatty():
        raise UsageError("this is a production environment: add --yes to send without asking")
    yes = args.yes or input("Send this batch? [y/N] ").strip().lower() in ("y", "yes")
    return core.BatchDecision(
        confirmed=summary if yes else None, resend_unknown=args.resend_unknown
    )


def _send(
    args: argparse.Namespace, pipeline: Pipeline, conn: dict[str, Any], plan: core.Plan, out: Path
) -> int:
    refusal = plan.refusal()
    if refusal is not None:
        raise refusal
    # boundary: team mode only (the approval rules, psycopg)
    from console.core.team.approvals.held_batch import hold_batch

    held = hold_batch(pipeline, conn, plan)
    approved = None
    if held is not None:  # team mode: the whole batch waits for a checker's approval
        from console.cli.team_batch import submit_or_approved

        found = submit_or_approved(args, held)
        if isinstance(found, int):
            return found
        approved = found
    # What this process holds by now (modules, the plan, the key) lives until it ends:
    # the cycle collector need not walk it again for every few hundred rows sent.
    gc.freeze()
    print_plan(plan)
    lines = core.result_lines(plan.validation, pipeline)
    results = core.ResultsFile(out, lines)
    results.flush()
    shown = [0.0]
    tty = sys.stderr.isatty()

    def on_row(result: core.RowResult, progress: core.Progress) -> None:
        results.update(result)
        if tty and progress.elapsed - shown[0] >= 1.0:
            shown[0] = progress.elapsed
            print(progress_line(progress), file=sys.stderr)

    try:
        if approved is not None:  # the approval is the batch's confirmation
            report = approved.run(concurrency=args.concurrency, on_row=on_row, leaving=results)
        else:
            report = core.BatchRunner(
                pipeline,
                conn,
                plan,
                _confirm(args, plan),
                concurrency=args.concurrency,
                on_row=on_row,
                leaving=results,
            ).run()
    finally:
        results.flush()
    print_report(report)
    print(f"Results: {out}")
    return batch_exit(report)


def _sandbox_dry_run(args: argparse.Namespace) -> int:
    """Send the whole file to a local sandbox started for it, journalled apart (a
    throwaway journal): nothing reaches a real gateway or the real journal."""
    # boundary: the sandbox and a throwaway SQLite journal, for this dry run only
    from console.core.history import History
    from console.sandbox import start_sandbox  # boundary: as above

    with (
        summarised_log("console.sandbox"),
        tempfile.TemporaryDirectory() as tmp,
        start_sandbox(port=0, callback_delay=0) as sandbox,
    ):
        demo = sandbox.demo
        conn = {
            "base_url": sandbox.base_url,
            "login": demo.login,
            "private_key": demo.private_key,
            "endpoint_id": demo.endpoint_id,
        }
        pool = core.TransportPool(_new_transport)
        with History(Path(tmp) / "dry-run.sqlite3") as journal:
            local = Connection(
                conn,
                connect_timeout=args.connect_timeout or 10.0,
                read_timeout=args.timeout or 60.0,
            )
            pipeline = _pipeline("dry run (local sandbox)", False, args, pool, journal, local)
            plan = _plan(args, pipeline, False)
            try:
                report = core.BatchRunner(
                    pipeline, conn, plan, core.BatchDecision(), concurrency=args.concurrency
                ).run()
            finally:
                pool.close()
    print_report(report)
    print("Dry run on a local sandbox: nothing reached a real gateway or the journal.")
    return batch_exit(report)


def run_status(args: argparse.Namespace) -> int:
    out = core.check_results_path(args.file, args.results or core.results_path(args.file))
    name, production, saved = _environment(args, core.results_environment(out))
    pipeline = _pipeline(name, production, args)
    try:
        return _status(args, pipeline, production, out, saved)
    finally:
        _close_journal(pipeline)


def _status(
    args: argparse.Namespace, pipeline: Pipeline, production: bool, out: Path, saved: str | None
) -> int:
    plan = _plan(args, pipeline, production)
    if args.check:
        # through the saved environment: --env's, else the one the results file names
        conn = _connection(args, "status", saved)

        def said(answer: core.StatusAnswer) -> None:
            words = answer.next_step or answer.status or answer.outcome.summary
            print(f"row {answer.row} {answer.client_orderid}: {words}")

        lines = core.check_results(pipeline, conn.settings, plan.validation, out, said)
    else:
        lines = core.result_lines(plan.validation, pipeline)
        core.write_results(out, lines)
    return print_standings(lines, out)


def print_standings(lines: dict[int, core.ResultLine], out: Path) -> int:
    """The rows that need attention with their reason, a count per final status, and the
    exit status: 7 a row's outcome is unknown, 3 a row was declined or rejected (not paid),
    18 rows are not final yet (processing, or not sent), else 0 (every row approved)."""
    counts = core.tally(lines.values())
    settled_or_waiting = core.NOT_FINAL | {"approved"}
    for line in lines.values():
        if core.standing(line) not in settled_or_waiting:
            where = core.standing(line)
            print(f"row {line.row} {line.client_orderid}: {where}: {line.error}".rstrip(" :"))
    text = ", ".join(f"{n} {k}" for k, n in counts.items())
    print(f"{len(lines)} rows: {text}" if lines else "0 rows")
    print(f"Results: {out}")
    if counts.get("unknown"):
        return EXIT_UNKNOWN
    if any(k not in settled_or_waiting for k in counts):  # declined, rejected, a chargeback
        return EXIT_REJECTED
    if any(counts.get(k) for k in core.NOT_FINAL):
        return EXIT_NOT_FINAL
    return EXIT_OK


def run_limits(args: argparse.Namespace) -> int:
    name, production, _saved = _environment(args)
    if args.clear:
        core.set_limits(name, None)
    elif args.max_rows is not None or args.max_total is not None:
        current = core.limits_for(name, production=production)
        total = args.max_total if args.max_total is not None else current.max_total
        rows = args.max_rows if args.max_rows is not None else current.max_rows
        core.set_limits(name, core.BatchLimits(rows, total))
    limits = core.limits_for(name, production=production)
    total_text = f"{limits.max_total} per currency" if limits.max_total is not None else "no limit"
    print(f"{name}: at most {limits.max_rows} rows per batch; total: {total_text}")
    return EXIT_OK
