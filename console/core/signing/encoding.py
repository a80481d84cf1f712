"""OAuth 1.0a percent-encoding and parameter normalization (RFC 5849 3.6, 3.4.1.3.2).

Encoding is the standard library's ``urllib.parse.quote`` over UTF-8 with only ``~`` added
to its always-safe set, which is exactly RFC 3986's unreserved set: ``A-Z a-z 0-9 - . _ ~``
stay, every other byte (control characters and NUL included) becomes ``%XX`` with upper-case
hex digits, and a space is ``%20``, never ``+``. Two shortcuts give the same result with
less work: text of unreserved characters only is returned as it is, and ASCII text goes
through a translation table made of quote()'s own escapes. The tests hold every path to
oauthlib's encoder and to a reference written from RFC 3986.

Text holding a lone surrogate (half of a UTF-16 pair, e.g. from a command line argument whose
bytes are not UTF-8) has no UTF-8 form. It is refused with :class:`UnencodableTextError`
naming the parameter; nothing is guessed or replaced, since what is signed must be what was
given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import parse_qsl, quote

from console.core.errors import InputError

# Text of unreserved characters only is its own encoding: quote() would return it unchanged,
# after a longer walk. (Explicit ASCII ranges: no other letters or digits match.)
_PLAIN = re.compile(r"[A-Za-z0-9._~-]*").fullmatch
# quote()'s own escape of each ASCII character it escapes (NUL and the other controls too).
# An ASCII character is one UTF-8 byte and quote() escapes byte by byte, so for ASCII text
# str.translate with this table gives exactly what quote() gives, in one pass in C.
_ASCII_ESCAPES = str.maketrans(
    {chr(c): quote(chr(c), safe="~") for c in range(128) if not _PLAIN(chr(c))}
)


class UnencodableTextError(InputError):
    """A name or value holds a lone surrogate, which has no UTF-8 form and cannot be sent.

    Attributes:
        field: the parameter (or part of the request) that holds the text.
    """

    def __init__(self, field: str, position: int, char: str, *, in_name: bool = False) -> None:
        where = f"The field name {field!r}" if in_name else f"The value of {field}"
        super().__init__(
            f"{where} holds a character that is not valid Unicode text (U+{ord(char):04X} at "
            f"position {position + 1}, half of a surrogate pair): it has no UTF-8 form, so it "
            "cannot be signed or sent. Retype it."
        )
        self.field = field


def percent_encode(value: str) -> str:
    """Percent-encode text per RFC 3986 as OAuth requires (RFC 5849 section 3.6).

    Raises:
        UnicodeEncodeError: the text holds a lone surrogate; :func:`encode_pairs` turns this
            into :class:`UnencodableTextError` naming the parameter.
    """
    if _PLAIN(value):
        return value
    return value.translate(_ASCII_ESCAPES) if value.isascii() else quote(value, safe="~")


def encode_text(field: str, text: str, *, in_name: bool = False) -> str:
    """Percent-encode ``text``, the value of ``field`` (or, ``in_name``, its name).

    Raises:
        UnencodableTextError: the text holds a lone surrogate; the message names ``field``.
    """
    if _PLAIN(text):
        return text
    if text.isascii():
        return text.translate(_ASCII_ESCAPES)
    try:
        return quote(text, safe="~")
    except UnicodeEncodeError as exc:
        raise UnencodableTextError(field, exc.start, text[exc.start], in_name=in_name) from None


def encode_pairs(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Percent-encode every name and value, keeping the order.

    Raises:
        UnencodableTextError: a name or value holds a lone surrogate; the message names the
            parameter (the name shown escaped when the name itself is the culprit).
    """
    return [
        (encode_text(name, name, in_name=True), encode_text(name, value)) for name, value in pairs
    ]


def join_sorted(encoded: list[tuple[str, str]]) -> str:
    """Sort encoded pairs by name, then value, and join them as ``name=value&...``.

    Sorts ``encoded`` in place.
    """
    # Encoded text is ASCII, so Python's string order is byte order.
    encoded.sort()
    return "&".join([f"{name}={value}" for name, value in encoded])


def normalize_parameters(pairs: Sequence[tuple[str, str]]) -> str:
    """Return the normalized parameter string (RFC 5849 section 3.4.1.3.2).

    Every pair is kept (repeated names too), empty values included.

    Raises:
        UnencodableTextError: a name or value holds a lone surrogate.
    """
    return join_sorted(encode_pairs(pairs))


def parse_form(text: str) -> list[tuple[str, str]]:
    """Decode form-urlencoded text (``+`` is a space, ``c2`` alone is an empty value).

    Raises:
        ValueError: a percent escape decodes to bytes that are not UTF-8.
    """
    return parse_qsl(text, keep_blank_values=True, errors="strict")
