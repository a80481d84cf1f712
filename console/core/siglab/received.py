"""What a gateway reads from a captured request: URL parts, parameters and the OAuth header.

Values are decoded with ``surrogateescape`` so bytes that are not UTF-8 survive and are
encoded back exactly as they came.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import unquote, unquote_plus, urlsplit

from console.core.masking import mask_params, mask_text, mask_value
from console.core.siglab.capture import Capture, CaptureError

Pairs = tuple[tuple[str, str], ...]

SIGNED_OAUTH = (
    "oauth_consumer_key",
    "oauth_nonce",
    "oauth_signature_method",
    "oauth_timestamp",
    "oauth_version",
)
_PARAM = re.compile(r'\s*([^\s=,"]+)\s*=\s*"([^"]*)"\s*(?:,|$)')
# what hand-built headers do: values unquoted, parameters joined with ; (or , and ;)
_LOOSE = re.compile(r'\s*([^\s=,;"]+)\s*=\s*(?:"([^"]*)"|([^\s,;"]*))\s*([,;]|$)')
HEADER = "header"


@dataclass(frozen=True)
class Received:
    """A request as the gateway sees it.

    Attributes:
        method: HTTP method, upper case.
        scheme, host, port, path: the URL's parts as written (case kept; port None when
            the URL names none).
        query, body: decoded parameters, in the order sent.
        body_raw: the body's ``name=value`` segments as sent (undecoded), when known.
        oauth: every parameter of the Authorization header except ``oauth_signature``,
            decoded, in header order (``oauth_token`` and ``realm`` too, when present).
        signature_text: ``oauth_signature`` as written in the header (still encoded).
        header_names: every parameter name of the header in order, repeats included.
        query_text: the URL's query as sent (undecoded), without ``?``.
        body_text: the body as sent (decoded as UTF-8, bytes that are not kept as they came).
        content_type: the Content-Type header, when known.
        scheme_assumed: the scheme was not in the request text (raw HTTP without a full URL).
        header_problems: mistake codes of a header the gateway cannot read, read anyway
            (``header-unquoted``, ``header-separator``).
        oauth_place: where the oauth parameters were found: ``header``, or ``body`` or
            ``query`` when there was no Authorization header (authlib's BODY and QUERY types).
        known_ids: endpoint and group ids the signer owns, to try a path signed for another.
    """

    method: str
    scheme: str
    host: str
    port: int | None
    path: str
    query: Pairs
    body: Pairs
    body_raw: Pairs | None
    oauth: Pairs
    signature_text: str
    header_names: tuple[str, ...] = ()
    query_text: str = ""
    body_text: str = ""
    content_type: str | None = None
    scheme_assumed: bool = False
    header_problems: tuple[str, ...] = ()
    oauth_place: str = HEADER
    known_ids: tuple[str, ...] = ()

    def oauth_value(self, name: str) -> str | None:
        return next((v for n, v in self.oauth if n == name), None)

    @property
    def signed_oauth(self) -> Pairs:
        """The five oauth parameters this API signs, as the header gave them (once each)."""
        seen: dict[str, str] = {}
        for name, value in self.oauth:
            if name in SIGNED_OAUTH:
                seen.setdefault(name, value)
        return tuple(seen.items())

    def masked(self) -> Received:
        """A copy with card numbers and CVV2 masked, to build base strings fit to show."""
        raw = None if self.body_raw is None else tuple(mask_params(self.body_raw))
        secrets = (*self.query, *self.body)
        return replace(
            self,
            query=tuple(mask_params(self.query)),
            body=tuple(mask_params(self.body)),
            body_raw=raw,
            oauth=tuple(
                (n, v if n.startswith("oauth_") else mask_value(n, v)) for n, v in self.oauth
            ),
            query_text=mask_text(self.query_text, secrets),
            body_text=mask_text(self.body_text, secrets),
        )


def from_capture(capture: Capture) -> Received:
    """Read a capture the way the gateway does.

    Raises:
        CaptureError: no readable OAuth Authorization header, no ``oauth_signature``, or a
            URL that is not absolute http(s).
    """
    try:
        parts = urlsplit(capture.url)
        port = parts.port
    except ValueError:
        raise CaptureError(
            f"The URL {capture.url!r} cannot be read: its host or port is malformed."
        ) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise CaptureError(f"The URL {capture.url!r} is not an absolute http(s) address.")
    host = parts.netloc.rpartition("@")[2]
    host = host.rsplit(":", 1)[0] if port is not None else host
    body = capture.body  # byte for byte: a final line feed is part of the last value
    query = parts.query
    place = HEADER
    if capture.authorization:
        params, problems = header_params(capture.authorization)
    else:  # the oauth parameters may have gone in the body or the query instead
        place, params, query, body = _oauth_elsewhere(query, body)
        problems = ()
    return Received(
        method=capture.method.upper(),
        scheme=capture.url.strip().split("://", 1)[0],  # urlsplit lowers it: keep as written
        host=host,
        port=port,
        path=parts.path or "/",
        query=_form(query),
        body=_form(body),
        body_raw=tuple(_segments(body)),
        oauth=tuple(
            (unquote(n), unquote(v, errors="surrogateescape"))
            for n, v in params
            if n != "oauth_signature"
        ),
        signature_text=_signature_text(params),
        header_names=tuple(unquote(n) for n, _ in params),
        query_text=query,
        body_text=body,
        content_type=capture.content_type,
        scheme_assumed=capture.scheme_assumed,
        header_problems=problems,
        oauth_place=place,
    )


def from_wire(
    method: str,
    scheme: str,
    host: str,
    path: str,
    query: bytes,
    authorization: str | None,
    body: bytes,
    content_type: str | None = None,
) -> Received:
    """A request as a server read it off the wire (the sandbox's view), byte for byte."""
    text = query.decode("utf-8", "surrogateescape")
    url = f"{scheme}://{host}{path}" + (f"?{text}" if text else "")
    body_text = body.decode("utf-8", "surrogateescape")
    return from_capture(Capture(method, url, authorization, body_text, content_type))


def _form(text: str) -> Pairs:
    return tuple((_decode(name), _decode(value)) for name, value in _segments(text))


def _segments(text: str) -> list[tuple[str, str]]:
    out = []
    for segment in text.split("&"):
        if segment:
            name, _, value = segment.partition("=")
            out.append((name, value))
    return out


def _decode(raw: str) -> str:
    return unquote_plus(raw, errors="surrogateescape")


def header_params(authorization: str) -> tuple[list[tuple[str, str]], tuple[str, ...]]:
    """The header's parameters as written, and the codes of what makes it unreadable to
    the gateway (read anyway, so that the signature can be checked too).

    Raises:
        CaptureError: not the OAuth scheme, or not name=value pairs even read loosely.
    """
    scheme, _, rest = authorization.strip().partition(" ")
    if scheme.lower() != "oauth":
        raise CaptureError(f"The Authorization scheme is {scheme!r}, not OAuth.")
    rest = rest.strip()
    strict = _read(rest, _PARAM)
    if strict is not None:
        return [(m.group(1), m.group(2)) for m in strict], ()
    loose = _read(rest, _LOOSE)
    if loose is None:
        pos = len(rest) - len(rest.lstrip())
        raise CaptureError(
            f"The Authorization header cannot be read near {rest[pos:][:40]!r}: each "
            'parameter is name="value", separated by commas.'
        )
    problems = []
    if any(m.group(2) is None for m in loose):
        problems.append("header-unquoted")
    if any(m.group(4) == ";" for m in loose):
        problems.append("header-separator")
    return [(m.group(1), m.group(2) or m.group(3) or "") for m in loose], tuple(problems)


def _read(rest: str, pattern: re.Pattern[str]) -> list[re.Match[str]] | None:
    out, pos = [], 0
    while pos < len(rest):
        match = pattern.match(rest, pos)
        if match is None or match.end() == pos:
            return None
        out.append(match)
        pos = match.end()
    return out


def _oauth_elsewhere(query: str, body: str) -> tuple[str, list[tuple[str, str]], str, str]:
    """The oauth parameters of a request without an Authorization header, from the body or
    the query (as sent, undecoded), and the query and body without them."""
    for place in ("body", "query"):
        text = body if place == "body" else query
        segments = _segments(text)
        oauth = [(n, v) for n, v in segments if _decode(n).startswith("oauth_")]
        if any(_decode(n) == "oauth_signature" for n, _ in oauth):
            rest = "&".join(f"{n}={v}" for n, v in segments if not _decode(n).startswith("oauth_"))
            params = [(_decode(n), v.replace("+", "%20")) for n, v in oauth]
            return (place, params, *((query, rest) if place == "body" else (rest, body)))
    raise CaptureError(
        "The request has no Authorization header, and no oauth_signature in its body or "
        "query: give the request as it was sent, headers included."
    )


def _signature_text(params: list[tuple[str, str]]) -> str:
    for name, value in params:
        if name == "oauth_signature":
            return value
    raise CaptureError("The Authorization header has no oauth_signature: nothing to verify.")
