"""Percent-encoders: the correct RFC 3986 one and the wrong ones clients are known to use.

Each function takes text (``surrogateescape`` keeps bytes that are not UTF-8 as they came)
and returns its encoded form. The wrong encoders are made of deviations from RFC 3986 (a
space as ``+``, ``~`` escaped, ``! ' ( ) *`` or ``/`` or ``*`` kept, lower-case hex); a
client's encoder is one or a few of them at once: PHP's ``urlencode`` and
``http_build_query`` make two (``+`` and ``%7E``), Java's ``URLEncoder`` and JavaScript's
``URLSearchParams`` three.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from urllib.parse import quote, quote_plus

Encoder = Callable[[str], str]

_HEX_ESCAPE = re.compile(r"%[0-9A-F]{2}")

# Each deviation: its mistake code.
SPACE_PLUS = "plus-for-space"
TILDE = "tilde-encoded"
KEEP_JS = "js-encodeuricomponent"
KEEP_STAR = "star-not-encoded"
KEEP_SLASH = "slash-not-encoded"
LOWER_HEX = "lowercase-hex"
_SAFE = {KEEP_JS: "!'()*", KEEP_STAR: "*", KEEP_SLASH: "/"}


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _table(deviations: frozenset[str]) -> dict[int, str]:
    """str.translate table for ASCII text: each character that is escaped, to its escape."""
    keep = set(_UNRESERVED) | {
        c for code, chars in _SAFE.items() if code in deviations for c in chars
    }
    hex_form = "%{:02x}" if LOWER_HEX in deviations else "%{:02X}"
    table = {b: hex_form.format(b) for b in range(128) if chr(b) not in keep}
    if SPACE_PLUS in deviations:
        table[ord(" ")] = "+"
    if TILDE in deviations:
        table[ord("~")] = hex_form.format(ord("~"))
    return table


_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_RFC3986 = _table(frozenset())


def rfc3986(text: str) -> str:
    """RFC 3986 as OAuth wants it: only ``A-Z a-z 0-9 - . _ ~`` kept, upper-case hex."""
    if text.isascii():
        return text.translate(_RFC3986)
    return quote(_utf8(text), safe="~")


def make(deviations: frozenset[str]) -> Encoder:
    """An encoder with these deviations from RFC 3986 (none: :func:`rfc3986`)."""
    if not deviations:
        return rfc3986
    table = _table(deviations)
    safe = "~" + "".join(chars for code, chars in _SAFE.items() if code in deviations)
    plus = SPACE_PLUS in deviations
    tilde = TILDE in deviations  # Python's quote() always keeps ~: escaped after
    lower = LOWER_HEX in deviations

    def encode(text: str) -> str:
        if text.isascii():
            return text.translate(table)
        data = _utf8(text)
        out = quote_plus(data, safe=safe) if plus else quote(data, safe=safe)
        if tilde:
            out = out.replace("~", "%7E")
        return _HEX_ESCAPE.sub(lambda m: m.group().lower(), out) if lower else out

    return encode


@dataclass(frozen=True)
class Deviant:
    """A wrong encoder worth trying: its mistake codes and what it counts as (1 or 2)."""

    codes: tuple[str, ...]
    cost: int

    @property
    def encoder(self) -> Encoder:
        return make(frozenset(self.codes))


_SINGLE = (SPACE_PLUS, KEEP_JS, KEEP_SLASH, TILDE, LOWER_HEX, KEEP_STAR)
# Encoders of real client libraries that make several deviations at once count as one.
_LIBRARIES = (
    (SPACE_PLUS, TILDE),  # PHP urlencode / http_build_query
    (SPACE_PLUS, TILDE, KEEP_STAR),  # Java URLEncoder, JavaScript URLSearchParams
)


def deviants() -> list[Deviant]:
    """Every wrong encoder tried: one deviation, a library's set, or any two deviations."""
    out = [Deviant((code,), 1) for code in _SINGLE]
    out += [Deviant(codes, 1) for codes in _LIBRARIES]
    known = {frozenset(d.codes) for d in out}
    for pair in combinations(_SINGLE[:5], 2):
        if frozenset(pair) not in known:
            out.append(Deviant(pair, 2))
    return out


def memo(encoder: Encoder) -> Encoder:
    """The same encoder, remembering what it encoded (a diagnosis encodes the same names and
    values many times over)."""
    seen: dict[str, str] = {}

    def encode(text: str) -> str:
        found = seen.get(text)
        if found is None:
            found = seen[text] = encoder(text)
        return found

    return encode
