"""OAuth 1.0a request signing with RSA-SHA256 (contract section 5, field notes "Signing").

The signed parameters are the body parameters plus ``oauth_consumer_key``, ``oauth_nonce``,
``oauth_signature_method`` (``RSA-SHA256``), ``oauth_timestamp`` and ``oauth_version``
(``1.0``). There is no ``oauth_token``, not even an empty one. Names and values are signed
exactly as given (no trimming) and percent-encoded per RFC 3986 over UTF-8 (only
``A-Z a-z 0-9 - . _ ~`` stay as they are, a space is ``%20``, a NUL ``%00``), sorted by encoded
name, then value, in byte order, and joined with ``&``. Repeated names are all kept and empty
values are signed too. The body sent on the wire is made of the same encoded pairs.

Text with a lone surrogate has no UTF-8 form: it is refused with
:class:`UnencodableTextError` (an ``InputError``) naming the field, never replaced.

Modules, one job each:

- ``encoding``: percent-encoding (``urllib.parse.quote``), normalization, form parsing.
- ``base_string``: base string URI, signature base string, the body.
- ``request``: :class:`SignedRequest`, with its masked and unsigned copies and JSON form;
  :func:`shown_request`, what a front may show of it.
- ``signer``: :func:`sign` and the Authorization header.
"""

from __future__ import annotations

from console.core.signing.base_string import base_string_uri, signature_base_string
from console.core.signing.encoding import (
    UnencodableTextError,
    normalize_parameters,
    parse_form,
    percent_encode,
)
from console.core.signing.request import SignedRequest, shown_request
from console.core.signing.signer import CONTENT_TYPE, OAUTH_VERSION, SIGNATURE_METHOD, sign
from console.core.unsigned import UNSIGNED

__all__ = [
    "CONTENT_TYPE",
    "OAUTH_VERSION",
    "SIGNATURE_METHOD",
    "UNSIGNED",
    "SignedRequest",
    "UnencodableTextError",
    "base_string_uri",
    "normalize_parameters",
    "parse_form",
    "percent_encode",
    "shown_request",
    "sign",
    "signature_base_string",
]
