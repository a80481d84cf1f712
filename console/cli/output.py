"""Human-readable printing for the request commands (JSON output is built in the commands)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from console.core.spec.model import Problem, Severity

if TYPE_CHECKING:  # sign and validate print without loading the sending half
    from console.core.client import Outcome
    from console.core.signing import SignedRequest


def _section(title: str, body: str, out: TextIO) -> None:
    print(f"\n{title}", file=out)
    for line in body.splitlines() or [""]:
        print(f"  {line}", file=out)


def print_signed(signed: SignedRequest, *, revealed: bool, out: TextIO | None = None) -> None:
    """Every intermediate value of a signature, in the order the algorithm builds them.

    Values are never wrapped or split: each is printed on one line, so a copy from the
    terminal is the exact value. A body value with white space around it or with characters a
    terminal does not show is printed as a Python string literal (``' JOHN'``, ``'x\\x00'``).
    """
    out = out or sys.stdout
    note = "card data revealed" if revealed else "card data masked; --reveal shows it"
    print(f"{signed.method} {signed.url}", file=out)
    _section(
        f"Body parameters ({note})",
        "\n".join(f"{_visible(n)} = {_visible(v)}" for n, v in signed.params) or "(none)",
        out,
    )
    _section("OAuth parameters", "\n".join(f"{n} = {v}" for n, v in signed.oauth.items()), out)
    _section("Normalized parameters", signed.normalized_parameters, out)
    _section("Signature base string", signed.base_string, out)
    _section("Signature, hex (debug only, never sent)", signed.signature_hex, out)
    _section(
        "Signature, base64 (sent, percent-encoded in the header)", signed.signature_base64, out
    )
    _section("Authorization header", signed.authorization, out)
    _section("Body (application/x-www-form-urlencoded)", signed.body, out)


def _visible(text: str) -> str:
    return text if text.isprintable() and text == text.strip() else repr(text)


def print_problems(
    problems: Iterable[Problem], *, ok_text: str, file: TextIO | None = None
) -> None:
    """One line per problem, errors first."""
    file = file or sys.stdout
    ordered = sorted(problems, key=lambda p: p.severity is not Severity.ERROR)
    if not ordered:
        if ok_text:
            print(ok_text, file=file)
        return
    for p in ordered:
        print(f"{p.severity.upper():7} {', '.join(p.fields) or '-'}: {p.message}", file=file)


def print_refusal(problems: Iterable[Problem], *, as_json: bool) -> None:
    """Why a request was not signed: its errors, as JSON on stdout or as lines on stderr."""
    if as_json:
        found = [p.to_json() for p in problems]
        print(json.dumps({"result": "invalid", "problems": found}, indent=2, ensure_ascii=False))
        return
    print("Not signed: fix these first (or pass --no-validate).", file=sys.stderr)
    print_problems(problems, ok_text="", file=sys.stderr)


def print_outcome(outcome: Outcome, out: TextIO | None = None) -> None:
    """The decoded answer, or the transport failure, in plain words (as given: the pipeline
    hands over the masked outcome unless the person asked to reveal it)."""
    out = out or sys.stdout
    print(f"{outcome.prepared.command} -> {outcome.result.upper()}: {outcome.summary}", file=out)
    response = outcome.response
    if response is None:
        return
    print(f"\nHTTP {response.http_status} ({outcome.elapsed * 1000:.0f} ms)", file=out)
    for name, value in response.fields:
        print(f"  {name} = {value}", file=out)
    if not response.fields:
        _section("Raw body", response.raw.decode("utf-8", "replace"), out)
