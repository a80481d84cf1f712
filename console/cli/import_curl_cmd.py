"""``gateway-console import-curl``: a curl line as the matching command's fields.

Reads the curl line from ``--curl TEXT``, FILE or standard input, finds the command by the
URL's path (an environment's own path templates with ``--env``), and prints the command,
base URL, endpoint or group id, login and fields, and what could not be carried over; then a
``gateway-console send`` line that sends the same request signed by the console, or, when
the console would send another request (a JSON body, a field twice, a value split at an
unencoded &...), why there is none. Card data is masked unless ``--reveal``.

Exit statuses: 0 read, 2 the line cannot be read or matches no command.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any

from console.cli.failures import EXIT_OK, EXIT_UNREADABLE
from console.cli.parser import RawDescriptionHelpFormatter
from console.cli.verify_cmd import UnreadableInputError, input_text
from console.core.errors import EnvironmentStoreError
from console.core.masking import mask_params
from console.core.siglab.capture import CaptureError
from console.core.siglab.curl_import import CurlImport, import_curl


def register(sub: Any) -> None:
    p = sub.add_parser(
        "import-curl",
        help="read a curl command line into the matching command's fields",
        description=__doc__,
        formatter_class=RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", help="a file with the curl line; - or none: stdin")
    p.add_argument("--curl", metavar="TEXT", help="the curl command line")
    p.add_argument("--env", metavar="NAME", help="match the environment's path templates")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--reveal", action="store_true", help="show card data in full")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        result = import_curl(input_text(args), _templates(args.env))
    except (UnreadableInputError, CaptureError, LookupError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.json:
        print(json.dumps(result.to_json(reveal=args.reveal), indent=2))
    else:
        _print(result, reveal=args.reveal)
    return EXIT_OK


def _templates(env: str | None) -> dict[str, dict[str, str]] | None:
    if not env:
        return None
    # boundary: the environments file, only when --env names one
    from console.core.environments import EnvironmentStore

    try:
        found = EnvironmentStore().get(env)
    except EnvironmentStoreError as exc:
        raise LookupError(f"--env {env}: {exc}") from None
    return {c: dict(t) for c, t in found.path_templates.items()}


def _print(result: CurlImport, *, reveal: bool) -> None:
    fields = result.fields if reveal else tuple(mask_params(result.fields))
    ident = result.endpoint_id or result.endpoint_group_id
    print(f"Command: {result.command}")
    print(f"Base URL: {result.base_url}")
    print(f"{'Endpoint' if result.endpoint_id else 'Endpoint group'}: {ident}")
    print(f"Login: {result.login or '(not in the line)'}")
    note = "" if reveal else " (card data masked; --reveal shows it)"
    print(f"Fields{note}:")
    for name, value in fields:
        print(f"  {name} = {value}")
    for line in result.notes:
        print(f"Note: {line}")
    if result.refusals:
        print("\nNo send line: the console would send another request than this line's.")
        for reason in result.refusals:
            print(f"  {reason}")
        return
    words = ["gateway-console", "send", result.command, "--base-url", result.base_url]
    if result.login:
        words += ["--login", result.login]
    words += ["--endpoint-id" if result.endpoint_id else "--group-id", ident or ""]
    words += ["--key-file", "KEY.pem"]
    for name, value in fields:
        words += ["-f", f"{name}={value}"]
    if fields != result.fields:
        print("Note: card data is masked in this line; --reveal prints it in full.")
    print("\nSend it signed by the console:")
    print("  " + " ".join(shlex.quote(w) if w != "KEY.pem" else w for w in words))
