"""Reading a form-urlencoded answer body (contract section 1): the content type and charset,
the text, and the ``name=value`` pairs, each value followed by a line feed.

:class:`MalformedError` says, in plain words, why a body is not a readable form;
``console.core.responses`` turns that into a result, never a crash.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import unquote_plus

_NAME = re.compile(r"[A-Za-z0-9_.\-\[\]]+")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class MalformedError(Exception):
    """The body is not a readable form; the message says why, in plain words."""


def media_and_charset(headers: Mapping[str, str]) -> tuple[str, str]:
    """Return (media type in lower case or "", charset name to use)."""
    value = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
    media, _, params = value.partition(";")
    charset = "utf-8"
    for param in params.split(";"):
        key, _, val = param.partition("=")
        if key.strip().lower() == "charset" and val.strip().strip("\"'"):
            charset = val.strip().strip("\"'").lower()
    try:
        b"a".decode(charset)  # not b"": decoding nothing skips the codec lookup
    except UnicodeError:
        pass  # a real text encoding that cannot decode a lone "a" (utf-16)
    except LookupError:  # unknown, or not a text encoding (rot13): the contract's utf-8
        charset = "utf-8"
    return media.strip().lower(), charset


def decode_text(raw: bytes, charset: str) -> str | None:
    """The body as text in ``charset``, or None when it is not readable that way."""
    try:
        return raw.decode(charset)
    except (UnicodeError, LookupError, ValueError):
        return None


def lenient_text(raw: bytes, charset: str) -> str:
    """The body as text for showing: the declared charset, else utf-8, bad bytes replaced."""
    try:
        return raw.decode(charset, errors="replace")
    except (UnicodeError, LookupError):  # codecs such as idna refuse "replace"
        return raw.decode("utf-8", errors="replace")


def parse_form(text: str, charset: str) -> tuple[tuple[str, str], ...]:
    """The (name, value) pairs of a form body, line feeds stripped. Raises MalformedError."""
    body = text.strip()
    if not body:
        raise MalformedError("it is empty")
    if body.startswith("<"):
        raise MalformedError("it is an HTML page, not form data")
    if body.startswith(("{", "[")):
        raise MalformedError("it looks like JSON, not the form data the contract specifies")
    if _CONTROL.search(body):
        raise MalformedError("it contains binary data")
    pairs: list[tuple[str, str]] = []
    endings: list[bool] = []
    for piece in text.lstrip().split("&"):
        if not piece.strip():
            continue  # a stray "&" or a line feed on its own
        name, eq, value = piece.partition("=")
        name = name.strip()
        if not eq or not _NAME.fullmatch(name):
            raise MalformedError(f'it is cut off or damaged near "{clip(piece)}"')
        if _BAD_ESCAPE.search(value):
            raise MalformedError(f'the value of "{name}" is cut off or badly encoded')
        # Each value is followed by a line feed (contract section 1); tolerate CRLF too.
        # Strip it before decoding: an encoded %0D or %0A is part of the value itself.
        ended = value.endswith("\n")
        value = value[:-2] if value.endswith("\r\n") else value.removesuffix("\n")
        try:
            decoded = unquote_plus(value, encoding=charset, errors="strict")
        except (UnicodeError, LookupError) as exc:
            raise MalformedError(f'the value of "{name}" is not readable {charset} text') from exc
        if not ended and decoded.endswith("\n"):  # a terminator sent percent-encoded
            decoded, ended = decoded[:-1], True
        endings.append(ended)
        pairs.append((name, decoded))
    if any(endings) and not endings[-1]:
        # Values end with a line feed, except the last one: the body was cut short.
        raise MalformedError(f'it is cut off after "{clip(pairs[-1][0])}"')
    return tuple(pairs)


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
