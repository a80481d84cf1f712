"""A command line split into words exactly as bash splits it (no library does: ``shlex``
and ``bashlex`` read ``$'..'`` wrong), for curl lines copied from a browser.

Read as bash reads them: blanks between words; single quotes (everything literal); double
quotes (a backslash escapes only ``$``, a backquote, ``"``, a backslash and a line end);
``$'..'`` with its escapes (``\\n``, ``\\'``, ``\\xHH``, ``\\nnn``, ``\\uHHHH``,
``\\UHHHHHHHH``, ``\\cX`` ...); ``$".."`` as double quotes; a backslash outside quotes;
quoted and unquoted parts joined into one word; a backslash at a line end continuing the
line; ``#`` starting a comment. Anything bash would read in a way a copy cannot show (a
variable, a command substitution, a second command after ``;``, ``&``, ``|`` or a line end
without a backslash, a redirection) is refused with :class:`BashWordsError`, never guessed.
Bytes from ``\\xHH`` and ``\\nnn`` are joined as bash joins them (UTF-8 text expected); a NUL
ends its word, as in bash. Glob characters (``*``, ``?``, ``[``) are kept as written: a
curl line names no files of this computer.
"""

from __future__ import annotations

import re

_BLANKS = " \t"
_OPERATORS = "|&;<>()"
_NAME_START = re.compile(r"[A-Za-z_0-9@*#?$!{(-]")  # what makes a $ an expansion
_SIMPLE_ESCAPES = {
    "a": b"\a",
    "b": b"\b",
    "e": b"\x1b",
    "E": b"\x1b",
    "f": b"\f",
    "n": b"\n",
    "r": b"\r",
    "t": b"\t",
    "v": b"\v",
    "\\": b"\\",
    "'": b"'",
    '"': b'"',
    "?": b"?",
}
_HEX = "0123456789abcdefABCDEF"
_OCTAL = "01234567"
_DOUBLE_QUOTE_ESCAPES = '$`"\\'


class BashWordsError(ValueError):
    """The line cannot be split as bash would run it (unbalanced quotes, an expansion...)."""


def bash_words(text: str) -> list[str]:
    """The words bash passes to the command ``text`` runs.

    Raises:
        BashWordsError: unbalanced quotes, or something bash would expand or run apart.
    """
    return _Reader(text.replace("\r\n", "\n")).words()


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def words(self) -> list[str]:
        words: list[str] = []
        text = self.text
        while True:
            while self.at < len(text) and text[self.at] in _BLANKS:
                self.at += 1
            if self.at >= len(text):
                return words
            char = text[self.at]
            if text.startswith("\\\n", self.at):  # a continuation between words
                self.at += 2
            elif char == "#":  # a comment, to the line's end
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end
            elif char == "\n":
                if text[self.at :].strip():
                    raise BashWordsError(
                        f"line {text.count(chr(10), 0, self.at) + 1} ends without a backslash, "
                        "so bash would run the next line as another command: join the lines, "
                        "or end each but the last with a backslash."
                    )
                return words
            else:
                words.append(self.word())

    def word(self) -> str:
        """One word from here: its parts, quoted or not, joined (as UTF-8 bytes first)."""
        text = self.text
        out = bytearray()
        while self.at < len(text):
            char = text[self.at]
            if char in _BLANKS or char == "\n":
                break
            if char in _OPERATORS:
                raise BashWordsError(
                    f"The line holds {char!r} outside quotes (character {self.at + 1}): bash "
                    "would read it as an operator (another command, a redirection). Quote the "
                    "word it belongs to."
                )
            if char == "'":
                out += self.single_quoted()
            elif char == '"':
                out += self.double_quoted(self.at + 1)
            elif char == "$":
                out += self.dollar()
            elif char == "`":
                raise self.expansion("`")
            elif char == "\\":
                follows = text[self.at + 1 : self.at + 2]
                if not follows:  # bash would wait for the rest of the command
                    raise BashWordsError(
                        "The line ends with a backslash, so the rest of the command is "
                        "missing: copy the whole command, or remove the last backslash."
                    )
                self.at += 2
                if follows != "\n":  # backslash-newline: the line goes on, nothing is kept
                    out += follows.encode()
            else:
                out += char.encode()
                self.at += 1
        return _text(bytes(out))

    def single_quoted(self) -> bytes:
        end = self.text.find("'", self.at + 1)
        if end < 0:
            raise self.unclosed("'")
        part = self.text[self.at + 1 : end]
        self.at = end + 1
        return part.encode()

    def double_quoted(self, start: int) -> bytes:
        text = self.text
        out = bytearray()
        i = start
        while i < len(text):
            char = text[i]
            if char == '"':
                self.at = i + 1
                return bytes(out)
            if char == "\\" and i + 1 < len(text):
                follows = text[i + 1]
                if follows == "\n":
                    i += 2
                    continue
                if follows in _DOUBLE_QUOTE_ESCAPES:
                    out += follows.encode()
                    i += 2
                    continue
            if char == "`" or (char == "$" and _NAME_START.match(text, i + 1)):
                self.at = i
                raise self.expansion(text[i : i + 2])
            out += char.encode()
            i += 1
        raise self.unclosed('"')

    def dollar(self) -> bytes:
        text = self.text
        follows = text[self.at + 1 : self.at + 2]
        if follows == "'":
            return self.ansi_c()
        if follows == '"':  # a translatable string: in the C locale, double quotes
            self.at += 1
            return self.double_quoted(self.at + 1)
        if follows and _NAME_START.match(follows):
            raise self.expansion(text[self.at : self.at + 2])
        self.at += 1
        return b"$"

    def ansi_c(self) -> bytes:
        """``$'..'`` from its ``$``: its escapes decoded as bash decodes them."""
        text = self.text
        out = bytearray()
        i = self.at + 2
        while i < len(text):
            char = text[i]
            if char == "'":
                self.at = i + 1
                return bytes(out)
            if char != "\\" or i + 1 >= len(text):
                out += char.encode()
                i += 1
                continue
            decoded, i = _escape(text, i + 1)
            out += decoded
        raise self.unclosed("$'")

    def expansion(self, what: str) -> BashWordsError:
        return BashWordsError(
            f"The line holds {what!r} outside single quotes (character {self.at + 1}): bash "
            "would put a variable's or a command's output there, which a copied line cannot "
            "show. Write the value itself, in single quotes."
        )

    def unclosed(self, quote: str) -> BashWordsError:
        return BashWordsError(
            f"The quote {quote} opened at character {self.at + 1} is never closed: check the "
            "quotes (the line is cut short, or a quote inside a value needs escaping)."
        )


def _escape(text: str, i: int) -> tuple[bytes, int]:
    """The escape after a backslash at ``i - 1`` inside ``$'..'``: its bytes and the index
    after it (bash's ``ansicstr``: an escape it does not know keeps its backslash)."""
    char = text[i]
    if char in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[char], i + 1
    if char in _OCTAL:
        digits = _run(text, i, _OCTAL, 3)
        return bytes([int(digits, 8) & 0xFF]), i + len(digits)
    if char == "x":
        digits = _run(text, i + 1, _HEX, 2)
        if not digits:
            return b"\\x", i + 1
        return bytes([int(digits, 16)]), i + 1 + len(digits)
    if char in "uU":
        digits = _run(text, i + 1, _HEX, 4 if char == "u" else 8)
        if not digits:
            return f"\\{char}".encode(), i + 1
        code = int(digits, 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise BashWordsError(
                f"\\{char}{digits} is not a character: write the character itself instead."
            )
        return chr(code).encode(), i + 1 + len(digits)
    if char == "c" and i + 1 < len(text):
        target = text[i + 1]
        skip = 2
        if target == "\\" and text[i + 2 : i + 3] == "\\":
            skip = 3  # \c\\ is control-backslash
        code = 0x7F if target == "?" else ord(target.upper()) & 0x1F
        return bytes([code]), i + skip
    return f"\\{char}".encode(), i + 1


def _run(text: str, start: int, allowed: str, most: int) -> str:
    end = start
    while end < len(text) and end - start < most and text[end] in allowed:
        end += 1
    return text[start:end]


def _text(word: bytes) -> str:
    """The word as text: cut at a NUL (bash passes C strings), UTF-8 expected."""
    word = word.split(b"\0", 1)[0]
    try:
        return word.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BashWordsError(
            f"A word of the line is not UTF-8 text (byte 0x{word[exc.start]:02X} from an "
            "escape such as \\xHH): write the characters themselves."
        ) from None
