"""OAuth 1.0a percent-encoding and parameter normalization (RFC 5849 3.6, 3.4.1.3.2).

Tuned so that signing costs little more than the RSA operation itself: ``quote()`` walks
the text byte by byte in Python, while here plain text is recognised by one regular
expression, and the characters to escape are replaced with a few ``str.replace`` calls (which
run in C) over all body values at once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import parse_qsl, quote

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_UNRESERVED_ONLY = re.compile(r"[A-Za-z0-9._~-]*").fullmatch
_ASCII_ESCAPES = {chr(code): f"%{code:02X}" for code in range(128) if chr(code) not in _UNRESERVED}
# Above this many distinct characters to escape, one str.replace per character would cost
# more than quote()'s walk through the text.
_MAX_REPLACES = 24
# Parameter names come from a small vocabulary (the contract's field names): encode each
# once per process. Bounded, so odd input cannot grow it without limit.
_NAME_CACHE: dict[str, str] = {}
_NAME_CACHE_LIMIT = 2048


def percent_encode(value: str) -> str:
    """Percent-encode text per RFC 3986 as OAuth requires (RFC 5849 section 3.6).

    UTF-8 bytes; only ``A-Z a-z 0-9 - . _ ~`` are kept; hex digits are upper case; a space
    is ``%20``, never ``+``.

    Raises:
        UnicodeEncodeError: the text holds lone surrogates, which have no UTF-8 form.
    """
    if _UNRESERVED_ONLY(value) is not None:
        return value
    return _escape(value, set(value).difference(_UNRESERVED))


def normalize_parameters(pairs: Sequence[tuple[str, str]]) -> str:
    """Return the normalized parameter string (RFC 5849 section 3.4.1.3.2).

    Every pair is kept (repeated names too), empty values included.
    """
    return join_sorted(encode_pairs(pairs))


def parse_form(text: str) -> list[tuple[str, str]]:
    """Decode form-urlencoded text (``+`` is a space, ``c2`` alone is an empty value).

    Raises:
        ValueError: a percent escape decodes to bytes that are not UTF-8.
    """
    return parse_qsl(text, keep_blank_values=True, errors="strict")


def encode_pairs(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Percent-encode every name and value, keeping the order.

    Raises:
        ValueError: a name or value holds lone surrogates; the message names the parameter.
    """
    cached = _NAME_CACHE.get
    try:
        values = _encode_values([value for _, value in pairs])
        return [
            (cached(name) or _encode_name(name), value)
            for (name, _), value in zip(pairs, values, strict=True)
        ]
    except UnicodeEncodeError:
        for name, value in pairs:
            try:
                name.encode("utf-8") + value.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    f"Parameter {name!r} holds characters that are not valid Unicode text "
                    "and cannot be sent. Retype the value."
                ) from None
        raise


def join_sorted(encoded: list[tuple[str, str]]) -> str:
    """Sort encoded pairs by name, then value, and join them as ``name=value&...``.

    Sorts ``encoded`` in place.
    """
    # Encoded text is ASCII, so Python's string order is byte order.
    encoded.sort()
    return "&".join([f"{name}={value}" for name, value in encoded])


def _escape(text: str, special: set[str]) -> str:
    """Percent-encode the characters ``special`` (all those of ``text`` to encode)."""
    # Signing should cost little more than the bare RSA operation; quote() walks the text
    # byte by byte in Python, while a few str.replace calls run in C.
    if len(special) > _MAX_REPLACES:
        return quote(text, safe="~")
    if "%" in special:  # first, so that the escapes added below stay as they are
        text = text.replace("%", "%25")
        special.discard("%")
    for char in special:
        text = text.replace(char, _ASCII_ESCAPES.get(char) or _escape_char(char))
    return text


def _escape_char(char: str) -> str:
    return "".join([f"%{byte:02X}" for byte in char.encode("utf-8")])


def _encode_values(values: list[str]) -> list[str]:
    """Percent-encode many texts in one pass: joined by NUL, escaped, split again."""
    joined = "\x00".join(values)
    special = set(joined).difference(_UNRESERVED)
    special.discard("\x00")
    if not special:
        return values
    if len(special) > _MAX_REPLACES or joined.count("\x00") != len(values) - 1:
        return [percent_encode(value) for value in values]  # or a value holds NUL itself
    return _escape(joined, special).split("\x00")


def _encode_name(name: str) -> str:
    encoded = percent_encode(name)
    if len(_NAME_CACHE) < _NAME_CACHE_LIMIT:
        _NAME_CACHE[name] = encoded
    return encoded
