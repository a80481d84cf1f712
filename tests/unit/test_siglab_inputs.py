"""Signature lab inputs: curl lines in the forms documentation prints, requests signed by
oauthlib and requests-oauthlib, the console's own signer, keys in every form, callbacks."""

from __future__ import annotations

import hashlib
import shlex

import oauthlib.oauth1
import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from hypothesis import given, settings
from hypothesis import strategies as st
from requests_oauthlib import OAuth1

from console.core.keys import KeyProblem
from console.core.siglab.capture import CaptureError, from_parts
from console.core.siglab.control import check_control
from console.core.siglab.curl import parse_curl, parse_request_text
from console.core.siglab.curl_import import import_curl
from console.core.siglab.diagnose import diagnose
from console.core.siglab.keysource import load_public_key
from console.core.siglab.received import from_capture
from console.core.siglab.variants import correct
from console.core.signing import sign as console_sign
from tests.clients.python_clients import pem as _pem
from tests.helpers.mistaken_signer import sign

URL = "https://gateway.example/paynet/api/v4/payout-check/1001"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
PARAMS = [("client_orderid", "order-1"), ("amount", "10.50"), ("order_desc", "a b~c/d!")]


def test_oauthlib_signed_request_is_valid(rsa_key: rsa.RSAPrivateKey) -> None:
    client = oauthlib.oauth1.Client(
        "demo", signature_method=oauthlib.oauth1.SIGNATURE_RSA_SHA256, rsa_key=_pem(rsa_key)
    )
    body = "client_orderid=order-1&amount=10.50&order_desc=a%20b~c%2Fd%21"
    uri, headers, signed_body = client.sign(URL, http_method="POST", body=body, headers=FORM)
    verdict = diagnose(
        from_capture(from_parts(uri, headers["Authorization"], signed_body)), rsa_key.public_key()
    )
    assert verdict.valid
    assert verdict.findings == ()


def test_requests_oauthlib_signed_request_is_valid(rsa_key: rsa.RSAPrivateKey) -> None:
    auth = OAuth1(
        "demo",
        signature_method=oauthlib.oauth1.SIGNATURE_RSA_SHA256,
        rsa_key=_pem(rsa_key),
        signature_type="auth_header",
    )
    group = "https://gateway.example/paynet/api/v4/payout-check/group/2001"
    prepared = requests.Request("POST", group, data=dict(PARAMS), auth=auth).prepare()
    body = prepared.body.decode() if isinstance(prepared.body, bytes) else str(prepared.body)
    assert "a+b" in body  # requests writes + for a space
    header = prepared.headers["Authorization"]
    header = header.decode() if isinstance(header, bytes) else header
    capture = from_parts(prepared.url or "", header, body)
    verdict = diagnose(from_capture(capture), rsa_key.public_key())
    assert verdict.valid


def test_console_signer_base_string_is_the_labs_expected_one(rsa_key: rsa.RSAPrivateKey) -> None:
    signed = console_sign(URL, PARAMS, consumer_key="demo", private_key=rsa_key, nonce="n")
    # The shape of the inspector's Copy as curl.
    header = shlex.quote("Authorization: " + signed.authorization)
    line = f"curl -X POST {shlex.quote(URL)} \\\n  -H {header} \\\n"
    line += f"  --data-raw {shlex.quote(signed.body)}"
    capture = parse_curl(line)
    received = from_capture(capture)
    assert correct(received) == signed.base_string
    assert diagnose(received, rsa_key.public_key()).valid


@pytest.mark.parametrize(
    "template",
    [
        # Documentation style: -X, the URL, -H, -d, --data-urlencode, continuations.
        "curl -X POST {url} \\\n  -H 'Content-Type: application/x-www-form-urlencoded' \\\n"
        "  -H '{auth}' \\\n  -d 'client_orderid=order-1&amount=10.50' \\\n"
        "  --data-urlencode 'order_desc=a b~c/d!'",
        # Double quotes with escaped inner quotes, --url, combined flags, -XPOST.
        'curl -sS -XPOST --url "{url}" -H "{auth_escaped}" --data "client_orderid=order-1" '
        '--data amount=10.50 --data-urlencode "order_desc=a b~c/d!"',
        # --data-raw with the whole body, header given as --header=...
        "curl {url} --header='{auth}' --data-raw "
        "'client_orderid=order-1&amount=10.50&order_desc=a%20b~c%2Fd%21' -k --compressed",
    ],
)
def test_curl_lines_in_documented_forms_are_read(rsa_key: rsa.RSAPrivateKey, template: str) -> None:
    wire = sign(URL, PARAMS, rsa_key)
    line = template.format(
        url=URL,
        auth=f"Authorization: {wire.authorization}",
        auth_escaped=f"Authorization: {wire.authorization}".replace('"', '\\"'),
    )
    capture = parse_request_text(line)
    assert capture.method == "POST"
    assert capture.url == URL
    assert diagnose(from_capture(capture), rsa_key.public_key()).valid


def test_curl_get_flag_moves_data_into_the_query() -> None:
    capture = parse_curl("curl -G https://h.example/cb -d status=approved -d orderid=1")
    assert capture.method == "GET"
    assert capture.url == "https://h.example/cb?status=approved&orderid=1"


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("curl -d @body.txt https://h.example/x", "reads a file"),
        ("curl -F a=b https://h.example/x", "multipart"),
        ("curl --frobnicate https://h.example/x", "--frobnicate"),
        ("curl -d 'a=b", "quotes"),
        ("curl -H 'A: b'", "no URL"),
    ],
)
def test_unreadable_curl_lines_say_why(line: str, words: str) -> None:
    with pytest.raises(CaptureError, match=words):
        parse_curl(line)


def test_import_curl_finds_the_command_group_and_fields() -> None:
    line = (
        "curl -X POST https://gateway.example/paynet/api/v4/payout-check/group/2001 "
        "-H 'Authorization: OAuth oauth_consumer_key=\"demo\"' "
        "-d 'client_orderid=o-1&amount=10.50&credit_card_number=4444444444444448&login=demo'"
    )
    result = import_curl(line)
    assert (result.command, result.endpoint_group_id, result.login) == (
        "payout-check",
        "2001",
        "demo",
    )
    assert result.base_url == "https://gateway.example/paynet"
    assert dict(result.fields)["amount"] == "10.50"
    assert "login" not in dict(result.fields)
    assert result.to_json()["fields"]["credit_card_number"] == "444444******4448"  # type: ignore[index]
    assert any("login" in note for note in result.notes)


def test_import_curl_refuses_an_unknown_path() -> None:
    with pytest.raises(CaptureError, match="matches none of the commands"):
        import_curl("curl -d a=b https://gateway.example/paynet/api/v4/sale/1")


def test_keys_in_every_form_give_the_same_public_key(rsa_key: rsa.RSAPrivateKey) -> None:
    public = rsa_key.public_key()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "merchant")])
    import datetime

    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(rsa_key, hashes.SHA256())
    )
    forms = [
        public.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ),
        public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.PKCS1),
        cert.public_bytes(serialization.Encoding.PEM),
        _pem(rsa_key).encode(),
    ]
    for data in forms:
        assert load_public_key(data).public_numbers() == public.public_numbers()
    with pytest.raises(KeyProblem, match="not a PEM"):
        load_public_key(b"hello")


def _control(*parts: str) -> str:
    return hashlib.sha1("".join(parts).encode(), usedforsecurity=False).hexdigest()


def test_callback_control_valid_and_each_known_mistake_named() -> None:
    ok = _control("approved", "77", "o 1", "s3cret")
    base = "status=approved&orderid=77&client_orderid=o%201&merchant_order=m-1"
    assert check_control(f"?{base}&control={ok}", "s3cret").valid
    cases = {
        _control("77", "approved", "o 1", "s3cret"): "control-field-order",
        _control("s3cret", "approved", "77", "o 1"): "control-field-order",
        ok.upper(): "control-uppercase-hex",
        _control("approved", "77", "m-1", "s3cret"): "control-merchant-order",
        _control("approved", "77", "o%201", "s3cret"): "control-encoded-values",
        "0" * 40: "unexplained",
    }
    for control, code in cases.items():
        verdict = check_control(f"{base}&control={control}", "s3cret")
        assert (verdict.valid, verdict.code) == (False, code)
        assert verdict.expected == ok
    with pytest.raises(ValueError, match="lacks control"):
        check_control("status=approved&orderid=1&client_orderid=2", "s")


# NUL is left out: the console's encoder has a known fault with it, fixed on its own.
_TEXT = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)))


@settings(max_examples=200, deadline=None)
@given(
    params=st.lists(st.tuples(_TEXT.filter(lambda n: not n.startswith("oauth_")), _TEXT)),
    group=st.booleans(),
)
def test_expected_base_string_matches_the_console_signer(
    params: list[tuple[str, str]], group: bool
) -> None:
    from console.core.siglab.received import Received
    from console.core.signing import signature_base_string

    url = "https://Gateway.Example:443/paynet/api/v4/payout-check/" + ("group/2" if group else "1")
    oauth = (("oauth_consumer_key", "demo"), ("oauth_nonce", "n"))
    received = Received(
        "POST",
        "https",
        "Gateway.Example",
        443,
        url.split(":443", 1)[1],
        (),
        tuple(params),
        None,
        oauth,
        "",
    )
    assert correct(received) == signature_base_string("POST", url, [*params, *oauth])


@settings(max_examples=150, deadline=None)
@given(
    head=st.sampled_from(
        [
            "POST /p HTTP/1.1\nHost: ",
            'POST /p HTTP/1.1\nHost: h\nAuthorization: OAuth oauth_timestamp="1", '
            'oauth_signature="',
            'POST /p?a=1 HTTP/1.1\nHost: h\nAuthorization: OAuth oauth_signature="x"\n\n',
            "curl ",
            "POST http://",
            "",
        ]
    ),
    text=st.text(max_size=300),
)
def test_garbage_is_explained_never_a_crash(
    rsa_key: rsa.RSAPrivateKey, head: str, text: str
) -> None:
    try:
        received = from_capture(parse_request_text(head + text))
    except CaptureError as exc:
        message = str(exc)
        assert message  # a reason, not a traceback
        return
    verdict = diagnose(received, rsa_key.public_key(), now=0)
    assert not verdict.valid
    assert verdict.findings
