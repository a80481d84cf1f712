"""The lab names a mistake however a client combines it: requests signed here by a small
signer with the knobs real clients turn (the encoder per character class and its charset,
the path form, where the oauth parameters go, the header's form, the signature's method and
encoding), without Go or Java installed. The corpus of tests/clients checks the same on
code written in those languages.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from urllib.parse import quote

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from console.core.siglab.capture import from_parts
from console.core.siglab.curl import parse_request_text
from console.core.siglab.diagnose import Verdict, diagnose
from console.core.siglab.mistakes import NOTES
from console.core.siglab.received import from_capture

URL = "https://gateway.example/paynet/api/v4/payout-check/1001"
GROUP_URL = "https://gateway.example/paynet/api/v4/payout-check/group/2001"
FIELDS = [
    ("client_orderid", "k-1"),
    ("amount", "10.50"),
    ("order_desc", "Müller * Erstattung (5 €) ~ a/b"),
]
Encoder = Callable[[str], str]


def rfc3986(text: str) -> str:
    return quote(text, safe="~")


def java_space_fixed(text: str) -> str:
    """URLEncoder.encode(v, UTF_8).replace("+", "%20"): ~ escaped, * kept."""
    return quote(text, safe="*").replace("~", "%7E")


def ascii_platform(text: str) -> str:
    """The full Java fixes, over the bytes of an ASCII platform charset (? for the rest)."""
    return quote(text.encode("ascii", "replace"), safe="~")


def go_path_escape(text: str) -> str:
    return quote(text, safe="~$&+:=@")


def rsa_sha256(key: rsa.RSAPrivateKey) -> Callable[[bytes], str]:
    return lambda base: base64.b64encode(
        key.sign(base, padding.PKCS1v15(), hashes.SHA256())
    ).decode()


def request(
    key: rsa.RSAPrivateKey,
    *,
    encode: Encoder = rfc3986,
    sign: Callable[[bytes], str] | None = None,
    method: str = "RSA-SHA256",
    url: str = URL,
    signed_url: str | None = None,
    fields: list[tuple[str, str]] = FIELDS,
    header: str = 'OAuth {}="{}"',
    joiner: str = ", ",
    place: str = "header",
    body_encode: Encoder = rfc3986,
) -> tuple[str, str, str]:
    """(URL, Authorization header, body) as a client with these knobs sends them."""
    oauth = [
        ("oauth_consumer_key", "demo"),
        ("oauth_nonce", "n-1"),
        ("oauth_signature_method", method),
        ("oauth_timestamp", "1700000000"),
        ("oauth_version", "1.0"),
    ]
    pairs = sorted(f"{encode(n)}={encode(v)}" for n, v in [*fields, *oauth])
    base = f"POST&{encode(signed_url or url)}&{encode('&'.join(pairs))}".encode()
    signature = (sign or rsa_sha256(key))(base)
    body = "&".join(f"{body_encode(n)}={body_encode(v)}" for n, v in fields)
    params = [*oauth, ("oauth_signature", signature)]
    if place == "body":
        return url, "", body + "&" + "&".join(f"{n}={rfc3986(v)}" for n, v in params)
    if place == "query":
        return url + "?" + "&".join(f"{n}={rfc3986(v)}" for n, v in params), "", body
    auth = "OAuth " + joiner.join(header[6:].format(n, rfc3986(v)) for n, v in params)
    return url, auth, body


def verdict(
    sent: tuple[str, str, str], key: rsa.RSAPrivateKey, ids: tuple[str, ...] = ()
) -> Verdict:
    url, auth, body = sent
    received = from_capture(from_parts(url, auth, body))
    return diagnose(received, key.public_key(), **({"ids": ids} if ids else {}))


def named(v: Verdict) -> set[str]:
    return set(v.codes) - NOTES


@pytest.mark.parametrize(
    ("encode", "codes"),
    [
        (java_space_fixed, {"tilde-encoded", "star-not-encoded"}),
        (ascii_platform, {"charset-not-utf8"}),
        (go_path_escape, {"sub-delims-not-encoded"}),
    ],
    ids=["urlencoder-space-fixed", "ascii-charset", "go-path-escape"],
)
def test_an_encoder_is_named_by_the_knobs_it_turns(
    rsa_key: rsa.RSAPrivateKey, encode: Encoder, codes: set[str]
) -> None:
    v = verdict(request(rsa_key, encode=encode), rsa_key)
    assert not v.valid
    assert named(v) == codes


def test_the_signatures_length_tells_hmac_whatever_the_header_says(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    def mac(digest: str) -> Callable[[bytes], str]:
        return lambda base: base64.b64encode(hmac.new(b"secret&", base, digest).digest()).decode()

    under_rsa = verdict(request(rsa_key, sign=mac("sha1")), rsa_key)
    assert named(under_rsa) == {"hmac-sha1"}
    assert "20 bytes" in under_rsa.findings[0].message
    sha256 = verdict(request(rsa_key, sign=mac("sha256"), method="HMAC-SHA256"), rsa_key)
    assert named(sha256) == {"hmac-sha256"}
    said_sha256 = verdict(request(rsa_key, sign=mac("sha1"), method="HMAC-SHA256"), rsa_key)
    assert named(said_sha256) == {"hmac-sha1"}


def test_a_sha256_signature_under_an_rsa_sha1_header_is_the_headers_mistake(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    v = verdict(request(rsa_key, method="RSA-SHA1"), rsa_key)
    assert named(v) == {"signature-method"}
    assert "only the header's method is wrong" in v.findings[0].message

    def sha1(base: bytes) -> str:
        return base64.b64encode(rsa_key.sign(base, padding.PKCS1v15(), hashes.SHA1())).decode()

    assert named(verdict(request(rsa_key, method="RSA-SHA1", sign=sha1), rsa_key)) == {
        "sha1-instead-of-sha256"
    }


def test_base64_twice_and_mime_base64_are_named(rsa_key: rsa.RSAPrivateKey) -> None:
    once = rsa_sha256(rsa_key)
    twice = verdict(
        request(rsa_key, sign=lambda b: base64.b64encode(once(b).encode()).decode()), rsa_key
    )
    assert named(twice) == {"signature-base64-twice"}

    def mime(base: bytes) -> str:
        text = once(base)
        return "\r\n".join(text[i : i + 76] for i in range(0, len(text), 76))

    assert named(verdict(request(rsa_key, sign=mime), rsa_key)) == {"signature-mime-base64"}


def test_a_header_the_gateway_cannot_read_is_named_and_its_signature_checked(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    unquoted = verdict(request(rsa_key, header="OAuth {}={}"), rsa_key)
    assert named(unquoted) == {"header-unquoted"}
    semicolons = verdict(request(rsa_key, joiner="; "), rsa_key)
    assert named(semicolons) == {"header-separator"}
    both = verdict(
        request(rsa_key, header="OAuth {}={}", joiner=";", encode=java_space_fixed), rsa_key
    )
    assert named(both) == {
        "header-unquoted",
        "header-separator",
        "tilde-encoded",
        "star-not-encoded",
    }


@pytest.mark.parametrize("place", ["body", "query"])
def test_oauth_parameters_in_the_body_or_query_are_named_not_asked_for(
    rsa_key: rsa.RSAPrivateKey, place: str
) -> None:
    v = verdict(request(rsa_key, place=place), rsa_key)
    assert not v.valid
    assert named(v) == {f"oauth-params-in-{place}"}
    assert not any("Authorization line it was sent with" in f.message for f in v.findings)


def test_a_field_sent_twice_is_never_valid(rsa_key: rsa.RSAPrivateKey) -> None:
    fields = [*FIELDS, ("merchant_data", "a"), ("merchant_data", "b")]
    v = verdict(request(rsa_key, fields=fields), rsa_key)
    assert not v.valid
    assert named(v) == {"parameter-repeated"}


def test_values_that_are_not_utf8_are_never_valid(rsa_key: rsa.RSAPrivateKey) -> None:
    """ISO-8859-1 for the signature and the body alike: the signature verifies, but the
    gateway refuses values that are not UTF-8 (151), and so does the lab."""

    def latin1(text: str) -> str:
        return quote(text.encode("latin-1", "replace"), safe="~")

    v = verdict(request(rsa_key, encode=latin1, body_encode=latin1), rsa_key)
    assert not v.valid
    assert named(v) == {"value-not-utf8"}
    assert "order_desc" in v.findings[0].message


def test_the_endpoint_signed_and_the_group_sent_is_named_with_the_signers_ids(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    sent = request(rsa_key, url=GROUP_URL, signed_url=URL)
    assert named(verdict(sent, rsa_key, ids=("1001", "2001"))) == {"path-differs"}
    unknown = verdict(sent, rsa_key)
    assert named(unknown) == {"unexplained"}
    assert "verify --id" in unknown.findings[0].message


def test_raw_http_without_its_scheme_is_valid_only_over_the_scheme_that_fits(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    url, auth, body = request(rsa_key)
    text = (
        "POST /paynet/api/v4/payout-check/1001 HTTP/1.1\r\nHost: gateway.example\r\n"
        f"Authorization: {auth}\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n{body}"
    )
    assumed = diagnose(from_capture(parse_request_text(text)), rsa_key.public_key())
    assert not assumed.valid
    assert assumed.valid_over == "https"
    assert assumed.headline().startswith("VALID ONLY IF SENT OVER HTTPS")
    assert "scheme-differs" in assumed.codes  # what the gateway says if it went over http
    assert assumed.to_json()["valid_if_sent_over"] == "https"
    chosen = diagnose(from_capture(parse_request_text(text, scheme="https")), rsa_key.public_key())
    assert chosen.valid
    over_http = diagnose(
        from_capture(parse_request_text(text, scheme="http")), rsa_key.public_key()
    )
    assert named(over_http) == {"scheme-differs"}
    assert url.startswith("https://")


def test_a_digest_is_told_from_its_length_only_when_it_is_not_the_keys(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    """A 32-byte signature is HMAC-SHA256, but random bytes of the key's length are still
    another key (wrong-key), never HMAC."""
    junk = verdict(
        request(rsa_key, sign=lambda b: base64.b64encode(hashlib.sha512(b).digest() * 4).decode()),
        rsa_key,
    )
    assert named(junk) == {"wrong-key"}
