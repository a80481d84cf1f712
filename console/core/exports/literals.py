"""String literals of each target language, written in ASCII whatever the text holds.

A value reaches the generated program as a literal, and a literal is a second place where
encoding goes wrong: Java reads ``\\u000a`` as a line break before it lexes, Go refuses
surrogate halves, PHP interpolates ``$``. Each function escapes exactly what its language
needs and writes every other non-ASCII character as an escape, so the program file is ASCII.
"""

from __future__ import annotations

import json


def python(text: str) -> str:
    """A Python literal (``ascii()`` escapes everything outside printable ASCII)."""
    return ascii(text)


def javascript(text: str) -> str:
    """A JavaScript literal: JSON's, with U+2028 and U+2029 escaped too (ensure_ascii)."""
    return json.dumps(text, ensure_ascii=True)


def php(text: str) -> str:
    """A double-quoted PHP literal: ``\\u{...}`` escapes, ``$`` kept from interpolating."""
    out = []
    for ch in text:
        if ch in '"\\$':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.append(f"\\u{{{ord(ch):x}}}")
    return '"' + "".join(out) + '"'


def java(text: str) -> str:
    """A Java literal: UTF-16 ``\\u`` escapes, but octal ones for control characters.

    Java turns ``\\uXXXX`` into the character before it lexes, so a line feed written that
    way would end the literal; octal escapes are read only inside the literal.
    """
    out = []
    for unit in text.encode("utf-16-be", "surrogatepass").hex(" ", 2).split():
        code = int(unit, 16)
        ch = chr(code)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= code < 0x7F:
            out.append(ch)
        elif code < 0x80:
            out.append(f"\\{code:03o}")
        else:
            out.append(f"\\u{code:04x}")
    return '"' + "".join(out) + '"'


def go(text: str) -> str:
    """A Go interpreted literal: ``\\x`` for ASCII controls, ``\\u``/``\\U`` for the rest."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= code < 0x7F:
            out.append(ch)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'
