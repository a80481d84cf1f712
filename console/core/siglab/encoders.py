"""Percent-encoders: the correct RFC 3986 one and the wrong ones clients are known to use.

Each function takes text (``surrogateescape`` keeps bytes that are not UTF-8 as they came)
and returns its encoded form. The wrong encoders are not a list of known clients: they are
every setting of the knobs a client's encoder has, one a character class and one for the
charset. A space as ``+``; ``~`` escaped; ``*``, or all of ``! ' ( ) *``, kept; ``/`` kept;
``$ & + : = @`` kept (Go's ``url.PathEscape``); lower-case hex; and the text's bytes in
another charset than UTF-8 (ASCII, ISO-8859-1, windows-1252, with ``?`` for what it cannot
hold: Java's ``URLEncoder.encode(v)`` on a platform charset). A client's encoder is any
combination of up to :data:`MAX_KNOBS` of them: PHP's ``urlencode`` makes two (``+`` and
``%7E``), Java's ``URLEncoder.encode(v, UTF_8)`` three, and with
``.replace("+", "%20")`` two of those. Each wrong encoder counts as one mistake (it is one
function in the client), and names each knob it turns.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

Encoder = Callable[[str], str]

# Each deviation: its mistake code.
SPACE_PLUS = "plus-for-space"
TILDE = "tilde-encoded"
KEEP_JS = "js-encodeuricomponent"
KEEP_STAR = "star-not-encoded"
KEEP_SLASH = "slash-not-encoded"
KEEP_SUBDELIMS = "sub-delims-not-encoded"
LOWER_HEX = "lowercase-hex"
CHARSET = "charset-not-utf8"
_SAFE = {KEEP_JS: "!'()*", KEEP_STAR: "*", KEEP_SLASH: "/", KEEP_SUBDELIMS: "$&+:=@"}
# Charsets a platform may default to, besides UTF-8 (Python codec names).
CHARSETS = ("ascii", "latin-1", "cp1252")
MAX_KNOBS = 3  # knobs turned at once in one encoder


def _table(deviations: frozenset[str]) -> list[str]:
    """Each byte value's encoded form."""
    keep = set(_UNRESERVED) | {
        c for code, chars in _SAFE.items() if code in deviations for c in chars
    }
    hex_form = "%{:02x}" if LOWER_HEX in deviations else "%{:02X}"
    table = [chr(b) if b < 128 and chr(b) in keep else hex_form.format(b) for b in range(256)]
    if SPACE_PLUS in deviations:
        table[ord(" ")] = "+"
    if TILDE in deviations:
        table[ord("~")] = hex_form.format(ord("~"))
    return table


_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_RFC3986 = _table(frozenset())
_RFC3986_ASCII = {b: s for b, s in enumerate(_RFC3986[:128]) if s != chr(b)}


def _bytes(text: str, charset: str) -> bytes:
    if charset == "utf-8":
        return text.encode("utf-8", "surrogateescape")
    return text.encode(charset, "replace")  # ? for what the charset cannot hold, as Java does


def rfc3986(text: str) -> str:
    """RFC 3986 as OAuth wants it: only ``A-Z a-z 0-9 - . _ ~`` kept, upper-case hex."""
    if text.isascii():
        return text.translate(_RFC3986_ASCII)
    return "".join(_RFC3986[b] for b in _bytes(text, "utf-8"))


@cache  # the same few hundred encoders serve every diagnosis
def make(deviations: frozenset[str], charset: str = "utf-8") -> Encoder:
    """An encoder with these deviations from RFC 3986, over the bytes of ``charset``."""
    if not deviations and charset == "utf-8":
        return rfc3986
    table = _table(deviations)
    ascii_table = {b: s for b, s in enumerate(table[:128]) if s != chr(b)}

    def encode(text: str) -> str:
        if text.isascii():
            return text.translate(ascii_table)
        return "".join(table[b] for b in _bytes(text, charset))

    return encode


# What encoded names and values can hold: unreserved characters, escapes, the joiners and
# what a wrong encoder keeps.
_ENCODED_TEXT = "%&=+*/!'()$:@~"


@cache
def outer(deviations: frozenset[str] = frozenset()) -> Encoder:
    """The same encoder as :func:`make`, for text that an encoder made (the parameter
    string): only the few characters such text can hold are replaced, ``%`` first, which is
    many times faster on the thousands of candidates of a diagnosis."""
    table = _table(deviations)
    swaps = [(c, table[ord(c)]) for c in _ENCODED_TEXT if table[ord(c)] != c]

    def encode(text: str) -> str:
        for char, escape in swaps:
            text = text.replace(char, escape)
        return text

    return encode


@dataclass(frozen=True)
class Deviant:
    """A wrong encoder worth trying: the deviations it makes, its charset, and what it
    counts as (always one mistake: one encoder function)."""

    deviations: tuple[str, ...]
    charset: str = "utf-8"
    cost: int = 1

    @property
    def codes(self) -> tuple[str, ...]:
        return (*self.deviations, *((CHARSET,) if self.charset != "utf-8" else ()))

    @property
    def key(self) -> str:
        return "+".join(self.deviations) + ("" if self.charset == "utf-8" else f"/{self.charset}")

    @property
    def encoder(self) -> Encoder:
        return make(frozenset(self.deviations), self.charset)

    @property
    def outer(self) -> Encoder:
        """This encoder for the parameter string (see :func:`outer`)."""
        return outer(frozenset(self.deviations))

    def acts_on(self, chars: Set[str]) -> bool:
        """Whether each of its knobs changes something in text made of ``chars`` (an
        encoder with a knob that changes nothing is the one without it)."""
        if self.charset != "utf-8" and not _charset_acts(self.charset, chars):
            return False
        return all(_acts(d, chars) for d in self.deviations)


def _acts(deviation: str, chars: Set[str]) -> bool:
    if deviation == SPACE_PLUS:
        return " " in chars
    if deviation == TILDE:
        return "~" in chars
    if deviation == LOWER_HEX:  # an escape with a letter in it: %2F, %3A, UTF-8's %C3
        return any(not c.isascii() or any(h in "ABCDEF" for h in _RFC3986[ord(c)]) for c in chars)
    if deviation == KEEP_JS:  # with * alone it is star-not-encoded
        return bool(chars & set("!'()"))
    return bool(chars & set(_SAFE[deviation]))


def _charset_acts(charset: str, chars: Set[str]) -> bool:
    """Whether ``charset`` encodes the text's non-ASCII characters differently from UTF-8
    and from the charsets before it (ASCII makes them all ?)."""
    wide = "".join(sorted(c for c in chars if not c.isascii()))
    if not wide:
        return False
    seen = [_bytes(wide, c) for c in CHARSETS[: CHARSETS.index(charset)]]
    return _bytes(wide, charset) not in seen


# One knob a character class: its settings other than RFC 3986's (one at most is taken).
_KNOBS: tuple[tuple[str, ...], ...] = (
    (SPACE_PLUS,),
    (TILDE,),
    (KEEP_STAR, KEEP_JS),
    (KEEP_SLASH,),
    (KEEP_SUBDELIMS,),
    (LOWER_HEX,),
)


def deviants() -> list[Deviant]:
    """Every wrong encoder tried: each setting of up to :data:`MAX_KNOBS` knobs (the
    charset one of them), fewest knobs first, so that the first encoder to explain a
    signature names no knob that changes nothing."""
    out: list[Deviant] = []
    for count in range(1, MAX_KNOBS + 1):
        for knobs in combinations(_KNOBS, count):
            out += [Deviant(codes) for codes in product(*knobs)]
        for knobs in combinations(_KNOBS, count - 1):
            for charset in CHARSETS:
                out += [Deviant(codes, charset) for codes in product(*knobs)]
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
