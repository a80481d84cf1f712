"""Reading files a person names (keys, requests, fields files, batch files, or standard input
in their place): a size cap and JSON of any depth.

``Path.read_bytes`` on ``/dev/zero`` or a runaway file never returns, and ``json.loads``
raises ``RecursionError`` on deeply nested input; both are the input's fault and are said so
here, as :class:`InputFileError` with a message that says what is wrong.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

# A private or public key PEM: a 4096-bit key is about 3.3 KiB; certificates beside it fit too.
MAX_KEY_FILE = 64 * 1024
# A request pasted or saved as text (raw HTTP or a curl line): merchant_data (64k) and the
# rest of a request fit many times over.
MAX_REQUEST_TEXT = 4 * 1024 * 1024


class InputFileError(ValueError):
    """The file is too large, or its JSON nests too deeply; the message says which."""


def read_capped(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, reading at most ``limit`` of them.

    Raises:
        OSError: the file cannot be opened or read.
        InputFileError: it holds more than ``limit`` bytes (or never ends, like /dev/zero).
    """
    with path.open("rb") as fh:
        return read_stream_capped(fh, limit)


def read_stream_capped(stream: BinaryIO, limit: int) -> bytes:
    """At most ``limit`` bytes of ``stream`` (standard input, say), read to its end.

    Raises:
        InputFileError: it holds more than ``limit`` bytes (or never ends).
    """
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputFileError(f"it is larger than {_size(limit)}, the most read here")
    return data


def parse_json(text: str, *, exact_numbers: bool = False) -> Any:
    """``json.loads``, with nesting too deep for the parser said as a problem of the text.
    ``exact_numbers``: a number with a fraction or an exponent is the Decimal it writes
    (``10.50`` stays 10.50, ``0.1`` is not the binary fraction nearest to it).

    Raises:
        ValueError: not JSON (``json.JSONDecodeError``), or nested too deeply.
    """
    try:
        return json.loads(text, parse_float=Decimal if exact_numbers else None)
    except RecursionError:
        raise InputFileError(
            "it nests lists or objects too deeply to read: field values are plain strings "
            "or numbers"
        ) from None


def _size(limit: int) -> str:
    mib = limit / (1024 * 1024)
    return f"{mib:g} MiB" if mib >= 1 else f"{limit // 1024} KiB"
