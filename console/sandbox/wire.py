"""Answer shapes, exactly as the contract describes them (sections 1 and 7).

* Form answers: ``Content-Type: text/html;charset=utf-8``, ``name=value`` pairs joined with
  ``&``, each value followed by a line feed, and a unique ``serial-number``.
* 403: ``text/html``, a small HTML page titled 403 saying access is denied.
* 500: plain text, an internal-error message and a bracketed unique id.

Every answer carries ``Keep-Alive: timeout=60`` and ``Strict-Transport-Security:
max-age=31536000`` as the contract's samples do.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote_plus

from console.sandbox.oauth import parse_form

FORM_CONTENT_TYPE = "text/html;charset=utf-8"
CONTRACT_HEADERS = (
    ("Keep-Alive", "timeout=60"),
    ("Strict-Transport-Security", "max-age=31536000"),
)
ACCESS_DENIED_PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>403</title></head>\n"
    b"<body><h1>403</h1><p>Access denied.</p></body></html>\n"
)


@dataclass(frozen=True, slots=True)
class Reply:
    """One HTTP answer: status, content type, body and extra headers."""

    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()

    def field(self, name: str) -> str | None:
        """A field of a form answer (without its line feed), for logs and tests."""

        for key, value in parse_form(self.body):
            if key == name:
                return value.rstrip("\n")
        return None


def new_serial() -> str:
    """A fresh ``serial-number``: unique per answer, also across restarts."""
    return str(uuid.uuid4())


def form_body(pairs: Sequence[tuple[str, str]]) -> bytes:
    """``name=value\\n`` items joined with ``&``, names and values form-urlencoded."""

    def enc(text: str) -> str:
        # a value echoed from a request whose bytes were not UTF-8 (kept as surrogates) goes
        # back as those same bytes, percent-encoded: every answer can be written
        return quote_plus(text.encode("utf-8", "surrogateescape"))

    return "&".join(f"{enc(n)}={enc(v)}\n" for n, v in pairs).encode("ascii")


def form_reply(pairs: Sequence[tuple[str, str]], serial: str | None = None) -> Reply:
    """A 200 form answer; ``serial-number`` is added after ``type`` when not given."""
    items = list(pairs)
    if not any(n == "serial-number" for n, _ in items):
        items.insert(
            1 if items and items[0][0] == "type" else 0, ("serial-number", serial or new_serial())
        )
    return Reply(200, FORM_CONTENT_TYPE, form_body(items))


def access_denied() -> Reply:
    """The contract's 403 page. It never says why: the sandbox's log does."""
    return Reply(403, "text/html", ACCESS_DENIED_PAGE)


def internal_error(error_id: str | None = None) -> tuple[Reply, str]:
    """A 500 with the plain-text body the contract describes; returns the reply and its id."""
    error_id = error_id or uuid.uuid4().hex
    text = f"Internal error occurred while processing the request [{error_id}]\n"
    return Reply(500, "text/plain;charset=utf-8", text.encode("utf-8")), error_id


def plain(status: int, text: str, headers: tuple[tuple[str, str], ...] = ()) -> Reply:
    """A plain-text answer for paths and methods outside the contract (404, 405, 411...)."""
    return Reply(status, "text/plain;charset=utf-8", (text + "\n").encode("utf-8"), headers)


def json_reply(status: int, data: object) -> Reply:
    """A JSON answer of the sandbox-only control paths."""
    body = json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"
    return Reply(status, "application/json", body.encode("utf-8"))
