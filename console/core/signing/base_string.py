"""The signature base string (RFC 5849 section 3.4.1) and the body it is made with.

``METHOD&enc(base string URI)&enc(normalized parameters)``. The base string URI follows
RFC 5849 section 3.4.1.2 as oauthlib's ``base_string_uri`` reads it (the tests hold the two
to each other): lower-case scheme and host, an IP address in its canonical form, default port
dropped, the whole path kept (``/group/<id>`` is signed too), query and fragment left out,
spaces as ``%20``. It is written here with the standard library because oauthlib's import
loads an HTTP client and the e-mail package, a third of a ``sign`` command's start-up.

When the URL does carry a query (the contract's paths never do, but a path template
could), its parameters are signed as RFC 5849 section 3.4.1.3.1 says: decoded as form data and
added to the body parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from ipaddress import IPv6Address, ip_address
from urllib.parse import urlparse, urlsplit, urlunparse

from console.core.masking import mask_params
from console.core.signing.encoding import (
    encode_pairs,
    encode_text,
    join_sorted,
    normalize_parameters,
    parse_form,
    percent_encode,
)


@dataclass(frozen=True, slots=True)
class Assembled:
    """What is built from the parameters before the key signs.

    Attributes:
        body: the form-urlencoded body, as sent.
        normalized: the normalized parameter string.
        base_string: the signature base string (ASCII).
        encoded_oauth: the oauth parameters, percent-encoded, in the order given.
    """

    body: str
    normalized: str
    base_string: str
    encoded_oauth: list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class UrlParts:
    """The parts of a request URL that signing needs."""

    uri: str  # base string URI
    encoded_uri: str  # the same, percent-encoded
    query: tuple[tuple[str, str], ...]  # decoded query parameters, signed with the body


def base_string_uri(url: str) -> str:
    """Return the base string URI of ``url`` (RFC 5849 section 3.4.1.2).

    Scheme and host in lower case, default port (80 for http, 443 for https) dropped, the
    whole path kept, query and fragment left out.

    Raises:
        ValueError: the URL is not an absolute http or https address.
    """
    return url_parts(url).uri


def signature_base_string(method: str, url: str, pairs: Sequence[tuple[str, str]]) -> str:
    """Return the signature base string (RFC 5849 section 3.4.1.1).

    ``pairs`` are all parameters to sign besides those in the URL's query (which are
    added here): for this API, the body parameters and the five oauth parameters.
    """
    parts = url_parts(url)
    return _join(method, parts.encoded_uri, normalize_parameters([*parts.query, *pairs]))


def assemble(
    method: str,
    url: str,
    params: Sequence[tuple[str, str]],
    oauth: Mapping[str, str],
    *,
    masked: bool = False,
) -> Assembled:
    """Encode every pair once and build the body, normalized parameters and base string.

    ``masked``: the URL's query parameters are masked too (for a copy fit to show).

    Raises:
        UnencodableTextError: a name or value holds a lone surrogate.
        ValueError: the URL is not an absolute http or https address.
    """
    parts = url_parts(url)
    encoded_body = encode_pairs(params)
    body = "&".join([f"{name}={value}" for name, value in encoded_body])
    encoded_oauth = encode_pairs(list(oauth.items()))
    query = mask_params(parts.query) if masked else parts.query
    normalized = join_sorted([*encode_pairs(query), *encoded_body, *encoded_oauth])
    base = _join(method, parts.encoded_uri, normalized)
    return Assembled(body, normalized, base, encoded_oauth)


def _join(method: str, encoded_uri: str, normalized: str) -> str:
    # The normalized string is made of encoded pairs: unreserved characters, "%", "=" and "&"
    # only. Percent-encoding it again therefore comes down to these three replacements ("%"
    # first); the tests hold the result to quote() and oauthlib.
    escaped = normalized.replace("%", "%25").replace("&", "%26").replace("=", "%3D")
    return f"{percent_encode(method.upper())}&{encoded_uri}&{escaped}"


@lru_cache(maxsize=128)
def url_parts(url: str) -> UrlParts:
    """Return the base string URI, its encoded form and the decoded query, once per URL.

    Raises:
        ValueError: the URL is not an absolute http or https address, or its query has
            escapes that are not UTF-8.
        UnencodableTextError: the URL holds a lone surrogate.
    """
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError for a port that is not a number or too big
    except ValueError as exc:
        raise ValueError(f"The request URL {url!r} is not valid: {exc}.") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(
            f"The request URL {url!r} must be an absolute http or https address, "
            "e.g. https://gateway.example/paynet/api/v4/payout-check/123."
        )
    if port == 0:
        raise ValueError(f"The request URL {url!r} has port 0: give a real port or none.")
    try:
        query = tuple(parse_form(parts.query)) if parts.query else ()
    except UnicodeDecodeError:
        raise ValueError(
            f"The query of the request URL {url!r} has percent escapes that are not UTF-8."
        ) from None
    uri = _base_string_uri(url)
    return UrlParts(uri, encode_text("the request URL", uri), query)


def _base_string_uri(url: str) -> str:
    # RFC 5849 section 3.4.1.2, step by step as oauthlib's base_string_uri takes it (the URL
    # is already known to be absolute http(s) with a host and a valid port).
    parts = urlparse(url)
    scheme = parts.scheme.lower()
    host = parts.hostname or ""  # lower case already
    try:
        address = ip_address(host)
    except ValueError:
        pass
    else:
        host = f"[{address}]" if isinstance(address, IPv6Address) else str(address)
    port = parts.port
    netloc = (
        host if not port or (scheme, port) in (("http", 80), ("https", 443)) else f"{host}:{port}"
    )
    uri = urlunparse((scheme, netloc, parts.path or "/", parts.params, "", ""))
    return uri.replace(" ", "%20")
