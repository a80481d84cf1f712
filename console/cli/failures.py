"""Exit statuses of the command line, and the one place that maps the core's error tree
(``console.core.errors``) to them.

Anything that is not a :class:`~console.core.errors.ConsoleError` is a programming error: it
is logged with its traceback (card data and secrets redacted) and reported as an internal
error, never as bad input.
"""

from __future__ import annotations

import argparse
import sys
import textwrap

from console.core.errors import (
    ConsoleError,
    InputError,
    JournalUnavailableError,
    NetworkError,
    SendRefusedError,
)

EXIT_OK = 0
EXIT_INVALID = 1  # invalid input: nothing was sent
EXIT_USAGE = 2  # usage error: an option, a file, a key, an environment
EXIT_REJECTED = 3  # the gateway said no (validation-error, error, declined)
EXIT_ACCESS_DENIED = 4  # HTTP 403
EXIT_GATEWAY_FAILED = 5  # HTTP 500 or an answer that could not be read
EXIT_NOT_SENT = 6  # never arrived: safe to send again
EXIT_UNKNOWN = 7  # may have arrived: check the status before resending
EXIT_ALREADY_ACCEPTED = 8  # double-payout guard: the gateway accepted or declined this id
EXIT_ASK_UNKNOWN = 9  # the last send's outcome is unknown: check the status first
EXIT_JOURNAL = 10  # the history journal is unavailable: nothing was sent
EXIT_NOT_CONFIRMED = 11  # a production send was not confirmed: nothing was sent
EXIT_SUBMITTED = 12  # team mode: submitted for approval, not sent
EXIT_APPROVAL_REFUSED = 13  # team mode: rejected by a checker, or refused by the database
EXIT_OVER_LIMIT = 14  # a batch over its environment's limits: nothing was sent
EXIT_IN_FLIGHT = 15  # double-payout guard: a send of this client_orderid is on its way now
EXIT_ROWS_SKIPPED = 16  # a batch ran, but rows were refused when their turn came: not sent
EXIT_AUDIT_BROKEN = 17  # team audit --verify: the audit trail was changed
EXIT_NOT_FINAL = 18  # nothing final yet: batch rows processing or not sent; a recurring
# profile whose first charge is not due yet (send status)
EXIT_UNREGISTERED_GATEWAY = 19  # team mode: a gateway the team has not registered
EXIT_INTERNAL = 70  # a bug (EX_SOFTWARE); the traceback is in the log file
# The other commands' statuses, kept here too so that one number has one meaning per command.
EXIT_FAILED = EXIT_INVALID  # history, keys: the action failed; nothing was changed
EXIT_NO_KEYRING = 3  # keys: no usable OS keyring
EXIT_ENV_NOT_CONFIRMED = 4  # env: a change to a production environment was not confirmed
EXIT_VALID = EXIT_OK  # verify: the signature is valid
EXIT_SIGNATURE_INVALID = EXIT_INVALID  # verify: it is not (the mistake is named), or valid only
# over the scheme that was not given
EXIT_UNREADABLE = EXIT_USAGE  # verify, import-curl: the input cannot be read

EXIT_TABLE = f"""exit status:
  {EXIT_OK}  accepted by the gateway
  {EXIT_INVALID}  invalid input: nothing was sent
  {EXIT_USAGE}  usage error (an option, a key file, the keyring, an environment)
  {EXIT_REJECTED}  rejected or declined by the gateway
  {EXIT_ACCESS_DENIED}  access denied (HTTP 403): check the key, the login and the URL
  {EXIT_GATEWAY_FAILED}  gateway failure (HTTP 500, or an answer that could not be read)
  {EXIT_NOT_SENT}  not sent: safe to send again
  {EXIT_UNKNOWN}  outcome unknown: check the status before resending
  {EXIT_ALREADY_ACCEPTED}  refused: this client_orderid was accepted (or declined) before: use
     a new one
  {EXIT_ASK_UNKNOWN}  refused: the last send's outcome is unknown (check the status, or
     pass --resend-unknown)
  {EXIT_JOURNAL} history journal unavailable: nothing was sent
  {EXIT_NOT_CONFIRMED} production send not confirmed: nothing was sent
  {EXIT_SUBMITTED} team mode: submitted for approval, not sent (yet)
  {EXIT_APPROVAL_REFUSED} team mode: rejected by a checker, or an approval step refused by the
     team database (self-approval, expired, changed, already decided): nothing was sent
  {EXIT_IN_FLIGHT} refused: a send of this client_orderid to this gateway is on its way right
     now (from this or another console): wait for its answer
  {EXIT_AUDIT_BROKEN} team audit --verify: the audit trail was changed (its chain is broken)
  {EXIT_NOT_FINAL} send status of a recurring profile whose first charge is not due yet: the
     gateway holds no charge for it until then (the schedule says when)
  {EXIT_UNREGISTERED_GATEWAY} team mode: the team has not registered this gateway (and it is not on
     this computer): nothing was sent or submitted; an admin registers it (team gateway add)
  {EXIT_INTERNAL} internal error: a bug, the details are in the log file
"""


def exit_table(*lines: tuple[int, str]) -> str:
    """The exit statuses one command can end with, for its ``--help``."""

    return "exit status:\n" + "".join(
        textwrap.fill(text, 90, initial_indent=f"  {code:<2} ", subsequent_indent="     ") + "\n"
        for code, text in lines
    )


_DONE = (EXIT_OK, "done")
_TEAM_USAGE = (
    EXIT_USAGE,
    "usage error (an option, a value out of range, no team database named, a DSN with a "
    "password in it): nothing changed",
)
_TEAM_DATABASE = (EXIT_JOURNAL, "the team database cannot be reached or used: nothing changed")
_INTERNAL = (EXIT_INTERNAL, "internal error: a bug, the details are in the log file")
# team init, add-user, policy, reject, callback-secret: steps the database may refuse
TEAM_STEP_EXIT_TABLE = exit_table(
    _DONE,
    _TEAM_USAGE,
    _TEAM_DATABASE,
    (
        EXIT_APPROVAL_REFUSED,
        "refused by the team database (not your role, your own submission, already "
        "decided): nothing changed; the refusal is in the audit trail",
    ),
    _INTERNAL,
)
TEAM_READ_EXIT_TABLE = exit_table(_DONE, _TEAM_USAGE, _TEAM_DATABASE, _INTERNAL)  # pending...
TEAM_AUDIT_EXIT_TABLE = exit_table(
    _DONE,
    _TEAM_USAGE,
    _TEAM_DATABASE,
    (
        EXIT_AUDIT_BROKEN,
        "--verify: the audit trail was changed (its chain is broken, a signature or the "
        "audit key does not match, it does not extend the head this console verified, a "
        "journal row has no audit entry); audit-key sign: nothing signed, the trail changed",
    ),
    _INTERNAL,
)


def exit_code(exc: ConsoleError) -> int:
    """The exit status for an error a person can meet."""
    # boundary: only when such a refusal is reported (sign and validate load no batch)
    from console.core.batch import BatchFileError, BatchRefusedError, Refused

    # boundary: as above (sign and validate load no pipeline)
    from console.core.pipeline import Refusal, RefusedError

    if isinstance(exc, BatchFileError):  # the file named cannot be read as a batch at all
        return EXIT_USAGE
    if isinstance(exc, BatchRefusedError):
        return {
            Refused.INVALID: EXIT_INVALID,
            Refused.UNKNOWN_OUTCOME: EXIT_ASK_UNKNOWN,
            Refused.OVER_LIMIT: EXIT_OVER_LIMIT,
            Refused.NOT_CONFIRMED: EXIT_NOT_CONFIRMED,
        }[exc.code]
    if isinstance(exc, RefusedError):
        return {
            Refusal.INVALID: EXIT_INVALID,
            Refusal.ACCEPTED_BEFORE: EXIT_ALREADY_ACCEPTED,
            Refusal.DECLINED_BEFORE: EXIT_ALREADY_ACCEPTED,
            Refusal.IN_FLIGHT: EXIT_IN_FLIGHT,
            Refusal.UNKNOWN_OUTCOME: EXIT_ASK_UNKNOWN,
            Refusal.NOT_CONFIRMED: EXIT_NOT_CONFIRMED,
            Refusal.PLAIN_HTTP: EXIT_USAGE,
            Refusal.CARD_NUMBER: EXIT_INVALID,
            Refusal.NOT_SUBMITTED: EXIT_APPROVAL_REFUSED,
            Refusal.UNREGISTERED_GATEWAY: EXIT_UNREGISTERED_GATEWAY,
        }[exc.code]
    # boundary: team mode's errors, only when one is reported
    from console.core.team.errors import (
        ApprovalPendingError,
        ApprovalRefusedError,
        AuditTamperedError,
        TeamPermissionError,
        TeamSetupError,
        UnregisteredGatewayError,
    )

    if isinstance(exc, AuditTamperedError):
        return EXIT_AUDIT_BROKEN
    if isinstance(exc, UnregisteredGatewayError):
        return EXIT_UNREGISTERED_GATEWAY
    if isinstance(exc, ApprovalPendingError):
        return EXIT_SUBMITTED
    if isinstance(exc, ApprovalRefusedError | TeamPermissionError):
        return EXIT_APPROVAL_REFUSED
    if isinstance(exc, TeamSetupError):
        return EXIT_USAGE
    if isinstance(exc, JournalUnavailableError):
        return EXIT_JOURNAL
    if isinstance(exc, NetworkError):
        return EXIT_NOT_SENT if exc.safe_to_resend else EXIT_UNKNOWN
    if isinstance(exc, SendRefusedError):
        return EXIT_NOT_CONFIRMED
    if isinstance(exc, InputError):
        return EXIT_USAGE if _is_usage(exc) else EXIT_INVALID
    return EXIT_USAGE  # a key, the keyring or an environment: the invocation must change


def _is_usage(exc: InputError) -> bool:
    # boundary: only for a usage error (verify loads no connection options)
    from console.cli.request_args import UsageError

    return isinstance(exc, UsageError)


def report(args: argparse.Namespace, exc: ConsoleError) -> int:
    """Say what went wrong in the person's words; return the exit status."""
    print(f"gateway-console {getattr(args, 'command', '')}: {exc.message}", file=sys.stderr)
    if isinstance(exc, JournalUnavailableError) and exc.path:
        print(f"  journal file: {exc.path}", file=sys.stderr)
    return exit_code(exc)


def internal_error(args: argparse.Namespace, exc: BaseException) -> int:
    """A programming error: log the traceback, say so plainly, never blame the input."""
    import logging  # only here: a command that ends well never loads it

    from console.core import logs  # boundary: the log file, only for an internal error

    where = logs.configure(startup_line=False)
    logging.getLogger("console.cli").error(
        "internal error in %s", getattr(args, "command", "?"), exc_info=exc
    )
    seen = f" The details are in {where}." if where else ""
    print(
        f"gateway-console {getattr(args, 'command', '')}: internal error "
        f"({type(exc).__name__}). This is a bug in the console, not a problem with your "
        f"input.{seen}",
        file=sys.stderr,
    )
    return EXIT_INTERNAL
