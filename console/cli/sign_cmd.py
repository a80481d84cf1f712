"""``sign`` and ``validate``: a request's signature with every intermediate value, and the
contract's findings on its fields. Neither sends anything, so neither loads the sending
half of the console (HTTP library, journal, send pipeline): they start like a bare signer.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from console.cli import arg_types
from console.cli.failures import EXIT_INVALID
from console.cli.output import print_problems, print_refusal, print_signed
from console.cli.request_args import (
    add_connection_options,
    add_field_options,
    connection,
    read_fields,
)
from console.core.prepared import prepare
from console.core.spec import COMMANDS, validate
from console.core.spec.model import Severity


def register(sub: Any) -> None:
    names = sorted(COMMANDS)
    p_sign = sub.add_parser(
        "sign", help="sign a request and print every intermediate value (sends nothing)"
    )
    p_sign.add_argument("api_command", metavar="COMMAND", choices=names, help=", ".join(names))
    add_connection_options(p_sign)
    add_field_options(p_sign)
    p_sign.add_argument("--nonce", help="fixed oauth_nonce (for reproducible signatures)")
    p_sign.add_argument(
        "--timestamp",
        type=arg_types.whole(0, arg_types.LONG_MAX),
        help="fixed oauth_timestamp (Unix seconds)",
    )
    p_sign.add_argument("--no-validate", action="store_true", help="sign even with errors")
    p_sign.set_defaults(func=run_sign)

    p_val = sub.add_parser("validate", help="check fields against the contract's rules")
    p_val.add_argument("api_command", metavar="COMMAND", choices=names, help=", ".join(names))
    add_field_options(p_val)
    p_val.set_defaults(func=run_validate)


def run_validate(args: argparse.Namespace) -> int:
    from console.cli.schedule_output import print_schedule, schedule_for  # recurring only

    values = read_fields(args)
    problems = validate(args.api_command, values)
    schedule = schedule_for(args.api_command, values)
    if args.json:
        found = [p.to_json() for p in problems]
        out: Any = (
            found if schedule is None else {"problems": found, "schedule": schedule.to_json()}
        )
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print_problems(problems, ok_text="No problems: the fields follow the contract.")
        print_schedule(schedule)
    return EXIT_INVALID if any(p.severity is Severity.ERROR for p in problems) else 0


def run_sign(args: argparse.Namespace) -> int:
    values = read_fields(args)
    prepared = prepare(
        args.api_command,
        values,
        nonce=args.nonce,
        timestamp=args.timestamp,
        skip_validation=args.no_validate,
        **connection(args).settings,
    )
    if prepared.signed is None:
        print_refusal(prepared.problems, as_json=args.json)
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
