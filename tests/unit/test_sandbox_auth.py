"""The sandbox's authentication: every check, and the reason each failure is logged with."""

from __future__ import annotations

import base64
import time

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import signing
from console.sandbox.auth import Authenticator, AuthError, NonceCache, SignedRequest

URL = "http://127.0.0.1:8085/paynet/api/v4/payout-check/1001"
PATH = "/paynet/api/v4/payout-check/1001"
BODY = [("client_orderid", "p-1"), ("amount", "10.00"), ("card_printed_name", "")]
NOW = 1_800_000_000


def make_auth(key: rsa.RSAPrivateKey, *, now: float = NOW, window: float = 300) -> Authenticator:
    public = key.public_key()
    return Authenticator(
        lambda login: public if login == "demo" else None, window=window, wall=lambda: now
    )


def request_for(
    key: rsa.RSAPrivateKey,
    *,
    body: list[tuple[str, str]] | None = None,
    login: str = "demo",
    nonce: str = "nonce-1",
    timestamp: int = NOW,
    url: str = URL,
) -> SignedRequest:
    signed = signing.sign(
        url,
        body if body is not None else BODY,
        consumer_key=login,
        private_key=key,
        nonce=nonce,
        timestamp=timestamp,
    )
    return SignedRequest(
        "POST", "http", "127.0.0.1:8085", PATH, signed.authorization, list(signed.params)
    )


def with_header(request: SignedRequest, header: str | None) -> SignedRequest:
    return SignedRequest(
        request.method, request.scheme, request.host, request.path, header, request.params
    )


def refused(auth: Authenticator, request: SignedRequest) -> str:
    with pytest.raises(AuthError) as info:
        auth.check(request)
    return info.value.reason


def test_a_correctly_signed_request_passes(rsa_key: rsa.RSAPrivateKey) -> None:
    assert make_auth(rsa_key).check(request_for(rsa_key)) == "demo"


def test_the_group_path_is_signed_too(rsa_key: rsa.RSAPrivateKey) -> None:
    group_url = "http://127.0.0.1:8085/paynet/api/v4/payout-check/group/2001"
    request = request_for(rsa_key, url=group_url)
    # the same signature presented for the endpoint path must fail
    assert "does not match" in refused(make_auth(rsa_key), request)
    group_path = "/paynet/api/v4/payout-check/group/2001"
    moved = SignedRequest(
        "POST",
        "http",
        "127.0.0.1:8085",
        group_path,
        request.authorization,
        request.params,
    )
    assert make_auth(rsa_key).check(moved) == "demo"


def test_missing_header(rsa_key: rsa.RSAPrivateKey) -> None:
    reason = refused(make_auth(rsa_key), with_header(request_for(rsa_key), None))
    assert reason == "no Authorization header"


def test_other_scheme(rsa_key: rsa.RSAPrivateKey) -> None:
    reason = refused(make_auth(rsa_key), with_header(request_for(rsa_key), "Bearer abc"))
    assert "not OAuth" in reason


def test_missing_oauth_parameter(rsa_key: rsa.RSAPrivateKey) -> None:
    header = request_for(rsa_key).authorization
    assert header is not None
    without_nonce = ", ".join(p for p in header.split(", ") if "oauth_nonce" not in p)
    assert "lacks oauth_nonce" in refused(
        make_auth(rsa_key), with_header(request_for(rsa_key), without_nonce)
    )


def test_oauth_token_is_refused(rsa_key: rsa.RSAPrivateKey) -> None:
    header = request_for(rsa_key).authorization
    reason = refused(
        make_auth(rsa_key), with_header(request_for(rsa_key), f'{header}, oauth_token=""')
    )
    assert "oauth_token" in reason


def test_realm_is_allowed_and_not_signed(rsa_key: rsa.RSAPrivateKey) -> None:
    header = request_for(rsa_key).authorization
    assert header is not None
    with_realm = header.replace("OAuth ", 'OAuth realm="sandbox", ', 1)
    assert make_auth(rsa_key).check(with_header(request_for(rsa_key), with_realm)) == "demo"


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            'oauth_signature_method="RSA-SHA256"',
            'oauth_signature_method="HMAC-SHA1"',
            "only RSA-SHA256",
        ),
        ('oauth_version="1.0"', 'oauth_version="2.0"', "not 1.0"),
        ('oauth_consumer_key="demo"', 'oauth_consumer_key="stranger"', "unknown consumer key"),
        ('oauth_timestamp="1800000000"', 'oauth_timestamp="18e8"', "not Unix seconds"),
    ],
)
def test_header_values_are_checked(
    rsa_key: rsa.RSAPrivateKey, old: str, new: str, words: str
) -> None:
    header = request_for(rsa_key).authorization
    assert header is not None
    assert old in header
    reason = refused(
        make_auth(rsa_key), with_header(request_for(rsa_key), header.replace(old, new))
    )
    assert words in reason


def test_login_in_body_is_refused(rsa_key: rsa.RSAPrivateKey) -> None:
    request = request_for(rsa_key, body=[*BODY, ("login", "demo")])
    assert "login was sent as a body parameter" in refused(make_auth(rsa_key), request)


@pytest.mark.parametrize(("skew", "side"), [(-301, "behind"), (301, "ahead of")])
def test_timestamp_outside_the_window(rsa_key: rsa.RSAPrivateKey, skew: int, side: str) -> None:
    request = request_for(rsa_key, timestamp=NOW + skew)
    reason = refused(make_auth(rsa_key), request)
    assert f"301 s {side} real time" in reason


def test_timestamp_at_the_edge_of_the_window_passes(rsa_key: rsa.RSAPrivateKey) -> None:
    assert make_auth(rsa_key).check(request_for(rsa_key, timestamp=NOW - 300)) == "demo"


def test_signature_that_is_not_base64(rsa_key: rsa.RSAPrivateKey) -> None:
    header = request_for(rsa_key).authorization
    assert header is not None
    start = header.index('oauth_signature="') + len('oauth_signature="')
    broken = header[:start] + "%21%21" + header[start:]
    assert "not valid base64" in refused(
        make_auth(rsa_key), with_header(request_for(rsa_key), broken)
    )


def test_signed_with_another_key(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    reason = refused(make_auth(rsa_key), request_for(other_rsa_key))
    assert "does not match" in reason


def test_changed_body_value_breaks_the_signature(rsa_key: rsa.RSAPrivateKey) -> None:
    request = request_for(rsa_key)
    changed = SignedRequest(
        request.method,
        request.scheme,
        request.host,
        request.path,
        request.authorization,
        [("client_orderid", "p-2"), *BODY[1:]],
    )
    assert "does not match" in refused(make_auth(rsa_key), changed)


def test_log_reason_masks_card_data(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    body = [*BODY, ("credit_card_number", "4444444444444448"), ("cvv2", "123")]
    reason = refused(make_auth(rsa_key), request_for(other_rsa_key, body=body))
    assert "4444444444444448" not in reason
    # masked values, percent-encoded twice as every base string value is
    assert "credit_card_number%3D444444%252A%252A%252A%252A%252A%252A4448" in reason
    assert "cvv2%3D%252A%252A%252A" in reason


def test_replayed_nonce_is_refused(rsa_key: rsa.RSAPrivateKey) -> None:
    auth = make_auth(rsa_key)
    request = request_for(rsa_key)
    assert auth.check(request) == "demo"
    assert "already used" in refused(auth, request)


def test_a_failed_request_does_not_burn_its_nonce(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    auth = make_auth(rsa_key)
    refused(auth, request_for(other_rsa_key, nonce="n-9"))
    assert auth.check(request_for(rsa_key, nonce="n-9")) == "demo"


def test_nonces_are_per_login_and_forgotten_after_the_window() -> None:
    cache = NonceCache()
    assert cache.add("a", "n", NOW, NOW, 300)
    assert cache.add("b", "n", NOW, NOW, 300)
    assert not cache.add("a", "n", NOW, NOW + 10, 300)
    assert cache.add("a", "n", NOW, NOW + 301, 300)


def test_real_time_is_the_default_clock(rsa_key: rsa.RSAPrivateKey) -> None:
    public = rsa_key.public_key()
    auth = Authenticator(lambda login: public)
    signed = signing.sign(
        URL, BODY, consumer_key="demo", private_key=rsa_key, timestamp=int(time.time())
    )
    request = SignedRequest(
        "POST", "http", "127.0.0.1:8085", PATH, signed.authorization, list(signed.params)
    )
    assert auth.check(request) == "demo"
    assert base64.b64decode(signed.signature_base64)  # a real signature was checked
