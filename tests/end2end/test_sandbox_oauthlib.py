"""An independent client (requests-oauthlib, RSA-SHA256) is accepted, and one changed byte
in the body, URL, nonce or signature is refused with 403 for the right reason."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from oauthlib.oauth1 import SIGNATURE_RSA_SHA256
from requests_oauthlib import OAuth1

from console.sandbox import SandboxHandle
from tests.helpers.sandbox_client import form_fields, payout_values, pem_of, url_for


def prepared_payout(
    sandbox: SandboxHandle, key: rsa.RSAPrivateKey, client_orderid: str
) -> requests.PreparedRequest:
    auth = OAuth1(
        sandbox.demo.login,
        signature_method=SIGNATURE_RSA_SHA256,
        rsa_key=pem_of(key).decode("ascii"),
        signature_type="auth_header",
    )
    request = requests.Request(
        "POST",
        url_for(sandbox, "payout-check"),
        data=payout_values(client_orderid, order_desc="a b+c"),
        auth=auth,
    )
    return request.prepare()


def send(prepared: requests.PreparedRequest) -> requests.Response:
    with requests.Session() as session:
        return session.send(prepared, timeout=10)


def test_requests_oauthlib_gets_a_real_async_response(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    response = send(prepared_payout(sandbox, rsa_key, "indep-1"))
    assert response.status_code == 200
    answer = form_fields(response)
    assert answer["type"] == "async-response"
    assert answer["merchant-order-id"] == "indep-1"


def _body(prepared: requests.PreparedRequest) -> bytes:
    body = prepared.body
    assert isinstance(body, (bytes, str))
    return body.encode("ascii") if isinstance(body, str) else body


def change_body(prepared: requests.PreparedRequest) -> None:
    body = _body(prepared)
    prepared.body = body.replace(b"amount=10.00", b"amount=10.01")
    prepared.headers["Content-Length"] = str(len(prepared.body))


def change_url(prepared: requests.PreparedRequest) -> None:
    assert prepared.url is not None
    prepared.url = prepared.url.replace("/payout-check/1001", "/payout-check/1002")


def _header(prepared: requests.PreparedRequest) -> str:
    value = prepared.headers["Authorization"]
    return value.decode("ascii") if isinstance(value, bytes) else value


def _change_first_character(
    prepared: requests.PreparedRequest, name: str, first: str, otherwise: str
) -> None:
    """Change the first character of the ``name`` value in the Authorization header."""
    header = _header(prepared)
    match = re.search(rf'{name}="([^"]+)"', header)
    assert match is not None
    value = match.group(1)
    changed = (first if value[0] != first else otherwise) + value[1:]
    prepared.headers["Authorization"] = header.replace(value, changed)


def change_nonce(prepared: requests.PreparedRequest) -> None:
    _change_first_character(prepared, "oauth_nonce", "1", "2")


def change_signature(prepared: requests.PreparedRequest) -> None:
    _change_first_character(prepared, "oauth_signature", "A", "B")


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (change_body, "does not match"),
        (change_url, "does not match"),
        (change_nonce, "does not match"),
        (change_signature, "does not match"),
    ],
    ids=["body", "url", "nonce", "signature"],
)
def test_one_changed_byte_is_refused(
    sandbox: SandboxHandle,
    rsa_key: rsa.RSAPrivateKey,
    caplog: pytest.LogCaptureFixture,
    mutate: Callable[[requests.PreparedRequest], None],
    reason: str,
) -> None:
    prepared = prepared_payout(sandbox, rsa_key, "indep-2")
    mutate(prepared)
    with caplog.at_level(logging.WARNING, logger="console.sandbox"):
        response = send(prepared)
    assert response.status_code == 403
    assert response.headers["Content-Type"].startswith("text/html")
    assert b"<title>403</title>" in response.content
    assert b"denied" in response.content
    assert any(reason in r.getMessage() for r in caplog.records), caplog.text
    # the untouched request still works: the refusal was about the changed byte
    assert send(prepared_payout(sandbox, rsa_key, "indep-2")).status_code == 200


def test_replaying_the_same_request_is_refused(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey, caplog: pytest.LogCaptureFixture
) -> None:
    prepared = prepared_payout(sandbox, rsa_key, "indep-3")
    assert send(prepared).status_code == 200
    with caplog.at_level(logging.WARNING, logger="console.sandbox"):
        assert send(prepared).status_code == 403
    assert "already used" in caplog.text
