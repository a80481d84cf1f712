"""OAuth 1.0a request signing with RSA-SHA256 (contract section 5, field notes "Signing").

The signed parameters are the body parameters plus ``oauth_consumer_key``, ``oauth_nonce``,
``oauth_signature_method`` (``RSA-SHA256``), ``oauth_timestamp`` and ``oauth_version``
(``1.0``). There is no ``oauth_token``, not even an empty one. Names and values are
percent-encoded per RFC 3986 (only ``A-Z a-z 0-9 - . _ ~`` stay as they are, a space is
``%20``), sorted by encoded name, then value, in byte order, and joined with ``&``. Repeated
names are all kept and empty values are signed too.

The signature base string is ``METHOD&enc(base string URI)&enc(normalized parameters)``. The
base string URI is computed by oauthlib's ``base_string_uri`` (RFC 5849 section 3.4.1.2):
lower-case scheme and host, default port dropped, the whole path kept (``/group/<id>`` is
signed too), query and fragment left out. When the URL does carry a query (the contract's
paths never do, but a path template could), its parameters are signed as RFC 5849 section
3.4.1.3.1 says: decoded as form data and added to the body parameters.

The signature is RSASSA-PKCS1-v1_5 over SHA-256 of the base string's bytes, made with
``cryptography``. Percent-encoding and normalization live in ``signing_encoding`` rather
than coming from oauthlib's helpers, which cost 10-20% of a 2048-bit RSA signature per
request; the tests hold them to oauthlib's ``normalize_parameters``,
``signature_base_string`` and ``Client`` on generated requests.
"""

from __future__ import annotations

import base64
import dataclasses
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from oauthlib.oauth1.rfc5849 import signature as _oauthlib_signature

from console.core.masking import is_sensitive, mask_params, mask_text
from console.core.signing_encoding import (
    encode_pairs,
    join_sorted,
    normalize_parameters,
    parse_form,
    percent_encode,
)

__all__ = [
    "CONTENT_TYPE",
    "OAUTH_VERSION",
    "SIGNATURE_METHOD",
    "SignedRequest",
    "base_string_uri",
    "normalize_parameters",
    "parse_form",
    "percent_encode",
    "sign",
    "signature_base_string",
]

SIGNATURE_METHOD = "RSA-SHA256"
OAUTH_VERSION = "1.0"
CONTENT_TYPE = "application/x-www-form-urlencoded"

_PADDING = padding.PKCS1v15()
_HASH = hashes.SHA256()


def base_string_uri(url: str) -> str:
    """Return the base string URI of ``url`` (RFC 5849 section 3.4.1.2).

    Scheme and host in lower case, default port (80 for http, 443 for https) dropped, the
    whole path kept, query and fragment left out.

    Raises:
        ValueError: the URL is not an absolute http or https address.
    """
    return _url_parts(url)[0]


def signature_base_string(method: str, url: str, pairs: Sequence[tuple[str, str]]) -> str:
    """Return the signature base string (RFC 5849 section 3.4.1.1).

    ``pairs`` are all parameters to sign besides those in the URL's query (which are
    added here): for this API, the body parameters and the five oauth parameters.
    """
    _, encoded_uri, query = _url_parts(url)
    return _base_string(method, encoded_uri, normalize_parameters([*query, *pairs]))


@dataclass(frozen=True, repr=False)
class SignedRequest:
    """A signed request with every intermediate value, ready to send or to inspect.

    Attributes:
        method: HTTP method, upper case.
        url: The request URL as given (it is what is sent).
        params: Body parameters in the order they are sent.
        oauth: The five signed oauth parameters (``oauth_signature`` is not among them).
        normalized_parameters: Sorted, encoded parameter string that is signed.
        base_string: The signature base string; its ASCII bytes are what the key signs.
        signature: The raw RSASSA-PKCS1-v1_5 SHA-256 signature.
        signature_hex: The signature in hex. A debugging aid only: it is never put into
            the header or the body (contract section 5).
        signature_base64: The signature in base64, as sent (percent-encoded) in the header.
        authorization: The full ``Authorization`` header value.
        body: The form-urlencoded body (RFC 3986 encoding, ``%20`` for a space).
        headers: ``Content-Type`` and ``Authorization``.
        is_masked: True for a copy made by :meth:`masked`, whose body and base string no
            longer match the signature.
    """

    method: str
    url: str
    params: tuple[tuple[str, str], ...]
    oauth: dict[str, str]
    normalized_parameters: str
    base_string: str
    signature: bytes
    signature_hex: str
    signature_base64: str
    authorization: str
    body: str
    headers: dict[str, str]
    is_masked: bool = False

    def masked(self) -> SignedRequest:
        """Return a copy fit to show or store: card numbers and CVV2 masked.

        The body, the normalized parameters and the base string are rebuilt from the masked
        parameters. The signature and the header are those of the real request, so they no
        longer verify against the masked base string.
        """
        url = self.url
        query = _url_parts(url)[2]
        if any(is_sensitive(name) for name, _ in query):
            url = mask_text(url, query)
        params = tuple(mask_params(self.params))
        body, normalized, base, _ = _assemble(
            self.method, self.url, params, self.oauth, masked=True
        )
        return dataclasses.replace(
            self,
            url=url,
            params=params,
            normalized_parameters=normalized,
            base_string=base,
            body=body,
            is_masked=True,
        )

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict (the CLI's ``sign --json`` object)."""
        return {
            "method": self.method,
            "url": self.url,
            "body": self.body,
            "params": [[name, value] for name, value in self.params],
            "oauth": dict(self.oauth),
            "normalized_parameters": self.normalized_parameters,
            "base_string": self.base_string,
            "signature_hex": self.signature_hex,
            "signature_base64": self.signature_base64,
            "authorization": self.authorization,
            "masked": self.is_masked,
        }

    def __repr__(self) -> str:
        # The default repr would print every parameter, card number and CVV2 included,
        # into any log or traceback that shows the object.
        return (
            f"SignedRequest(method={self.method!r}, url={self.url!r}, "
            f"params={len(self.params)}, nonce={self.oauth.get('oauth_nonce')!r}, "
            f"masked={self.is_masked})"
        )


def sign(
    url: str,
    params: Sequence[tuple[str, str]],
    *,
    consumer_key: str,
    private_key: rsa.RSAPrivateKey,
    nonce: str | None = None,
    timestamp: int | None = None,
    method: str = "POST",
) -> SignedRequest:
    """Sign a request to ``url`` with body ``params``.

    Args:
        url: Full request URL, e.g. ``https://host/paynet/api/v4/payout-check/123``.
        params: Body parameters, in the order they are to be sent.
        consumer_key: The merchant's login (``oauth_consumer_key``); never a body parameter.
        private_key: The merchant's RSA private key.
        nonce: Fixed nonce, for tests and reproducible CLI output; random when None.
        timestamp: Fixed Unix time in seconds; the current time when None.
        method: HTTP method; the contract uses POST only.

    Raises:
        ValueError: empty login or nonce, negative timestamp, a body parameter named
            ``oauth_*``, text that cannot be encoded, or a URL that is not http(s).
        TypeError: the key is not an RSA private key.
    """
    if not isinstance(private_key, rsa.RSAPrivateKey):
        raise TypeError(
            f"Signing needs an RSA private key, got {type(private_key).__name__}. "
            "Load the key with console.core.keys.load_private_key."
        )
    if not consumer_key:
        raise ValueError("The login (OAuth consumer key) is empty: set the login to sign with.")
    for name, _ in params:
        if name.startswith("oauth_"):
            raise ValueError(
                f"Body parameter {name!r} is not allowed: oauth_* parameters are made by the "
                "signer and travel in the Authorization header. Remove the field."
            )
    if nonce is None:
        nonce = secrets.token_hex(16)
    elif not nonce:
        raise ValueError("The nonce is empty: give a non-empty nonce or leave it out.")
    if timestamp is None:
        timestamp = int(time.time())
    elif timestamp < 0:
        raise ValueError(f"The timestamp {timestamp} is negative: give Unix time in seconds.")

    oauth = {
        "oauth_consumer_key": consumer_key,
        "oauth_nonce": nonce,
        "oauth_signature_method": SIGNATURE_METHOD,
        "oauth_timestamp": str(timestamp),
        "oauth_version": OAUTH_VERSION,
    }
    method = method.upper()
    params = tuple(params)
    body, normalized, base, encoded_oauth = _assemble(method, url, params, oauth)
    signature = private_key.sign(base.encode("ascii"), _PADDING, _HASH)
    signature_base64 = base64.b64encode(signature).decode("ascii")
    authorization = _authorization(encoded_oauth, signature_base64)
    return SignedRequest(
        method=method,
        url=url,
        params=params,
        oauth=oauth,
        normalized_parameters=normalized,
        base_string=base,
        signature=signature,
        signature_hex=signature.hex(),
        signature_base64=signature_base64,
        authorization=authorization,
        body=body,
        headers={"Content-Type": CONTENT_TYPE, "Authorization": authorization},
    )


def _authorization(encoded_oauth: list[tuple[str, str]], signature_base64: str) -> str:
    """Format ``OAuth name="value", ...`` from encoded oauth pairs and the signature.

    Parameters appear in the contract's table order, which is also byte order of the names.
    """
    # Base64 needs only these three escapes; quote() would walk ~350 characters in Python.
    signature = signature_base64.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    oauth = dict(encoded_oauth)
    return (
        f'OAuth oauth_consumer_key="{oauth["oauth_consumer_key"]}", '
        f'oauth_nonce="{oauth["oauth_nonce"]}", '
        f'oauth_signature="{signature}", '
        f'oauth_signature_method="{oauth["oauth_signature_method"]}", '
        f'oauth_timestamp="{oauth["oauth_timestamp"]}", '
        f'oauth_version="{oauth["oauth_version"]}"'
    )


def _assemble(
    method: str,
    url: str,
    params: Sequence[tuple[str, str]],
    oauth: Mapping[str, str],
    *,
    masked: bool = False,
) -> tuple[str, str, str, list[tuple[str, str]]]:
    """Return body, normalized parameters, base string and the encoded oauth pairs.

    Each pair is encoded once and used for both the body and the normalized string.
    """
    _, encoded_uri, query = _url_parts(url)
    encoded_body = encode_pairs(params)
    body = "&".join([f"{name}={value}" for name, value in encoded_body])
    # Few and mostly plain: encoding them one by one is quicker than the batch.
    encoded_oauth = [(name, percent_encode(value)) for name, value in oauth.items()]
    if query:
        encoded_query = encode_pairs(mask_params(query) if masked else query)
        normalized = join_sorted([*encoded_query, *encoded_body, *encoded_oauth])
    else:
        normalized = join_sorted([*encoded_body, *encoded_oauth])
    return body, normalized, _base_string(method, encoded_uri, normalized), encoded_oauth


def _base_string(method: str, encoded_uri: str, normalized: str) -> str:
    # The normalized string holds only unreserved characters, "%", "=" and "&", so encoding
    # it again comes down to these three replacements ("%" first).
    escaped = normalized.replace("%", "%25").replace("&", "%26").replace("=", "%3D")
    return f"{percent_encode(method.upper())}&{encoded_uri}&{escaped}"


@lru_cache(maxsize=128)
def _url_parts(url: str) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """Return (base string URI, its encoded form, decoded query pairs), once per URL."""
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
    uri = str(_oauthlib_signature.base_string_uri(url))
    return uri, percent_encode(uri), query
