"""``team``: set up and run four-eyes approval on the team's PostgreSQL database.

``team init --dsn URL`` creates (or migrates) the schema, the group roles and their rules,
and remembers the DSN in this profile; the other commands use that DSN (or ``--dsn``, or
``GATEWAY_CONSOLE_TEAM_DSN``). Passwords come from PGPASSWORD, ~/.pgpass or the keyring
(``team password``), never from the command line.
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import json
import sys
from typing import TYPE_CHECKING, Any

import keyring

from console.cli import team_gateway_cmd
from console.cli.failures import (
    EXIT_OK,
    EXIT_TABLE,
    TEAM_AUDIT_EXIT_TABLE,
    TEAM_READ_EXIT_TABLE,
    TEAM_STEP_EXIT_TABLE,
)
from console.cli.parser import RawDescriptionHelpFormatter
from console.cli.request_args import Connection, UsageError, add_connection_options, connection
from console.cli.team_audit_cmd import add_key_options, run_audit_key, run_verify
from console.cli.team_db import team_dsn, team_journal
from console.cli.team_sender import add_options as add_sender_options
from console.cli.team_sender import run_sender as run_team_sender
from console.core.team.audit.state import AuditState, pin_on_first_use
from console.core.team.inputs import reason, since, submission_id
from console.core.team.storage.dsn import (
    KEYRING_SERVICE,
    connect,
    keyring_user,
    parse_dsn,
    save_dsn,
)
from console.core.team.storage.schema import initialise, name_admin
from console.core.team.storage.schema_sql import GATEWAYS_SCHEMA

if TYPE_CHECKING:
    from console.core.team.approvals.submissions import Submission
    from console.core.team.storage.journal import TeamJournal


def register(sub: Any) -> None:
    p = sub.add_parser("team", help="team mode: shared journal, four-eyes approval, audit")
    team = p.add_subparsers(dest="team_command", metavar="ACTION", required=True)

    def action(
        name: str, help: str, func: Any, exits: str = TEAM_STEP_EXIT_TABLE
    ) -> argparse.ArgumentParser:
        """One team action; ``exits``: its own exit statuses (send's for those that send)."""
        q: argparse.ArgumentParser = team.add_parser(
            name, help=help, epilog=exits, formatter_class=RawDescriptionHelpFormatter
        )
        q.add_argument("--dsn", help="team database (default: the one `team init` saved)")
        q.set_defaults(func=func)
        return q

    q = action("init", "create or update the team database's schema, roles and rules", run_init)
    q.add_argument("--no-save", action="store_true", help="do not remember the DSN here")
    q.add_argument(
        "--admin",
        metavar="NAME",
        help="make this login role a team admin (default, while the team has no admin: the "
        "role running init, so that it can add the team)",
    )
    q = action("add-user", "make a PostgreSQL login role a maker, checker or admin", run_add_user)
    q.add_argument("name")
    # the core checks the role and the mode (one rule), and says which values it takes
    q.add_argument("--role", required=True, help="maker, checker, admin or sender")
    team_gateway_cmd.register(action)
    q = action("pending", "submissions waiting for a checker", run_pending, TEAM_READ_EXIT_TABLE)
    q.add_argument("--json", action="store_true")
    q = action(
        "approve",
        "approve a submission (and send it when it has no card data)",
        run_approve,
        EXIT_TABLE,
    )
    q.add_argument("id")
    q.add_argument("--no-send", action="store_true", help="approve only; send it later")
    _send_options(q)
    q = action(
        "send", "send an approved submission without card data", run_send_approved, EXIT_TABLE
    )
    q.add_argument("id")
    _send_options(q)
    q = action("reject", "reject a submission with a reason", run_reject)
    q.add_argument("id")
    q.add_argument("--reason", required=True)
    q = action("audit", "the audit trail", run_audit, TEAM_AUDIT_EXIT_TABLE)
    q.add_argument("--since", help="ISO date/time, or a duration ago: 30m, 12h, 7d")
    q.add_argument("--json", action="store_true")
    q.add_argument(
        "--verify",
        action="store_true",
        help="check the whole trail (its hash chain, its signatures, that it extends the head "
        "this console verified before, every journal row's entry); name the first problem",
    )
    q.add_argument("--expect", metavar="SEQ:HASH", help="with --verify: a head noted earlier")
    add_key_options(
        action(
            "audit-key",
            "create the team's audit key (admin), or sign what is new in the trail with it",
            lambda args: run_audit_key(args, team_dsn(args)),
            TEAM_AUDIT_EXIT_TABLE,
        )
    )
    q = action(
        "sender",
        "run the team sender: it alone holds the key and sends what is submitted to it",
        run_sender,
    )
    add_sender_options(q)
    action(
        "callback-secret",
        "let the database verify an environment's callbacks (admin; asks for the secret)",
        run_callback_secret,
    ).add_argument("environment")
    action(
        "password",
        "keep your team database password in the OS keyring",
        run_password,
        TEAM_READ_EXIT_TABLE,
    )


def _send_options(q: argparse.ArgumentParser) -> None:
    add_connection_options(q)
    q.add_argument("--timeout", type=float, help="read timeout in seconds")
    q.add_argument("--connect-timeout", type=float, help="seconds")
    q.add_argument("--ca-bundle", help="CA bundle file for TLS verification")
    q.add_argument("--json", action="store_true", help="machine-readable output")
    q.add_argument("--reveal", action="store_true", help=argparse.SUPPRESS)


def run_init(args: argparse.Namespace) -> int:
    dsn = team_dsn(args)
    with connect(dsn) as conn:
        before, now = initialise(conn)
        admin = name_admin(conn, args.admin)
        pinned = pin_on_first_use(conn, AuditState.for_dsn(dsn))
    if not args.no_save:
        save_dsn(dsn)
    did = "already at" if before == now else f"updated from {before} to" if before else "created at"
    print(f"Team database {did} schema {now}.")
    if before < GATEWAYS_SCHEMA <= now:
        print(gateways_news(dsn, upgraded=before > 0))
    if admin is not None:
        print(
            f"{admin} is a team admin: adds users (team add-user) and sets approval policies "
            "(team policy)."
        )
    if pinned is not None:
        print(
            f"Pinned the team's audit key {pinned}: compare it with the fingerprint your "
            "admin published."
        )
    return EXIT_OK


def gateways_news(dsn: str, *, upgraded: bool) -> str:
    """What schema 6 changes for the team: its gateways are registered, and policies are
    theirs (an upgrade names the environment policies it kept aside)."""

    said = (
        "Consoles of the team send only to gateways the team registered (and to this "
        "computer): register each with `gateway-console team gateway add NAME --base-url URL "
        "--login LOGIN --endpoint-id N`; its approval policy is `team policy NAME` (a new "
        "gateway holds every payout back until then)."
    )
    if not upgraded:
        return said
    with connect(dsn) as conn:
        kept = [
            f"{env} ({mode})"
            for env, mode in conn.execute(
                "SELECT environment, mode FROM gateway.policies ORDER BY 1"
            )
        ]
    if kept:
        said += (
            " The policies kept per environment name before are not used any more: "
            f"{', '.join(kept)}. Until their gateways are registered nothing is sent to them "
            "(nothing held before goes out unheld); a gateway registered under one of these "
            "names takes its policy."
        )
    return said


def run_add_user(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.approval import Approvals

    with team_journal(args) as journal:
        change = Approvals(journal).add_user(args.name, args.role)
    print(change.describe())
    if change.before is None:
        print(
            f"Set their password with psql's \\password {args.name} (it never goes on a "
            "command line)."
        )
    return EXIT_OK


def _row(s: Submission) -> dict[str, Any]:
    return {
        "id": s.id,
        "environment": s.environment,
        "gateway": s.gateway_name,
        "command": s.command,
        "client_orderid": s.client_orderid,
        "amount": " ".join(x for x in (s.amount, s.currency) if x),
        "receiver": s.receiver,
        "maker": s.maker,
        "created": s.created.isoformat(),
        "expires": s.expires.isoformat(),
        "card_data": s.card_data,
        "state": s.state,
        "batch": {"rows": s.batch_rows, "summary": s.batch_lines} if s.is_batch else None,
    }


def run_pending(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.approval import Approvals

    with team_journal(args) as journal:
        waiting = Approvals(journal).pending_with_rejections()
    if args.json:
        rows = [_row(s) | {"rejected_before": again or None} for s, again in waiting]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not waiting:
        print("Nothing waits for approval.")
    for s, again in waiting:
        card = (
            (
                " (card data: sealed to the team sender)"
                if s.via_sender
                else " (card data: sent by the maker's console)"
            )
            if s.card_data
            else ""
        )
        expires = f"expires {s.expires.astimezone():%Y-%m-%d %H:%M}"
        where = f"{s.environment} ({s.gateway_name})" if s.gateway_name else s.environment
        if s.is_batch:
            print(f"#{s.id}  {where}  batch  by {s.maker}  {expires}{card}")
            for line in s.batch_lines:
                print(f"    {line}")
        else:
            print(
                f"#{s.id}  {where}  {s.command}  {s.client_orderid or '-'}  "
                f"{_row(s)['amount'] or '-'}  {s.receiver or '-'}  by {s.maker}  {expires}{card}"
            )
        if again:
            print(f"    ! {again}")
    return EXIT_OK


def run_approve(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.approval import Approvals

    sid = submission_id(args.id)
    with team_journal(args) as journal:
        approvals = Approvals(journal)
        decided = approvals.approve(sid)
        print(f"#{decided.id} approved by {journal.user}.", file=sys.stderr)
        if decided.is_batch:
            print(
                f"It is a batch: running its file again sends every row once "
                f"(`gateway-console batch run {decided.client_orderid} ...`)"
                + (
                    ", from the maker's console, which holds its card data."
                    if decided.card_data
                    else "; if its maker's console waits for it, it runs there."
                ),
                file=sys.stderr,
            )
            return EXIT_OK
        if decided.via_sender:
            print("The team sender, which holds the key, sends it now.", file=sys.stderr)
            return EXIT_OK
        if decided.card_data:
            print(
                "It carries card data, which only the maker's console holds: it is sent "
                "from there.",
                file=sys.stderr,
            )
            return EXIT_OK
        if args.no_send:
            return EXIT_OK
        try:
            conn = _connection(args, decided)
        except UsageError as exc:  # approved all the same: someone with the key sends it
            print(
                f"Not sent from here ({exc.message}). Who can send it: the console of its "
                f"maker, {decided.maker} (a window that submitted it sends it by itself), or "
                f"any console of the team with the environment {decided.environment!r} and its "
                f"key: `gateway-console team send {decided.id}` there (or pass --base-url, "
                "--login, --endpoint-id and --key-file).",
                file=sys.stderr,
            )
            return EXIT_OK
        return _send(args, journal, decided, conn)


def run_send_approved(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.approval import Approvals

    sid = submission_id(args.id)
    with team_journal(args) as journal:
        found = Approvals(journal).submission(sid)
        if found.is_batch:
            raise UsageError(
                f"#{found.id} is a batch: it is sent by running its file "
                f"(`gateway-console batch run {found.client_orderid} ...`)"
            )
        if found.via_sender:
            raise UsageError(f"#{found.id} was submitted to the team sender, which alone sends it")
        if found.card_data:
            raise UsageError(
                f"#{found.id} carries card data, which only its maker's console holds: it is "
                "sent from there"
            )
        return _send(args, journal, found, _connection(args, found))


def _connection(args: argparse.Namespace, s: Submission) -> Connection:
    """Where and as whom to send ``s`` from here: the options, else the environment of the
    same name in this profile."""
    saved = s.environment if not args.env and not args.base_url else None
    return connection(args, s.command, saved)


def _send(args: argparse.Namespace, journal: TeamJournal, s: Submission, conn: Connection) -> int:
    """Prepare the approved fields again here (this console's key signs) and send once."""
    # boundary: sending (the pipeline, requests), only for team send
    from console.cli.send_cmd import report_sent, send_pipeline
    from console.core.prepared import prepare  # boundary: as above
    from console.core.team.approvals.approval import Approvals  # boundary: as above

    pipeline = send_pipeline(args, conn, journal)
    pipeline.environment = s.environment
    prepared = prepare(s.command, s.values, **conn.settings)
    return report_sent(args, Approvals(journal).send_approved(pipeline, s.id, prepared))


def run_reject(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.approval import Approvals

    sid, why = submission_id(args.id), reason(args.reason)
    with team_journal(args) as journal:
        decided = Approvals(journal).reject(sid, why)
        print(f"#{decided.id} rejected by {journal.user}: {decided.reason}")
    return EXIT_OK


def run_audit(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.approval import AUDIT_PAGE, Approvals

    if args.verify:
        return run_verify(args, team_dsn(args))
    when = since(args.since)
    with team_journal(args) as journal:
        entries = Approvals(journal).audit(when, AUDIT_PAGE + 1)
    if len(entries) > AUDIT_PAGE:  # a page at a time, and never cut silently
        entries = entries[:AUDIT_PAGE]
        last = entries[-1].at.astimezone().isoformat()
        print(
            f"The first {AUDIT_PAGE} entries are shown; the trail goes on: --since {last}",
            file=sys.stderr,
        )
    if args.json:
        rows = [{**dataclasses.asdict(e), "at": e.at.isoformat()} for e in entries]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_OK
    for e in entries:
        ref = f" #{e.submission_id}" if e.submission_id else ""
        ref += f" row {e.request_id}" if e.request_id else ""
        parts = (
            f"[{e.id}]",
            f"{e.at.astimezone():%Y-%m-%d %H:%M:%S}",
            f"{e.actor} ({e.role})",
            f"{e.action}{ref}",
            e.environment or "",
            e.detail,
        )
        print("  ".join(p for p in parts if p))
    return EXIT_OK


def run_sender(args: argparse.Namespace) -> int:
    return run_team_sender(args, team_dsn(args))


def run_callback_secret(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.approval import Approvals

    if not sys.stdin.isatty():
        raise UsageError("team callback-secret asks for the merchant control secret on a terminal")
    secret = getpass.getpass(f"Merchant control secret of {args.environment}: ")
    if not secret.strip():
        raise UsageError("no secret given: nothing was stored")
    with team_journal(args) as journal:
        Approvals(journal).set_callback_secret(args.environment, secret)
    print(
        f"The team database now verifies {args.environment}'s callbacks before they settle "
        "another person's payout."
    )
    return EXIT_OK


def run_password(args: argparse.Namespace) -> int:
    entry = keyring_user(parse_dsn(team_dsn(args)))
    if not sys.stdin.isatty():
        raise UsageError("team password asks for the password on a terminal")
    secret = getpass.getpass(f"Password for {entry}: ")
    if not secret:
        raise UsageError("no password given: nothing was stored")
    keyring.set_password(KEYRING_SERVICE, entry, secret)
    print(f"Stored in the keyring for {entry}.")
    return EXIT_OK
