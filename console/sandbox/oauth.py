"""OAuth 1.0a pieces as the server side computes them, written independently of the client's
signer so that one bug cannot hide in both: header parsing, RFC 3986 percent-encoding, the
normalized parameter string, the base string URI and the signature base string.

Values are decoded with ``surrogateescape``, so bytes that are not UTF-8 survive the round
trip and are signed exactly as the client sent them.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, unquote_to_bytes

_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_ENCODED = tuple(chr(b) if b in _UNRESERVED else f"%{b:02X}" for b in range(256))
_ALL_UNRESERVED = re.compile(r"[A-Za-z0-9\-._~]*")
# One header parameter: name="value", then a comma or the end.
_PARAM = re.compile(r'\s*([^\s=,"]+)\s*=\s*"([^"]*)"\s*(?:,|$)')
_DEFAULT_PORTS = {"http": "80", "https": "443"}


class HeaderError(ValueError):
    """The Authorization header cannot be read as an OAuth header."""


def percent_encode(text: str) -> str:
    """RFC 3986 encoding: only ``A-Z a-z 0-9 - . _ ~`` stay; UTF-8 bytes become ``%XX``."""
    if _ALL_UNRESERVED.fullmatch(text):
        return text
    return "".join(_ENCODED[b] for b in text.encode("utf-8", "surrogateescape"))


def parse_authorization(value: str) -> dict[str, str]:
    """The parameters of an ``OAuth k="v", ...`` header, percent-decoded.

    Raises:
        HeaderError: not the OAuth scheme, unreadable, or a parameter given twice.
    """
    scheme, _, rest = value.strip().partition(" ")
    if scheme.lower() != "oauth":
        raise HeaderError(f"the Authorization scheme is {scheme!r}, not OAuth")
    params: dict[str, str] = {}
    pos, rest = 0, rest.strip()
    while pos < len(rest):
        match = _PARAM.match(rest, pos)
        if match is None or match.end() == pos:
            raise HeaderError(f"cannot read the Authorization header near {rest[pos:][:40]!r}")
        name = unquote(match.group(1), errors="surrogateescape")
        if name in params:
            raise HeaderError(f"{name} is given twice in the Authorization header")
        params[name] = unquote(match.group(2), errors="surrogateescape")
        pos = match.end()
    return params


def parse_form(data: bytes) -> list[tuple[str, str]]:
    """Decode ``application/x-www-form-urlencoded`` data into (name, value) pairs, in order.

    ``+`` means a space, as in any form body; empty segments are skipped.
    """
    pairs: list[tuple[str, str]] = []
    for segment in data.split(b"&"):
        if not segment:
            continue
        name, _, value = segment.partition(b"=")
        pairs.append((_form_decode(name), _form_decode(value)))
    return pairs


def _form_decode(raw: bytes) -> str:
    return unquote_to_bytes(raw.replace(b"+", b" ")).decode("utf-8", "surrogateescape")


def base_string_uri(scheme: str, host: str, path: str) -> str:
    """Scheme and host in lower case, the default port dropped, the whole path kept."""
    scheme = scheme.lower()
    host = host.strip().lower()
    name, port = host, ""
    if host.startswith("["):  # IPv6 literal
        end = host.find("]")
        name, port = host[: end + 1], host[end + 2 :] if host[end + 1 : end + 2] == ":" else ""
    elif ":" in host:
        name, port = host.rsplit(":", 1)
    if port and port != _DEFAULT_PORTS.get(scheme):
        name = f"{name}:{port}"
    return f"{scheme}://{name}{path or '/'}"


def normalize_parameters(pairs: list[tuple[str, str]]) -> str:
    """Encode names and values, sort by name then value (byte order), join with ``&``."""
    encoded = sorted((percent_encode(n), percent_encode(v)) for n, v in pairs)
    return "&".join(f"{n}={v}" for n, v in encoded)


def signature_base_string(method: str, uri: str, pairs: list[tuple[str, str]]) -> str:
    """``METHOD&enc(uri)&enc(normalized parameters)``."""
    return "&".join(
        (method.upper(), percent_encode(uri), percent_encode(normalize_parameters(pairs)))
    )
