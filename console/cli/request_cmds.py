"""``sign``, ``validate`` and ``send``: the request commands of the command line.

Exit statuses of ``send`` (also printed by ``gateway-console send --help``):
0 accepted, 1 invalid input (nothing sent), 2 usage error, 3 rejected or declined by the
gateway, 4 access denied (403), 5 gateway failure (500 or unreadable answer),
6 not sent (safe to send again), 7 outcome unknown (check the status first).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sqlite3
import sys
from typing import Any
from urllib.parse import urlsplit

from console.cli.output import (
    masked_answer_fields,
    masked_answer_text,
    print_outcome,
    print_problems,
    print_signed,
)
from console.cli.request_args import (
    UsageError,
    add_connection_options,
    add_field_options,
    connection,
    read_fields,
)
from console.core.client import (
    Client,
    LoginInBodyError,
    Outcome,
    PreparedRequest,
    Result,
    prepare,
)
from console.core.history import History
from console.core.history.rows import amount, receiver
from console.core.masking import mask_params
from console.core.spec import COMMANDS, validate
from console.core.spec.model import Severity
from console.core.transport import Timeouts, Transport

EXIT_BY_RESULT = {
    Result.ACCEPTED: 0,
    Result.REJECTED: 3,
    Result.ACCESS_DENIED: 4,
    Result.GATEWAY_FAILED: 5,
    Result.NOT_SENT: 6,
    Result.UNKNOWN: 7,
}
EXIT_INVALID = 1
EXIT_USAGE = 2

_SEND_EPILOG = """exit status:
  0 accepted by the gateway        4 access denied (HTTP 403)
  1 invalid input, nothing sent    5 gateway failure (HTTP 500 or unreadable answer)
  2 usage error                    6 not sent: safe to send again
  3 rejected or declined           7 outcome unknown: check the status before resending
"""


def register(sub: Any) -> None:
    names = sorted(COMMANDS)
    p_sign = sub.add_parser(
        "sign", help="sign a request and print every intermediate value (sends nothing)"
    )
    p_sign.add_argument("api_command", metavar="COMMAND", choices=names, help=", ".join(names))
    add_connection_options(p_sign)
    add_field_options(p_sign)
    p_sign.add_argument("--nonce", help="fixed oauth_nonce (for reproducible signatures)")
    p_sign.add_argument("--timestamp", type=int, help="fixed oauth_timestamp (Unix seconds)")
    p_sign.add_argument("--no-validate", action="store_true", help="sign even with errors")
    p_sign.set_defaults(func=run_sign)

    p_val = sub.add_parser("validate", help="check fields against the contract's rules")
    p_val.add_argument("api_command", metavar="COMMAND", choices=names, help=", ".join(names))
    add_field_options(p_val)
    p_val.set_defaults(func=run_validate)

    p_send = sub.add_parser(
        "send",
        help="validate, sign and send a request; print the decoded answer",
        epilog=_SEND_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_send.add_argument("api_command", metavar="COMMAND", choices=names, help=", ".join(names))
    add_connection_options(p_send)
    add_field_options(p_send)
    p_send.add_argument(
        "--timeout", type=float, help="read timeout in seconds (default: environment's, or 60)"
    )
    p_send.add_argument(
        "--connect-timeout", type=float, help="seconds (default: environment's, or 10)"
    )
    p_send.add_argument("--ca-bundle", help="CA bundle file for TLS verification")
    p_send.add_argument("--no-validate", action="store_true", help="send even with errors")
    p_send.add_argument(
        "--yes", action="store_true", help="send to a production environment without asking"
    )
    p_send.add_argument(
        "--no-history", action="store_true", help="do not write this send to the history journal"
    )
    p_send.set_defaults(func=run_send)


def _guarded(func: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args))
        except (UsageError, LoginInBodyError, ValueError, KeyError) as exc:
            msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
            print(f"gateway-console {args.command}: {msg}", file=sys.stderr)
            return EXIT_USAGE

    return run


@_guarded
def run_validate(args: argparse.Namespace) -> int:
    problems = validate(args.api_command, read_fields(args))
    if args.json:
        print(json.dumps([p.to_json() for p in problems], indent=2, ensure_ascii=False))
    else:
        print_problems(problems, ok_text="No problems: the fields follow the contract.")
    return EXIT_INVALID if any(p.severity is Severity.ERROR for p in problems) else 0


@_guarded
def run_sign(args: argparse.Namespace) -> int:
    values = read_fields(args)
    prepared = prepare(
        args.api_command,
        values,
        nonce=args.nonce,
        timestamp=args.timestamp,
        skip_validation=args.no_validate,
        **connection(args),
    )
    if prepared.signed is None:
        _report_refusal(args, prepared.problems)
        return EXIT_INVALID
    shown = prepared.signed if args.reveal else prepared.signed.masked()
    if args.json:
        out = shown.to_json()
        out["problems"] = [p.to_json() for p in prepared.problems]
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print_signed(shown, revealed=args.reveal)
        print_problems(prepared.problems, ok_text="")
    return 0


@_guarded
def run_send(args: argparse.Namespace) -> int:
    values = read_fields(args)
    prepared = prepare(
        args.api_command, values, skip_validation=args.no_validate, **connection(args)
    )
    if prepared.signed is None:
        _report_refusal(args, prepared.problems)
        return EXIT_INVALID
    if getattr(args, "env_production", False) and not _confirm_production(args, prepared):
        print("Nothing was sent.", file=sys.stderr)
        return EXIT_USAGE
    transport = Transport(
        timeouts=Timeouts(connect=args.connect_timeout or 10.0, read=args.timeout or 60.0),
        verify=args.ca_bundle or True,
    )
    history = _open_history(args)
    environment = args.env or f"command line ({urlsplit(prepared.url).netloc})"
    hooks = None
    if history is not None:
        hooks = history.journal(
            environment,
            connect_timeout=args.connect_timeout or 10.0,
            read_timeout=args.timeout or 60.0,
        )
    try:
        outcome = Client(transport, hooks).send(prepared)
        if history is not None:
            _record_status(history, environment, outcome)
    finally:
        transport.close()
        if history is not None:
            history.close()
    secrets = [] if args.reveal else list(prepared.params)
    if args.json:
        print(json.dumps(outcome_json(outcome, secrets), indent=2, ensure_ascii=False))
    else:
        print_outcome(outcome, secrets)
    return EXIT_BY_RESULT[outcome.result]


def _confirm_production(args: argparse.Namespace, prepared: PreparedRequest) -> bool:
    """Production sends move real money: say so, and ask unless --yes was given."""
    who, _ = receiver(prepared.params)
    order = prepared.value("client_orderid") or prepared.value("client-orderid")
    what = " ".join(
        part
        for part in (
            prepared.command,
            amount(prepared.params) or "",
            prepared.value("currency") or "",
            f"to {who}" if who else "",
            f"client_orderid {order}",
        )
        if part
    )
    print(f"PRODUCTION environment {args.env} (real money): {what}", file=sys.stderr)
    if args.yes:
        return True
    if not sys.stdin.isatty():
        raise UsageError("this is a production environment: add --yes to send without asking")
    answer = input("Send it? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def _record_status(history: History, environment: str, outcome: Outcome) -> None:
    """A status answer sets the final status of the order's own rows in the history."""
    response = outcome.response
    prepared = outcome.prepared
    if prepared.command != "status" or response is None or outcome.result is not Result.ACCEPTED:
        return
    client_orderid, status = prepared.value("client_orderid"), response.status
    if client_orderid and status:
        history.set_final_status(
            environment,
            client_orderid,
            status,
            orderid=response.get("gateway-order-id") or prepared.value("orderid"),
            source="status",
        )


def _open_history(args: argparse.Namespace) -> History | None:
    """The journal every send is written to (pending before it leaves), unless --no-history."""
    if args.no_history:
        return None
    try:
        return History()
    except (OSError, sqlite3.Error) as exc:
        raise UsageError(
            f"cannot open the history journal ({exc}); nothing was sent. "
            "Fix the data folder's permissions, or pass --no-history."
        ) from exc


def outcome_json(outcome: Outcome, secrets: list[tuple[str, str]]) -> dict[str, Any]:
    """The ``send --json`` object: the decoded answer or the transport failure."""
    prepared = outcome.prepared
    base: dict[str, Any] = {
        "result": str(outcome.result),
        "summary": masked_answer_text(outcome.summary, secrets),
        "url": prepared.url,
        "params": [
            list(p) for p in (prepared.params if not secrets else mask_params(prepared.params))
        ],
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
            error=masked_answer_text(outcome.error.message, secrets),
        )
        return base
    response = outcome.response
    message = response.error_message
    shown = dataclasses.replace(
        response,
        fields=tuple(masked_answer_fields(response.fields, secrets)),
        error_message=masked_answer_text(message, secrets) if message else message,
    )
    decoded = shown.to_json()
    decoded["raw"] = masked_answer_text(str(decoded.get("raw", "")), secrets)
    return {**decoded, **base}


def _report_refusal(args: argparse.Namespace, problems: Any) -> None:
    if args.json:
        print(
            json.dumps(
                {"result": "invalid", "problems": [p.to_json() for p in problems]},
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        print("Not signed: fix these first (or pass --no-validate).", file=sys.stderr)
        print_problems(problems, ok_text="", file=sys.stderr)
