"""The signature lab against a corpus of broken requests, each signed by the tests' own signer
(tests/helpers/mistaken_signer.py) with exactly one mistake: each must be diagnosed with the
right code, and only that one."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.siglab.capture import from_parts, parse_http
from console.core.siglab.diagnose import diagnose
from console.core.siglab.received import from_capture
from tests.helpers.mistaken_signer import Wire, sign

URL = "https://gateway.example/paynet/api/v4/payout-check/1001"
GROUP_URL = "https://gateway.example/paynet/api/v4/payout-check/group/2001"
NOW = 1_700_000_100.0
# Values that each encoder mistake changes, and an order that is not sorted.
PARAMS = [
    ("client_orderid", "order-1"),
    ("amount", "10.50"),
    ("currency", "USD"),
    ("order_desc", "Refund (partial)! for *you* ~ it's a/b"),
    ("credit_card_number", "4444444444444448"),
    ("cvv2", "123"),
]

# (case id, mistake given to the signer, URL sent to, URL signed, params, expected code)
CORPUS: list[tuple[str, str, str, str | None, list[tuple[str, str]], str]] = [
    ("plus", "plus-for-space", URL, None, PARAMS, "plus-for-space"),
    ("plus-inner", "plus-for-space:inner", URL, None, PARAMS, "plus-for-space"),
    ("plus-group", "plus-for-space", GROUP_URL, None, PARAMS, "plus-for-space"),
    ("js", "js-encodeuricomponent", URL, None, PARAMS, "js-encodeuricomponent"),
    ("js-inner", "js-encodeuricomponent:inner", URL, None, PARAMS, "js-encodeuricomponent"),
    ("slash", "slash-not-encoded", URL, None, PARAMS, "slash-not-encoded"),
    ("slash-inner", "slash-not-encoded:inner", URL, None, PARAMS, "slash-not-encoded"),
    ("tilde", "tilde-encoded", URL, None, PARAMS, "tilde-encoded"),
    ("tilde-inner", "tilde-encoded:inner", URL, None, PARAMS, "tilde-encoded"),
    ("lower", "lowercase-hex", URL, None, PARAMS, "lowercase-hex"),
    ("lower-inner", "lowercase-hex:inner", URL, None, PARAMS, "lowercase-hex"),
    ("not-sorted", "not-sorted", URL, None, PARAMS, "not-sorted"),
    (
        "sorted-raw",
        "sorted-before-encoding",
        URL,
        None,
        # two names whose order encoding turns round (each sent once: the gateway refuses
        # a field sent twice)
        [*PARAMS, ("merchant_z", "zeta"), ("merchant_ä", "äpfel")],
        "sorted-before-encoding",
    ),
    ("token", "oauth-token-empty", URL, None, PARAMS, "oauth-token-empty"),
    ("sig-signed", "oauth-signature-signed", URL, None, PARAMS, "oauth-signature-signed"),
    (
        "port-443",
        "default-port-kept",
        "https://gateway.example:443/paynet/api/v4/payout-check/1001",
        None,
        PARAMS,
        "default-port-kept",
    ),
    (
        "port-80",
        "default-port-kept",
        "http://127.0.0.1:80/paynet/api/v4/payout-check/1001",
        None,
        PARAMS,
        "default-port-kept",
    ),
    (
        "host",
        "host-case",
        "https://Gateway.Example/paynet/api/v4/payout-check/1001",
        None,
        PARAMS,
        "host-case",
    ),
    (
        "scheme",
        "scheme-case",
        "HTTPS://gateway.example/paynet/api/v4/payout-check/1001",
        None,
        PARAMS,
        "scheme-case",
    ),
    (
        "group-left-out",
        "",
        GROUP_URL,
        "https://gateway.example/paynet/api/v4/payout-check/2001",
        PARAMS,
        "path-differs",
    ),
    (
        "prefix-left-out",
        "",
        URL,
        "https://gateway.example/api/v4/payout-check/1001",
        PARAMS,
        "path-differs",
    ),
    ("trailing-slash", "", URL, URL + "/", PARAMS, "path-differs"),
    ("query", "query-not-signed", URL + "?lang=en", None, PARAMS, "query-not-signed"),
    ("body", "body-not-signed", URL, None, PARAMS, "body-not-signed"),
    ("body-group", "body-not-signed", GROUP_URL, None, PARAMS, "body-not-signed"),
    ("double", "body-double-encoded", URL, None, PARAMS, "body-double-encoded"),
    (
        "trimmed",
        "value-trimmed",
        URL,
        None,
        [*PARAMS, ("card_printed_name", " JOHN DOE ")],
        "value-trimmed",
    ),
    ("login", "login-in-body", URL, None, PARAMS, "login-in-body"),
    ("sha1", "sha1-instead-of-sha256", URL, None, PARAMS, "sha1-instead-of-sha256"),
    ("pss", "pss-padding", URL, None, PARAMS, "pss-padding"),
    ("hex", "hex-signature", URL, None, PARAMS, "hex-signature"),
    ("sig-encoded", "signature-not-url-decoded", URL, None, PARAMS, "signature-not-url-decoded"),
    ("millis", "timestamp-millis", URL, None, PARAMS, "timestamp-millis"),
]


def _verdict(wire: Wire, key: rsa.RSAPrivateKey, **kw: object):  # type: ignore[no-untyped-def]
    received = from_capture(from_parts(wire.url, wire.authorization, wire.body))
    return diagnose(received, key.public_key(), now=NOW, **kw)  # type: ignore[arg-type]


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) + 3 >= 30  # with the wrong-key and stale cases below


@pytest.mark.parametrize(
    ("mistake", "url", "signed_url", "params", "code"),
    [pytest.param(*case[1:], id=case[0]) for case in CORPUS],
)
def test_each_broken_request_is_diagnosed_with_its_one_mistake(
    rsa_key: rsa.RSAPrivateKey,
    mistake: str,
    url: str,
    signed_url: str | None,
    params: list[tuple[str, str]],
    code: str,
) -> None:
    wire = sign(url, params, rsa_key, mistake=mistake, signed_url=signed_url)
    verdict = _verdict(wire, rsa_key)
    assert [f.code for f in verdict.findings] == [code]
    if code != "timestamp-millis":
        assert not verdict.valid
    assert verdict.expected_base_string != verdict.received_base_string or code in (
        "sha1-instead-of-sha256",
        "pss-padding",
        "hex-signature",
        "signature-not-url-decoded",
        "timestamp-millis",
    )


def test_a_correct_request_is_valid_and_needs_no_diagnosis(rsa_key: rsa.RSAPrivateKey) -> None:
    wire = sign(GROUP_URL, PARAMS, rsa_key)
    verdict = _verdict(wire, rsa_key)
    assert verdict.valid
    assert verdict.findings == ()
    assert verdict.received_base_string == verdict.expected_base_string


def test_raw_http_text_gives_the_same_verdict(rsa_key: rsa.RSAPrivateKey) -> None:
    wire = sign(URL, PARAMS, rsa_key, mistake="plus-for-space")
    received = from_capture(parse_http(wire.http(), scheme="https"))
    assert [f.code for f in diagnose(received, rsa_key.public_key()).findings] == ["plus-for-space"]


def test_a_stale_timestamp_is_reported_beside_a_valid_signature(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    wire = sign(URL, PARAMS, rsa_key, timestamp=1_600_000_000)
    verdict = _verdict(wire, rsa_key)
    assert verdict.valid
    assert [f.code for f in verdict.findings] == ["timestamp-stale"]
    assert "behind" in verdict.findings[0].message


def test_wrong_key_names_both_fingerprints_when_the_signer_key_is_known(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    from console.core.keys import fingerprint

    wire = sign(URL, PARAMS, other_rsa_key)
    verdict = _verdict(
        wire, rsa_key, other_keys={"environment staging": other_rsa_key.public_key()}
    )
    assert [f.code for f in verdict.findings] == ["wrong-key"]
    message = verdict.findings[0].message
    assert fingerprint(rsa_key) in message
    assert fingerprint(other_rsa_key) in message
    assert "environment staging" in message


def test_wrong_key_without_candidates_says_the_other_key_is_unknown(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    from console.core.keys import fingerprint

    verdict = _verdict(sign(URL, PARAMS, other_rsa_key), rsa_key)
    assert [f.code for f in verdict.findings] == ["wrong-key"]
    assert fingerprint(rsa_key) in verdict.findings[0].message
    assert verdict.received_base_string is None


def test_an_unknown_mistake_is_said_honestly_with_the_expected_base_string(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    wire = sign(URL, PARAMS, rsa_key, signed_url="https://elsewhere.example/x")
    verdict = _verdict(wire, rsa_key)
    assert [f.code for f in verdict.findings] == ["unexplained"]
    assert "payout-check%2F1001" in verdict.expected_base_string


def test_shown_base_strings_mask_card_data(rsa_key: rsa.RSAPrivateKey) -> None:
    verdict = _verdict(sign(URL, PARAMS, rsa_key, mistake="plus-for-space"), rsa_key)
    expected, received = verdict.base_strings()
    assert received is not None
    for text in (expected, received):
        assert "4444444444444448" not in text
        assert "444444%252A%252A" in text
        assert "cvv2%3D123" not in text
    assert "4444444444444448" in verdict.base_strings(reveal=True)[0]
    assert verdict.first_difference == "parameter order_desc"
