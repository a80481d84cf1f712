"""Signing held against an independent implementation: oauthlib (RSA through PyJWT).

oauthlib's ``Client`` writes its header parameters in its own order (nonce, timestamp,
version, signature method, consumer key, signature) where ours follow the contract's table;
the header is compared part by part (byte-identical ``name="value"`` parts, same scheme word
and separators), and the signatures byte for byte. oauthlib needs PyJWT for RSA; the test
extra installs it, and these tests fail (not skip) without it.
"""

from __future__ import annotations

import base64
from urllib.parse import quote

import oauthlib.oauth1
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from hypothesis import given, settings
from hypothesis import strategies as st
from oauthlib.oauth1.rfc5849 import signature as oauthlib_signature

from console.core.signing import (
    base_string_uri,
    normalize_parameters,
    percent_encode,
    sign,
    signature_base_string,
)

FORM = {"Content-Type": "application/x-www-form-urlencoded"}

_CHARS = st.characters(blacklist_categories=("Cs",))
_SPECIAL = st.sampled_from([" ", "+", "&", "=", "~", "%", "%20", "a+b", "ü", "€", "\n", '"', ","])
_TEXT = st.one_of(
    st.text(_CHARS, max_size=10),
    st.lists(st.one_of(_SPECIAL, st.text(_CHARS, max_size=3)), max_size=5).map("".join),
)
_NAME = st.one_of(
    st.sampled_from(["amount", "client_orderid", "order_desc", "card_printed_name", "a b", "x"]),
    _TEXT.filter(bool),
).filter(lambda n: not n.startswith("oauth_"))
_PARAMS = st.lists(st.tuples(_NAME, _TEXT), max_size=8)


@st.composite
def _urls(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["https", "http", "HTTPS"]))
    host = draw(st.sampled_from(["gateway.example", "Sandbox.Gateway.EXAMPLE", "127.0.0.1"]))
    default = "443" if scheme.lower() == "https" else "80"
    port = draw(st.sampled_from(["", f":{default}", ":8443", ":8080"]))
    command = draw(st.sampled_from(["payout-check", "create-card-ref", "status"]))
    ident = draw(st.integers(1, 10**9))
    group = draw(st.booleans())
    return f"{scheme}://{host}{port}/paynet/api/v4/{command}/{'group/' if group else ''}{ident}"


@pytest.fixture(scope="module")
def key_pem(rsa_key: rsa.RSAPrivateKey) -> str:
    return rsa_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,  # PKCS#1, as the contract names it
        serialization.NoEncryption(),
    ).decode("ascii")


def _header_parts(authorization: str) -> list[str]:
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "OAuth"
    return rest.split(", ")


def _oauthlib_sign(
    oauthlib_key: str | rsa.RSAPrivateKey,
    url: str,
    body: str,
    login: str,
    nonce: str,
    timestamp: int,
) -> tuple[str, str, str]:
    client = oauthlib.oauth1.Client(
        client_key=login,
        signature_method=oauthlib.oauth1.SIGNATURE_RSA_SHA256,
        rsa_key=oauthlib_key,  # type: ignore[arg-type]
        nonce=nonce,
        timestamp=str(timestamp),
    )
    uri, headers, signed_body = client.sign(url, http_method="POST", body=body, headers=dict(FORM))
    return uri, headers["Authorization"], signed_body


def _oauthlib_base_string(url: str, body: str, authorization: str) -> str:
    """The base string as oauthlib's server side would rebuild it from the wire."""
    collected = oauthlib_signature.collect_parameters(
        uri_query=url.partition("?")[2], body=body, headers={"Authorization": authorization}
    )
    return str(
        oauthlib_signature.signature_base_string(
            "POST",
            oauthlib_signature.base_string_uri(url),
            oauthlib_signature.normalize_parameters(collected),
        )
    )


def _check_against_oauthlib(
    key: rsa.RSAPrivateKey,
    oauthlib_key: str | rsa.RSAPrivateKey,
    url: str,
    params: list[tuple[str, str]],
    login: str,
    nonce: str,
    timestamp: int,
) -> None:
    ours = sign(url, params, consumer_key=login, private_key=key, nonce=nonce, timestamp=timestamp)
    uri, authorization, body = _oauthlib_sign(oauthlib_key, url, ours.body, login, nonce, timestamp)

    assert uri == url
    assert body == ours.body
    # Same parts, byte for byte; ours in the contract's (byte) order.
    theirs = _header_parts(authorization)
    assert _header_parts(ours.authorization) == sorted(theirs)
    assert ours.authorization == "OAuth " + ", ".join(sorted(theirs))
    assert f'oauth_signature="{quote(ours.signature_base64, safe="")}"' in theirs
    assert _oauthlib_base_string(url, ours.body, ours.authorization) == ours.base_string

    signature = base64.b64decode(ours.signature_base64)
    assert signature == ours.signature
    key.public_key().verify(
        signature, ours.base_string.encode("ascii"), padding.PKCS1v15(), hashes.SHA256()
    )


@given(
    url=_urls(),
    params=_PARAMS,
    login=_TEXT.filter(bool),
    nonce=st.one_of(st.text("0123456789abcdef", min_size=8, max_size=32), _TEXT.filter(bool)),
    timestamp=st.integers(0, 2**33),
)
@settings(max_examples=100, deadline=None)
def test_header_and_signature_match_oauthlib(
    rsa_key: rsa.RSAPrivateKey,
    url: str,
    params: list[tuple[str, str]],
    login: str,
    nonce: str,
    timestamp: int,
) -> None:
    # oauthlib takes the loaded key as well as PEM text (it hands either to PyJWT): the
    # examples do not each pay a PEM load; the typical payout below signs from PEM
    _check_against_oauthlib(rsa_key, rsa_key, url, params, login, nonce, timestamp)


@given(query=st.lists(st.tuples(_NAME, _TEXT), min_size=1, max_size=4), params=_PARAMS)
@settings(max_examples=40, deadline=None)
def test_query_parameters_are_signed_like_oauthlib(
    rsa_key: rsa.RSAPrivateKey,
    query: list[tuple[str, str]],
    params: list[tuple[str, str]],
) -> None:
    url = "https://gateway.example/paynet/api/v4/status/7?" + "&".join(
        f"{percent_encode(n)}={percent_encode(v)}" for n, v in query
    )
    _check_against_oauthlib(rsa_key, rsa_key, url, params, "merchant", "n0nce", 1700000000)


def test_typical_payout_check_matches_oauthlib(rsa_key: rsa.RSAPrivateKey, key_pem: str) -> None:
    params = [
        ("client_orderid", "902B4FF5"),
        ("order_desc", "Test Order Description"),
        ("amount", "10.42"),
        ("currency", "EUR"),
        ("server_callback_url", "https://merchant.example/callback?a=1&b=2"),
        ("credit_card_number", "4444444444444448"),
        ("card_printed_name", ""),
        ("receiver_email", "john+smith@example.com"),
    ]
    url = "https://Gateway.Example:443/paynet/api/v4/payout-check/group/42"
    _check_against_oauthlib(rsa_key, key_pem, url, params, "merchant", "abc", 1700000000)


@given(params=st.lists(st.tuples(_TEXT, _TEXT), max_size=10))
@settings(max_examples=200, deadline=None)
def test_normalization_matches_oauthlib(params: list[tuple[str, str]]) -> None:
    assert normalize_parameters(params) == oauthlib_signature.normalize_parameters(params)


@given(url=_urls(), params=st.lists(st.tuples(_TEXT, _TEXT), max_size=10))
@settings(max_examples=200, deadline=None)
def test_base_string_matches_oauthlib(url: str, params: list[tuple[str, str]]) -> None:
    expected = oauthlib_signature.signature_base_string(
        "POST",
        oauthlib_signature.base_string_uri(url),
        oauthlib_signature.normalize_parameters(params),
    )
    assert signature_base_string("POST", url, params) == expected


_PATH_TEXT = st.text(alphabet=st.sampled_from("abcXYZ019-._~%/; :@!$&'()*+,=é"), max_size=30).map(
    lambda text: "/" + text
)


@st.composite
def _any_urls(draw: st.DrawFn) -> str:
    """Absolute http(s) URLs of every shape a base URL or path template can give: host names
    in any case, IPv4 and IPv6 literals (also non-canonical ones), ports, paths with spaces,
    ``;params``, percent escapes, queries and fragments."""
    scheme = draw(st.sampled_from(["https", "http", "HTTPS", "Http"]))
    host = draw(
        st.sampled_from(
            [
                "gateway.example",
                "Sandbox.Gateway.EXAMPLE",
                "127.0.0.1",
                "[::1]",
                "[0:0:0:0:0:0:0:1]",
                "[2001:DB8::0001]",
                "[::ffff:127.0.0.1]",
                "localhost",
                "xn--bcher-kva.example",
            ]
        )
    )
    port = draw(st.sampled_from(["", ":80", ":443", ":8443", ":1", ":65535"]))
    path = draw(st.sampled_from(["", "/"]) | _PATH_TEXT)
    query = draw(st.sampled_from(["", "?a=1", "?a=b%20c&d"]))
    fragment = draw(st.sampled_from(["", "#top"]))
    return f"{scheme}://{host}{port}{path}{query}{fragment}"


@given(url=_any_urls())
@settings(max_examples=200, deadline=None)
def test_base_string_uri_matches_oauthlib(url: str) -> None:
    assert base_string_uri(url) == oauthlib_signature.base_string_uri(url)
