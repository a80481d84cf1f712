"""Percent-encoders: the correct RFC 3986 one and the wrong ones clients are known to use.

Each function takes text (``surrogateescape`` keeps bytes that are not UTF-8 as they came)
and returns its encoded form. The wrong encoders are deliberate: each reproduces one
mistake, so that a signature made with it can be recognised.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote, quote_plus

Encoder = Callable[[str], str]

_HEX_ESCAPE = re.compile(r"%[0-9A-F]{2}")


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def rfc3986(text: str) -> str:
    """RFC 3986 as OAuth wants it: only ``A-Z a-z 0-9 - . _ ~`` kept, upper-case hex."""
    return quote(_utf8(text), safe="~")


def form_encoding(text: str) -> str:
    """HTML form encoding: a space becomes ``+`` (``plus-for-space``)."""
    return quote_plus(_utf8(text), safe="~")


def encode_uri_component(text: str) -> str:
    """JavaScript's ``encodeURIComponent``: ``! ' ( ) *`` stay as they are."""
    return quote(_utf8(text), safe="~!'()*")


def quote_default(text: str) -> str:
    """Python's ``quote()`` with its default ``safe="/"``: slashes stay as they are."""
    return quote(_utf8(text))


def tilde_encoded(text: str) -> str:
    """An older encoder that escapes ``~`` as ``%7E``."""
    return rfc3986(text).replace("~", "%7E")


def lowercase_hex(text: str) -> str:
    """Escapes with lower-case hex digits (``%2f`` instead of ``%2F``)."""
    return _HEX_ESCAPE.sub(lambda m: m.group().lower(), rfc3986(text))
