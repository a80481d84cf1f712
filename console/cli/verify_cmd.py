"""``gateway-console verify``: check a request someone else signed, and name the mistake.

The request comes from FILE, standard input (no FILE, or ``-``), ``--curl TEXT``, or
``--url`` with ``--authorization`` and ``--body``. The key: ``--public-key FILE`` (public key
PEM or certificate), ``--key-file FILE`` (a private key; only its public half is used) or
``--env NAME`` (an environment's key from the keyring, with its endpoint and group ids);
``--id`` names more of the signer's ids, so that a path signed for another is named.
``--callback QUERY`` checks a callback's ``control`` instead, with the merchant control
secret of ``--env`` or of the environment variable named by ``--merchant-control-env``.

Exit statuses: 0 valid, 1 invalid (or valid only over a scheme that was not given), 2
unreadable input (request, key or options).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from console.cli.failures import EXIT_SIGNATURE_INVALID, EXIT_UNREADABLE, EXIT_VALID
from console.cli.parser import RawDescriptionHelpFormatter
from console.core.errors import EnvironmentStoreError
from console.core.input_files import (
    MAX_KEY_FILE,
    MAX_REQUEST_TEXT,
    InputFileError,
    read_capped,
    read_stream_capped,
)
from console.core.keys import KeyProblem
from console.core.siglab.capture import CaptureError, from_parts
from console.core.siglab.curl import parse_request_text
from console.core.siglab.diagnose import Verdict, diagnose
from console.core.siglab.keysource import environment_public_key, load_public_key
from console.core.siglab.received import from_capture


class UnreadableInputError(Exception):
    """Input that cannot be read (exit status 2)."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "verify",
        help="verify a signed request (or a callback's control) and name the mistake",
        description=__doc__,
        formatter_class=RawDescriptionHelpFormatter,
    )
    src = p.add_argument_group("the request (raw HTTP text or a curl line)")
    src.add_argument("file", nargs="?", help="a file with the request; - or none: stdin")
    src.add_argument("--curl", metavar="TEXT", help="a curl command line")
    src.add_argument("--url", help="the request URL, with --authorization and --body")
    src.add_argument("--authorization", metavar="HEADER", help="the Authorization header value")
    src.add_argument("--body", default="", help="the form body as sent")
    src.add_argument(
        "--scheme",
        choices=("https", "http"),
        help="for raw HTTP without a full URL (default: https, said to be assumed)",
    )
    key = p.add_argument_group("the key (one of)")
    key.add_argument("--public-key", type=Path, metavar="FILE", help="public key or certificate")
    key.add_argument("--key-file", type=Path, metavar="FILE", help="a private key PEM")
    key.add_argument("--key-passphrase-env", metavar="VAR", help="variable with its passphrase")
    key.add_argument("--env", metavar="NAME", help="a saved environment's key (keyring)")
    key.add_argument(
        "--id",
        action="append",
        default=[],
        metavar="ID",
        help="an endpoint or group id of the signer, to name a path signed for another of "
        "them (repeatable; --env adds the environment's)",
    )
    key.add_argument(
        "--other-key",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="a key the request may have been signed with instead (repeatable)",
    )
    cb = p.add_argument_group("a callback instead of a request")
    cb.add_argument("--callback", metavar="QUERY", help="the callback's query string")
    cb.add_argument("--merchant-control-env", metavar="VAR", help="variable with the secret")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--reveal", action="store_true", help="show card data in full")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.callback is not None:
            return _run_callback(args)
        received = from_capture(_capture(args))
        key, env_ids = _key(args)
        others = {str(path): _key_file(path, None) for path in args.other_key}
    except (UnreadableInputError, CaptureError, KeyProblem) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    ids = [*args.id, *env_ids]
    verdict = diagnose(received, key, now=time.time(), other_keys=others, ids=ids)
    if args.json:
        print(json.dumps(verdict.to_json(reveal=args.reveal), indent=2))
    else:
        _print(verdict, reveal=args.reveal)
    return EXIT_VALID if verdict.valid else EXIT_SIGNATURE_INVALID


def _capture(args: argparse.Namespace) -> Any:
    if args.url:
        return from_parts(args.url, args.authorization, args.body)
    return parse_request_text(input_text(args), scheme=args.scheme)


def input_text(args: argparse.Namespace) -> str:
    """The text of ``--curl``, else of FILE, else of standard input (FILE ``-`` or none)."""
    if args.curl is not None:
        return str(args.curl)
    where = args.file if args.file and args.file != "-" else "standard input"
    try:
        if where == args.file:
            data = read_capped(Path(args.file), MAX_REQUEST_TEXT)
        else:
            data = _stdin_capped()
        # line ends as a text file reads them (universal newlines), as before the cap
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except (OSError, UnicodeDecodeError, InputFileError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise UnreadableInputError(f"{where}: {reason}") from None


def _stdin_capped() -> bytes:
    """Standard input up to its cap (a text stream without bytes beneath, too)."""
    binary = getattr(sys.stdin, "buffer", None)
    if binary is not None:
        return read_stream_capped(binary, MAX_REQUEST_TEXT)
    text = sys.stdin.read(MAX_REQUEST_TEXT + 1)
    if len(text) > MAX_REQUEST_TEXT:
        raise InputFileError(f"it is larger than {MAX_REQUEST_TEXT // 1048576} MiB")
    return text.encode("utf-8")


def _key(args: argparse.Namespace) -> tuple[RSAPublicKey, tuple[str, ...]]:
    """The key, and with --env the environment's endpoint and group ids."""
    given = [k for k in (args.public_key, args.key_file, args.env) if k]
    if len(given) != 1:
        raise UnreadableInputError(
            "give exactly one key: --public-key FILE, --key-file FILE or --env NAME"
        )
    if args.env:
        return _env_key(args.env)
    passphrase = None
    if args.key_passphrase_env:
        passphrase = os.environ.get(args.key_passphrase_env)
        if passphrase is None:
            raise UnreadableInputError(f"environment variable {args.key_passphrase_env} is not set")
    return _key_file(args.public_key or args.key_file, passphrase), ()


def _key_file(path: Path, passphrase: str | None) -> RSAPublicKey:
    try:
        return load_public_key(read_capped(path, MAX_KEY_FILE), passphrase)
    except OSError as exc:
        raise UnreadableInputError(f"{path}: {exc.strerror}") from None
    except InputFileError as exc:
        raise UnreadableInputError(f"{path}: {exc}: a key PEM is a few KiB") from None
    except KeyProblem as exc:
        raise UnreadableInputError(f"{path}: {exc}") from None


def _env_key(name: str) -> tuple[RSAPublicKey, tuple[str, ...]]:
    # boundary: the keyring, only when --env names the key (verify with a key file loads none)
    from console.core.secret_store import VaultError

    try:
        return environment_public_key(name)
    except (EnvironmentStoreError, VaultError) as exc:
        raise UnreadableInputError(f"--env {name}: {exc}") from None


def _run_callback(args: argparse.Namespace) -> int:
    from console.core.siglab.control import check_control  # callbacks only: it loads the spec

    secret = _merchant_control(args)
    try:
        verdict = check_control(args.callback, secret)
    except ValueError as exc:
        raise UnreadableInputError(str(exc)) from None
    diagnosis = [] if verdict.valid else [{"code": verdict.code, "message": verdict.message}]
    if args.json:
        print(json.dumps({"valid": verdict.valid, "diagnosis": diagnosis}, indent=2))
    else:
        print("VALID: the control value is right." if verdict.valid else "INVALID")
        for item in diagnosis:
            print(f"  {item['message']} ({item['code']})")
    return EXIT_VALID if verdict.valid else EXIT_SIGNATURE_INVALID


def _merchant_control(args: argparse.Namespace) -> str:
    if args.merchant_control_env:
        secret = os.environ.get(args.merchant_control_env)
        if secret is None:
            raise UnreadableInputError(
                f"environment variable {args.merchant_control_env} is not set"
            )
        return secret
    if args.env:
        # boundary: the environments file and the keyring, only for --env
        from console.core.environments import connect
        from console.core.secret_store import VaultError  # boundary: as above

        try:
            secret = connect(args.env).merchant_control
        except (EnvironmentStoreError, VaultError) as exc:
            raise UnreadableInputError(f"--env {args.env}: {exc}") from None
        if secret:
            return str(secret)
    raise UnreadableInputError(
        "the callback check needs the merchant control secret: --env NAME (with a saved "
        "secret) or --merchant-control-env VAR"
    )


def _print(verdict: Verdict, *, reveal: bool) -> None:
    print(verdict.headline())
    for finding in verdict.findings:
        print(f"  {finding.message} ({finding.code})")
        if finding.fix:
            print(f"    Fix: {finding.fix}")
    print(f"Key fingerprint: {verdict.fingerprint}")
    if verdict.first_difference:
        print(f"The base strings part at: {verdict.first_difference}")
    expected, received = verdict.base_strings(reveal=reveal)
    note = "card data revealed" if reveal else "card data masked; --reveal shows it"
    other = received if received is not None else expected
    print(f"\nBase strings, one parameter a line; ! marks what differs ({note})")
    _block("Expected (what the gateway signs):", expected, other)
    if received is not None and received != expected:
        _block("Signed by the client:", received, expected)


def _lines(text: str) -> list[str]:
    method, _, rest = text.partition("&")
    uri, _, params = rest.partition("&")
    pieces = params.split("%26")
    return [f"{method}&", f"{uri}&", *(p + "%26" for p in pieces[:-1]), pieces[-1]]


def _block(title: str, text: str, other: str) -> None:
    print(title)
    others = set(_lines(other))
    for line in _lines(text):
        mark = "  " if line in others else "! "
        for i, part in enumerate(textwrap.wrap(line, 96, break_on_hyphens=False) or [""]):
            print(f"  {mark if i == 0 else '  '}{part}")
