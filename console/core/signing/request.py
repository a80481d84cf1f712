"""The signed request: every intermediate value, ready to send or to inspect."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from console.core.masking import is_sensitive, mask_params, mask_text
from console.core.signing.base_string import assemble, url_parts
from console.core.unsigned import UNSIGNED

_SIGNATURE_IN_HEADER = re.compile(r'oauth_signature="[^"]*"')


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
        is_unsigned: True for a copy made by :meth:`unsigned`: no signature in it at all.
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
    is_unsigned: bool = False

    def masked(self) -> SignedRequest:
        """Return a copy fit to show or store: card numbers and CVV2 masked.

        The body, the normalized parameters and the base string are rebuilt from the masked
        parameters. The signature and the header are those of the real request, so they no
        longer verify against the masked base string.
        """
        url = self.url
        query = url_parts(url).query
        if any(is_sensitive(name) for name, _ in query):
            url = mask_text(url, query)
        params = tuple(mask_params(self.params))
        built = assemble(self.method, self.url, params, self.oauth, masked=True)
        return dataclasses.replace(
            self,
            url=url,
            params=params,
            normalized_parameters=built.normalized,
            base_string=built.base_string,
            body=built.body,
            is_masked=True,
        )

    def unsigned(self) -> SignedRequest:
        """Return a copy without its signature: the raw, hex and base64 forms empty and
        :data:`UNSIGNED` where the header carries ``oauth_signature``. Everything else (the
        body, the oauth parameters, the base string) is kept: it is what the key would sign,
        and none of it lets the request through without the key."""
        authorization = _SIGNATURE_IN_HEADER.sub(
            f'oauth_signature="{UNSIGNED}"', self.authorization
        )
        headers = {
            name: authorization if name.lower() == "authorization" else value
            for name, value in self.headers.items()
        }
        return dataclasses.replace(
            self,
            signature=b"",
            signature_hex="",
            signature_base64="",
            authorization=authorization,
            headers=headers,
            is_unsigned=True,
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
            f"masked={self.is_masked}, unsigned={self.is_unsigned})"
        )


def shown_request(signed: SignedRequest, *, revealed: bool, answered: bool) -> SignedRequest:
    """The one rule for what a front may show (and so let be copied) of a signed request.

    Card data is masked unless the person revealed it for this request. The signature is
    withheld until the gateway has answered this very request: a request that was cancelled,
    refused, held for approval, is still waiting for a question or its answer, or never
    arrived must not leave the console in a form that pays out from a terminal, past the
    confirmation and the journal. Once answered, its nonce is spent at the gateway, which
    refuses a replay (contract section 5: a nonce is unique per request).
    """
    shown = signed if revealed else signed.masked()
    return shown if answered else shown.unsigned()
