"""sign(): OAuth 1.0a RSA-SHA256 over the base string, and the Authorization header.

The signature is RSASSA-PKCS1-v1_5 over SHA-256 of the base string's bytes, made with
``cryptography``.
"""

from __future__ import annotations

import base64
import os
import time
from collections.abc import Sequence

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from console.core.signing.base_string import assemble
from console.core.signing.request import SignedRequest

SIGNATURE_METHOD = "RSA-SHA256"
OAUTH_VERSION = "1.0"
CONTENT_TYPE = "application/x-www-form-urlencoded"

_PADDING = padding.PKCS1v15()
_HASH = hashes.SHA256()


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
            ``oauth_*``, or a URL that is not http(s).
        UnencodableTextError: a name or value (or the login, nonce or URL) holds a lone
            surrogate, which has no UTF-8 form; the message names the field. It is a
            ``ValueError`` and an ``InputError``.
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
        # 16 bytes from the OS's CSPRNG, as secrets.token_hex(16) gives (secrets would also
        # load hmac and hashlib, a second OpenSSL binding, into every signing command)
        nonce = os.urandom(16).hex()
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
    built = assemble(method, url, params, oauth)
    signature = private_key.sign(built.base_string.encode("ascii"), _PADDING, _HASH)
    signature_base64 = base64.b64encode(signature).decode("ascii")
    authorization = _authorization(built.encoded_oauth, signature_base64)
    return SignedRequest(
        method=method,
        url=url,
        params=params,
        oauth=oauth,
        normalized_parameters=built.normalized,
        base_string=built.base_string,
        signature=signature,
        signature_hex=signature.hex(),
        signature_base64=signature_base64,
        authorization=authorization,
        body=built.body,
        headers={"Content-Type": CONTENT_TYPE, "Authorization": authorization},
    )


def _authorization(encoded_oauth: list[tuple[str, str]], signature_base64: str) -> str:
    """Format ``OAuth name="value", ...`` from encoded oauth pairs and the signature.

    Parameters appear in the contract's table order, which is also byte order of the names.
    """
    # Base64 text holds A-Z a-z 0-9 "+" "/" "=" only: these three escapes are its whole
    # percent-encoding (the tests hold it to quote()), without quote()'s walk through ~350
    # characters.
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
