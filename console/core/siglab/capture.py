"""A captured request as text: raw HTTP, or URL + Authorization header + body.

Whatever the form, the result is a :class:`Capture`: method, absolute URL, the
Authorization header as written and the body as sent. Input that cannot be read raises
:class:`CaptureError` with a message naming what is missing and how to give it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


class CaptureError(ValueError):
    """The request text cannot be read as a request."""


@dataclass(frozen=True)
class Capture:
    """A request as it went over the wire (body and header undecoded)."""

    method: str
    url: str
    authorization: str | None
    body: str
    content_type: str | None = None
    scheme_assumed: bool = False
    left_out: tuple[str, ...] = ()  # what the request text had that is not carried over

    def __repr__(self) -> str:  # the body may hold card data
        return f"Capture(method={self.method!r}, url={self.url!r}, body={len(self.body)} chars)"


def from_parts(
    url: str, authorization: str | None, body: str = "", *, method: str = "POST"
) -> Capture:
    """A capture from its parts, given separately (the URL must be absolute)."""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        raise CaptureError(f"The URL {url!r} cannot be read: its host is malformed.") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise CaptureError(
            f"The URL {url!r} is not an absolute http(s) address: give the full request URL, "
            "e.g. https://gateway.example/paynet/api/v4/payout-check/1001."
        )
    auth = authorization.strip() if authorization else None
    return Capture(method.strip().upper() or "POST", url, auth or None, body)


def parse_http(text: str, *, scheme: str | None = None) -> Capture:
    """Read raw HTTP request text: request line, headers, a blank line, the body.

    The request line may carry an absolute URL; otherwise the ``Host`` header and
    ``scheme`` make it absolute (None: HTTPS, marked as assumed). The body is
    ``Content-Length`` bytes when the header says so; without it, the text after the blank
    line less one final line break (where a pasted text or a saved file ends).
    """
    text = text.lstrip("\r\n")
    head, sep, body = text.partition("\r\n\r\n")
    if not sep or "\n\n" in head:
        head, _sep, body = text.partition("\n\n")
    head = head.replace("\r\n", "\n")
    lines = head.split("\n")
    words = lines[0].split()
    if len(words) < 2 or not (words[0].isalpha() and words[0].isupper()):
        raise CaptureError(
            f"The first line {lines[0][:60]!r} is not an HTTP request line: start with "
            "'POST /path HTTP/1.1', then the headers, a blank line and the body."
        )
    method, target = words[0].upper(), words[1]
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if line.startswith((" ", "\t")) and headers:  # an obsolete folded header line
            last = list(headers)[-1]
            headers[last] += " " + line.strip()
            continue
        name, colon, value = line.partition(":")
        if not colon or not name.strip():
            raise CaptureError(
                f"The header line {line[:60]!r} has no 'Name: value' form; leave a blank "
                "line between the headers and the body."
            )
        headers[name.strip().lower()] = value.strip()
    assumed = False
    if "://" in target:
        url = target
    else:
        host = headers.get("host")
        if not host:
            raise CaptureError(
                "The request has no Host header and its request line no absolute URL: add "
                "'Host: gateway.example' so the signed URL can be rebuilt."
            )
        assumed = scheme is None
        url = f"{scheme or 'https'}://{host}{target}"
    return Capture(
        method,
        url,
        headers.get("authorization"),
        _body(body, headers.get("content-length")),
        headers.get("content-type"),
        assumed,
    )


def _body(body: str, length: str | None) -> str:
    if length is None or not length.strip().isdigit():
        return body.removesuffix("\n").removesuffix("\r")
    data = body.encode("utf-8", "surrogateescape")
    size = int(length)
    if len(data) > size:
        return data[:size].decode("utf-8", "surrogateescape")
    if len(data) < size and "\r\n" not in body:
        # a capture whose line breaks were CR LF on the wire and lost theirs on the way
        crlf = body.replace("\n", "\r\n")
        if len(crlf.encode("utf-8", "surrogateescape")) == size:
            return crlf
    return body
