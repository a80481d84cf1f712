"""Decoding the gateway's answers: every shape the contract names, and garbage."""

from __future__ import annotations

import json
from urllib.parse import quote_plus

import pytest

from console.core.responses import ACCESS_DENIED_SUMMARY, DecodedResponse, Kind, decode

HTML = {"Content-Type": "text/html;charset=utf-8"}  # the contract's response content type


def form(*pairs: tuple[str, str], end: str = "\n") -> bytes:
    """A body the way the gateway writes it: each value followed by a line feed."""
    return "&".join(f"{n}={quote_plus(v)}{end}" for n, v in pairs).encode()


def ok(body: bytes, **kw: str) -> DecodedResponse:
    return decode(200, HTML, body, **kw)


# --- success ------------------------------------------------------------------------------


def test_payout_check_success_strips_line_feeds_and_names_the_order() -> None:
    body = form(
        ("type", "async-response"),
        ("serial-number", "00000000-0000-0000-0000-0000029c7a7c"),
        ("merchant-order-id", "902B4FF5"),
        ("gateway-order-id", "1969596"),
        ("end-point-id", "1"),
    )
    r = ok(body, expected_type="async-response")
    assert r.kind is Kind.SUCCESS
    assert r.type == "async-response"
    assert r.get("serial-number") == "00000000-0000-0000-0000-0000029c7a7c"
    assert all("\n" not in v for _, v in r.fields)
    assert "1969596" in r.summary
    assert "callback" in r.summary  # payout-check is asynchronous: say where the outcome comes
    assert r.raw == body


@pytest.mark.parametrize(
    ("rtype", "fields", "words"),
    [
        (
            "create-card-ref-response",
            [("status", "approved"), ("recurring-payment-id", "88")],
            "88",
        ),
        ("create-recurring-payment-response", [("recurring-payment-id", "123456")], "123456"),
        ("status-response", [("status", "processing")], "still being processed"),
        ("status-response", [("status", "approved")], "approved"),
    ],
)
def test_each_success_type_is_a_success(
    rtype: str, fields: list[tuple[str, str]], words: str
) -> None:
    r = ok(form(("type", rtype), *fields))
    assert r.kind is Kind.SUCCESS
    assert words in r.summary


def test_values_are_form_decoded_and_repeated_names_kept_in_order() -> None:
    body = b"type=async-response\n&note=a+b%26c%3Dd%C3%A9\n&x=1\n&x=2\n"
    r = ok(body)
    assert r.get("note") == "a b&c=dé"
    assert [v for n, v in r.fields if n == "x"] == ["1", "2"]
    assert r.get("x") == "1"
    assert r.get("absent") is None


@pytest.mark.parametrize("end", ["\r\n", ""])
def test_crlf_and_missing_line_feeds_are_tolerated(end: str) -> None:
    r = ok(form(("type", "async-response"), ("merchant-order-id", "A1"), end=end))
    assert r.kind is Kind.SUCCESS
    assert r.get("merchant-order-id") == "A1"


def test_other_known_success_type_is_accepted_with_a_note() -> None:
    r = ok(
        form(("type", "status-response"), ("status", "approved")), expected_type="async-response"
    )
    assert r.kind is Kind.SUCCESS
    assert "async-response" in r.summary


# --- rejected and declined ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rtype", "kind"), [("validation-error", Kind.VALIDATION_ERROR), ("error", Kind.ERROR)]
)
def test_gateway_rejections_carry_message_and_code(rtype: str, kind: Kind) -> None:
    body = form(("type", rtype), ("error-message", "Invalid amount: 10,5"), ("error-code", "2"))
    r = ok(body, expected_type="async-response")
    assert r.kind is kind
    assert r.error_message == "Invalid amount: 10,5"
    assert r.error_code == "2"
    assert "Invalid amount: 10,5" in r.summary
    assert "2" in r.summary


def test_declined_status_is_declined() -> None:
    body = form(("type", "status-response"), ("status", "declined"), ("error-message", "Stolen"))
    r = ok(body)
    assert r.kind is Kind.DECLINED
    assert r.status == "declined"
    assert "Stolen" in r.summary


def test_filtered_status_is_declined_by_fraud_control() -> None:
    r = ok(form(("type", "status-response"), ("status", "filtered")))
    assert r.kind is Kind.DECLINED
    assert "fraud" in r.summary


def test_error_status_on_a_success_type_is_an_error() -> None:
    r = ok(form(("type", "create-card-ref-response"), ("status", "error")))
    assert r.kind is Kind.ERROR
    assert "client_orderid" in r.summary


# --- 403 and 500 --------------------------------------------------------------------------


def test_403_html_page_is_access_denied_with_advice_on_signature() -> None:
    page = b"<html><head><title>403</title></head><body><h1>Access denied</h1></body></html>"
    r = decode(403, {"Content-Type": "text/html"}, page)
    assert r.kind is Kind.ACCESS_DENIED
    assert r.summary == ACCESS_DENIED_SUMMARY
    for word in ("signature", "key", "login", "URL"):
        assert word in r.summary
    assert r.error_message == "403 Access denied"
    assert r.raw == page


def test_500_extracts_the_bracketed_id_to_quote_to_support() -> None:
    r = decode(500, {"Content-Type": "text/plain"}, b"Internal error [ab12-cd34-0042]\n")
    assert r.kind is Kind.SERVER_ERROR
    assert r.error_id == "ab12-cd34-0042"
    assert "ab12-cd34-0042" in r.summary
    assert "support" in r.summary
    assert "status" in r.summary  # money may have moved: check before resending


def test_500_without_an_id_still_says_what_to_do() -> None:
    r = decode(500, {}, b"Internal error")
    assert r.kind is Kind.SERVER_ERROR
    assert r.error_id is None
    assert "no error id" in r.summary


def test_proxy_5xx_is_a_server_error_naming_the_status() -> None:
    r = decode(502, {"Content-Type": "text/html"}, b"<h1>Bad Gateway</h1>")
    assert r.kind is Kind.SERVER_ERROR
    assert "502" in r.summary


# --- malformed ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "headers", "body", "why"),
    [
        (200, HTML, b"", "empty"),
        (200, HTML, b"  \n ", "empty"),
        (200, HTML, b"type=async-response\n&serial-nu", "cut off"),
        (200, HTML, b"type=async-response\n&serial-number=12", "cut off"),
        (200, HTML, b"type=async-response\n&a=%4", "cut off or badly encoded"),
        (200, HTML, b"type=async-response\n&a=\x00\x01\x02\n", "binary"),
        (200, HTML, b"type=\xff\xfe\n", "not readable utf-8"),
        (200, HTML, b"type=%FF%FE\n", "not readable utf-8"),
        (200, HTML, b"<html><body>Welcome to nginx!</body></html>", "HTML page"),
        (200, HTML, b'{"type": "async-response"}', "JSON"),
        (200, {"Content-Type": "application/json"}, b"type=async-response\n", "content type"),
        (200, HTML, b"serial-number=1\n", "no type field"),
        (404, HTML, b"type=async-response\n", "HTTP 404"),
    ],
)
def test_malformed_answers_keep_raw_bytes_and_say_why(
    status: int, headers: dict[str, str], body: bytes, why: str
) -> None:
    r = decode(status, headers, body, expected_type="async-response")
    assert r.kind is Kind.MALFORMED
    assert r.raw == body
    assert why in r.summary
    assert f"HTTP {status}" in r.summary


def test_unknown_type_is_malformed_but_keeps_the_fields() -> None:
    r = ok(form(("type", "sale-response"), ("status", "approved"), ("orderid", "5")))
    assert r.kind is Kind.MALFORMED
    assert r.type == "sale-response"
    assert r.get("orderid") == "5"
    assert "sale-response" in r.summary


def test_redirect_is_reported_with_its_target() -> None:
    r = decode(302, {"Location": "https://gw.example/paynet/"}, b"")
    assert r.kind is Kind.MALFORMED
    assert "https://gw.example/paynet/" in r.summary
    assert "base URL" in r.summary


# --- character sets -----------------------------------------------------------------------


def test_declared_charset_is_honoured() -> None:
    body = "type=error\n&error-message=Montant invalide: é\n".encode("latin-1")
    r = decode(200, {"content-type": "text/html; charset=ISO-8859-1"}, body)
    assert r.kind is Kind.ERROR
    assert r.error_message == "Montant invalide: é"


@pytest.mark.parametrize("charset", ["no-such-charset", "rot13", '"utf-8"'])
def test_unknown_or_odd_charset_falls_back_to_utf8(charset: str) -> None:
    body = "type=error\n&error-message=é\n".encode()
    r = decode(200, {"Content-Type": f"text/html;charset={charset}"}, body)
    assert r.kind is Kind.ERROR
    assert r.error_message == "é"


# --- JSON shape ---------------------------------------------------------------------------


def test_to_json_is_serialisable_and_keeps_everything() -> None:
    body = b"type=error\n&error-message=Bad\n&error-code=7\n&x=1\n&x=2\n&tail=\xff\n"
    r = decode(200, HTML, body)
    assert r.kind is Kind.MALFORMED  # the \xff is not utf-8
    data = json.loads(json.dumps(r.to_json()))
    assert set(data) == {
        "http_status",
        "kind",
        "type",
        "status",
        "fields",
        "raw",
        "summary",
        "error_message",
        "error_code",
        "error_id",
    }
    assert data["kind"] == "malformed"
    assert "\ufffd" in data["raw"]

    good = ok(b"type=error\n&error-message=Bad\n&error-code=7\n&x=1\n&x=2\n").to_json()
    assert good["fields"] == {
        "type": "error",
        "error-message": "Bad",
        "error-code": "7",
        "x": ["1", "2"],
    }
    assert good["error_code"] == "7"
    assert good["http_status"] == 200
