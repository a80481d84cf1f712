"""Percent-encoding is exact: any text, control characters and NUL included, is encoded as RFC
3986 says, in the signed string and in the body on the wire alike; text with no UTF-8 form
is refused naming the field.

Held against oauthlib's encoder and against a reference written here, byte by byte.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from hypothesis import given, settings
from hypothesis import strategies as st
from oauthlib.oauth1.rfc5849 import signature as oauthlib_signature
from oauthlib.oauth1.rfc5849.utils import escape as oauthlib_escape

from console.core.errors import InputError
from console.core.signing import (
    UnencodableTextError,
    normalize_parameters,
    percent_encode,
    sign,
)

URL = "https://gateway.example/paynet/api/v4/payout-check/123"
_UNRESERVED = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_CONTROLS = [chr(c) for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]]

# Any text but lone surrogates, with control characters and characters to escape made likely.
_TEXT = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.text(st.sampled_from([*_CONTROLS, " ", "%", "+", "&", "=", "~", "a", "ü", "€", "😀"])),
)
_PAIRS = st.lists(st.tuples(_TEXT, _TEXT), max_size=8)


def reference_encode(text: str) -> str:
    """RFC 3986 section 2.1 and 2.3 as written: unreserved bytes stay, the rest is %XX."""
    return "".join(chr(b) if b in _UNRESERVED else f"%{b:02X}" for b in text.encode("utf-8"))


def _sign(key: rsa.RSAPrivateKey, params: list[tuple[str, str]]) -> str:
    signed = sign(URL, params, consumer_key="merchant", private_key=key, nonce="n", timestamp=1)
    return signed.body


def test_a_nul_alone_is_encoded_in_the_signed_string_and_the_body(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    assert normalize_parameters([("a", "x\x00")]) == "a=x%00"
    assert _sign(rsa_key, [("a", "x\x00")]) == "a=x%00"
    assert _sign(rsa_key, [("a", "x\x00"), ("b", "y")]) == "a=x%00&b=y"


def test_every_ascii_character_alone_and_in_text_matches_oauthlib_and_the_reference() -> None:
    for code in range(128):
        for text in (chr(code), f"a{chr(code)}b", f"{chr(code)}ü"):
            assert percent_encode(text) == reference_encode(text) == oauthlib_escape(text)


@given(_TEXT)
@settings(max_examples=300, deadline=None)
def test_encoding_matches_oauthlib_and_the_reference(text: str) -> None:
    encoded = percent_encode(text)
    assert encoded == reference_encode(text)
    assert encoded == oauthlib_escape(text)


@given(_PAIRS)
@settings(max_examples=200, deadline=None)
def test_normalized_string_matches_oauthlib(pairs: list[tuple[str, str]]) -> None:
    assert normalize_parameters(pairs) == oauthlib_signature.normalize_parameters(pairs)


@given(params=_PAIRS.map(lambda ps: [(n, v) for n, v in ps if not n.startswith("oauth_")]))
@settings(max_examples=100, deadline=None)
def test_body_on_the_wire_is_encoded_the_same_way_and_decodes_to_what_was_given(
    rsa_key: rsa.RSAPrivateKey, params: list[tuple[str, str]]
) -> None:
    body = _sign(rsa_key, params)
    assert body == "&".join(f"{reference_encode(n)}={reference_encode(v)}" for n, v in params)
    assert body.isascii()
    if params:
        assert parse_qsl(body, keep_blank_values=True, errors="strict") == params


@pytest.mark.parametrize("value", ["\ud800", "ok \udcff", "\udfff tail"])
def test_a_lone_surrogate_is_refused_naming_the_field(
    rsa_key: rsa.RSAPrivateKey, value: str
) -> None:
    with pytest.raises(UnencodableTextError, match="order_desc") as caught:
        _sign(rsa_key, [("amount", "1"), ("order_desc", value)])
    assert isinstance(caught.value, InputError)
    assert caught.value.field == "order_desc"
    assert "surrogate" in caught.value.message


@given(
    st.text(st.characters(), max_size=6),
    st.sampled_from(["\ud800", "\udbff", "\udc80", "\udfff"]),
    st.text(st.characters(), max_size=6),
)
@settings(max_examples=100, deadline=None)
def test_any_text_with_a_lone_surrogate_is_refused_never_crashes(
    before: str, surrogate: str, after: str
) -> None:
    with pytest.raises(UnencodableTextError, match="merchant_data"):
        normalize_parameters([("merchant_data", before + surrogate + after)])


def test_a_lone_surrogate_in_a_name_or_the_login_is_refused_naming_it(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with pytest.raises(UnencodableTextError, match="field name"):
        _sign(rsa_key, [("bad\udcffname", "1")])
    with pytest.raises(UnencodableTextError, match="oauth_consumer_key"):
        sign(URL, [], consumer_key="m\udcff", private_key=rsa_key, nonce="n", timestamp=1)
