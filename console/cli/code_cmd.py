"""``gateway-console code LANG COMMAND``: the request as a program that signs it when it runs.

Takes the same fields and connection options as ``sign`` and prints a small, complete
program (Python, Node, PHP, Java or Go) that builds the request, signs it with a fresh nonce
and timestamp, sends it and prints the answer. The program holds no key and no card data: it
reads the key's PEM text from $GATEWAY_PRIVATE_KEY, else the file named by
$GATEWAY_PRIVATE_KEY_FILE, else the --key-file path given here (its content is never read),
and card fields from environment variables named after them (CREDIT_CARD_NUMBER, CVV2).

Exit statuses: 0 written, 1 the fields break the contract (nothing written; --no-validate
writes it anyway), 2 a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from console.cli.failures import EXIT_INVALID, EXIT_OK
from console.cli.output import print_problems
from console.cli.output_files import writing
from console.cli.parser import RawDescriptionHelpFormatter
from console.cli.request_args import (
    UsageError,
    add_connection_options,
    add_field_options,
    address_settings,
    read_fields,
)
from console.core.atomic import write_text_atomic
from console.core.exports import LANGUAGES, file_name, program_for, render_code
from console.core.spec import COMMANDS


def register(sub: Any) -> None:
    names = sorted(COMMANDS)
    p = sub.add_parser(
        "code",
        help="print the request as a program that signs it when it runs (no key inside)",
        description=__doc__,
        formatter_class=RawDescriptionHelpFormatter,
    )
    p.add_argument("language", metavar="LANG", choices=list(LANGUAGES), help=", ".join(LANGUAGES))
    p.add_argument("api_command", metavar="COMMAND", choices=names, help=", ".join(names))
    add_connection_options(p)
    add_field_options(p)
    p.add_argument("--no-validate", action="store_true", help="write it even with errors")
    p.add_argument(
        "--output",
        "-o",
        type=Path,
        metavar="FILE",
        help="write the program to FILE (default: standard output)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.key_passphrase_env:
        raise UsageError(
            "--key-passphrase-env: the generated program reads an unencrypted key; decrypt a "
            "copy for it (openssl pkey -in key.pem -out plain.pem) and keep that file private"
        )
    if args.reveal:
        raise UsageError(
            "--reveal: the program never holds card data; it reads it from the "
            "environment when it runs"
        )
    settings = address_settings(args, args.api_command)
    missing = [
        opt
        for opt, key in (("--base-url", "base_url"), ("--login", "login"))
        if not settings.get(key)
    ]
    if not (settings.get("endpoint_id") or settings.get("endpoint_group_id")):
        missing.append("--endpoint-id or --group-id")
    if missing:
        raise UsageError("missing " + ", ".join(missing))
    program, problems = program_for(
        args.api_command,
        read_fields(args),
        key_file=str(args.key_file) if args.key_file else None,
        skip_validation=args.no_validate,
        **settings,
    )
    if program is None:
        print("No program written: fix these first (or pass --no-validate).", file=sys.stderr)
        print_problems(problems, ok_text="", file=sys.stderr)
        return EXIT_INVALID
    print_problems(problems, ok_text="", file=sys.stderr)
    source = render_code(args.language, program)
    if args.json:
        out = {
            "language": args.language,
            "file_name": file_name(args.language),
            "variables": list(program.variables),
            "problems": [p.to_json() for p in problems],
            "source": source,
        }
        source = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(source)
    else:
        with writing("--output", args.output):
            write_text_atomic(args.output, source)
        print(f"wrote {args.output} (run it as {file_name(args.language)})", file=sys.stderr)
    if program.variables:
        print(
            f"note: the program reads {', '.join(program.variables)} from the environment",
            file=sys.stderr,
        )
    return EXIT_OK
