"""Human-readable printing for the request commands (JSON output is built in the commands)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from console.core.client import Outcome
from console.core.masking import mask_params, mask_text
from console.core.signing import SignedRequest
from console.core.spec.model import Problem, Severity


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


def masked_answer_text(text: str, secrets: Sequence[tuple[str, str]]) -> str:
    """Answer text as shown: the request's own card data masked wherever the gateway echoes it
    (``secrets`` empty: shown as it came, for ``--reveal``). Long digit ids stay readable."""
    return mask_text(text, secrets, card_shaped=False) if secrets else text


def masked_answer_fields(
    fields: Iterable[tuple[str, str]], secrets: Sequence[tuple[str, str]]
) -> list[tuple[str, str]]:
    """Answer fields as shown: card number and CVV2 fields masked by name, and the request's
    own card data masked in every other value (``secrets`` empty: all as they came)."""
    if not secrets:
        return list(fields)
    return [(n, masked_answer_text(v, secrets)) for n, v in mask_params(fields)]


def print_outcome(
    outcome: Outcome, secrets: list[tuple[str, str]], out: TextIO | None = None
) -> None:
    """The decoded answer, or the transport failure, in plain words."""
    out = out or sys.stdout
    summary = masked_answer_text(outcome.summary, secrets)
    print(f"{outcome.prepared.command} -> {outcome.result.upper()}: {summary}", file=out)
    response = outcome.response
    if response is None:
        return
    print(f"\nHTTP {response.http_status} ({outcome.elapsed * 1000:.0f} ms)", file=out)
    for name, value in masked_answer_fields(response.fields, secrets):
        print(f"  {name} = {value}", file=out)
    if not response.fields:
        _section(
            "Raw body", masked_answer_text(response.raw.decode("utf-8", "replace"), secrets), out
        )
