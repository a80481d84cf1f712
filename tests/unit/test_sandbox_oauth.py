"""The sandbox's own OAuth pieces: header parsing, encoding, base string (checked against the
RFC's worked example and against oauthlib, an implementation the console does not use)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oauthlib.oauth1.rfc5849 import signature as oauthlib_sig

from console.sandbox.oauth import (
    HeaderError,
    base_string_uri,
    normalize_parameters,
    parse_authorization,
    parse_form,
    percent_encode,
    signature_base_string,
)


def test_percent_encode_keeps_only_unreserved_characters() -> None:
    assert percent_encode("AZaz09-._~") == "AZaz09-._~"
    assert percent_encode("a b+c/d=e&f*") == "a%20b%2Bc%2Fd%3De%26f%2A"
    assert percent_encode("é€") == "%C3%A9%E2%82%AC"


def test_percent_encode_keeps_bytes_that_were_not_utf8() -> None:
    # a body byte 0xFF arrives as a surrogate and must be signed as %FF, as sent
    [(_name, value)] = parse_form(b"x=%FF")
    assert percent_encode(value) == "%FF"


def test_parse_form_decodes_plus_and_keeps_empty_values_and_order() -> None:
    assert parse_form(b"b=1+2&a=&c=%20x&&d") == [("b", "1 2"), ("a", ""), ("c", " x"), ("d", "")]


def test_rfc5849_worked_example_base_string() -> None:
    # RFC 5849 section 3.4.1.1 (the rules are the same for every signature method)
    pairs = [
        ("b5", "=%3D"),
        ("a3", "a"),
        ("c@", ""),
        ("a2", "r b"),
        ("oauth_consumer_key", "9djdj82h48djs9d2"),
        ("oauth_token", "kkk9d7dh3k39sjv7"),
        ("oauth_signature_method", "HMAC-SHA1"),
        ("oauth_timestamp", "137131201"),
        ("oauth_nonce", "7d8f3e4a"),
        ("c2", ""),
        ("a3", "2 q"),
    ]
    uri = base_string_uri("http", "EXAMPLE.COM:80", "/request")
    assert signature_base_string("post", uri, pairs) == (
        "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q"
        "%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_"
        "key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m"
        "ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk"
        "9d7dh3k39sjv7"
    )


@pytest.mark.parametrize(
    ("scheme", "host", "path", "expected"),
    [
        (
            "http",
            "127.0.0.1:8085",
            "/paynet/api/v4/payout-check/1",
            "http://127.0.0.1:8085/paynet/api/v4/payout-check/1",
        ),
        ("HTTP", "Gateway.EXAMPLE:80", "/p", "http://gateway.example/p"),
        ("https", "gateway.example:443", "/p/group/7", "https://gateway.example/p/group/7"),
        ("https", "gateway.example:8443", "/p", "https://gateway.example:8443/p"),
        ("http", "[::1]:8085", "/p", "http://[::1]:8085/p"),
        ("http", "[::1]:80", "/p", "http://[::1]/p"),
    ],
)
def test_base_string_uri(scheme: str, host: str, path: str, expected: str) -> None:
    assert base_string_uri(scheme, host, path) == expected


def test_normalize_sorts_by_encoded_name_then_value() -> None:
    assert normalize_parameters([("b", "2"), ("a", "z"), ("a", "y"), ("A", "1")]) == (
        "A=1&a=y&a=z&b=2"
    )


def test_parse_authorization_reads_quoted_and_encoded_values() -> None:
    header = (
        'OAuth realm="x", oauth_consumer_key="de%20mo",oauth_nonce="n,1" , '
        'oauth_signature="ab%2Bc%3D"'
    )
    assert parse_authorization(header) == {
        "realm": "x",
        "oauth_consumer_key": "de mo",
        "oauth_nonce": "n,1",
        "oauth_signature": "ab+c=",
    }


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ("Basic abc", "not OAuth"),
        ('OAuth oauth_nonce="1", oauth_nonce="2"', "twice"),
        ("OAuth oauth_nonce=1", "cannot read"),
        ('OAuth oauth_nonce="1" oauth_x="2"', "cannot read"),
    ],
)
def test_parse_authorization_refuses_broken_headers(header: str, words: str) -> None:
    with pytest.raises(HeaderError, match=words):
        parse_authorization(header)


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_text, _text), max_size=8),
    st.sampled_from(["/paynet/api/v4/status/1", "/p/group/2"]),
)
def test_base_string_agrees_with_oauthlib(pairs: list[tuple[str, str]], path: str) -> None:
    url = "http://127.0.0.1:8085" + path
    expected = oauthlib_sig.signature_base_string(
        "POST",
        oauthlib_sig.base_string_uri(url),
        oauthlib_sig.normalize_parameters(pairs),
    )
    uri = base_string_uri("http", "127.0.0.1:8085", path)
    assert signature_base_string("POST", uri, pairs) == expected
