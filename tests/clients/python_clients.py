"""Requests signed by oauthlib and requests-oauthlib (RSA-SHA256 through PyJWT), correct ones
and ones with the mistakes integrators make around them.

Each mistake is made the way an integrator makes it: the library signs one thing and the
code around it sends another (a URL rewritten, a body built by hand, a value edited).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

import oauthlib.oauth1 as oauth1
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from requests_oauthlib import OAuth1

from tests.clients.wire import FORM, Case, Target, WireRequest

Fields = list[tuple[str, str]]


def payout_fields(order: str, **extra: str) -> Fields:
    """A payout check's fields with values that encoders disagree on."""
    fields = [
        ("client_orderid", order),
        ("amount", "10.50"),
        ("currency", "EUR"),
        ("order_desc", "Refund (partial) for you ~ a/b"),
        ("credit_card_number", "4444444444444448"),
        ("card_printed_name", "JOHN SMITH"),
        ("expire_month", "12"),
        ("expire_year", "2030"),
        ("cvv2", "123"),
    ]
    return [*((n, extra.pop(n)) if n in extra else (n, v) for n, v in fields), *extra.items()]


def form(fields: Fields) -> str:
    return urlencode(fields, quote_via=quote)


def pem(key: rsa.RSAPrivateKey) -> str:
    """PKCS#1 PEM text of a private key (what oauthlib's RSA signer reads)."""
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode()


def _with(url: str, *, scheme: str | None = None, netloc: str | None = None) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme=scheme or parts.scheme, netloc=netloc or parts.netloc))


def oauthlib_cases(t: Target, key: rsa.RSAPrivateKey, other: rsa.RSAPrivateKey) -> list[Case]:
    """oauthlib's Client.sign: two correct requests and thirteen mistakes around it."""

    def client(signer: rsa.RSAPrivateKey = key) -> oauth1.Client:
        return oauth1.Client(
            t.login,
            signature_method=oauth1.SIGNATURE_RSA_SHA256,
            rsa_key=pem(signer),
            timestamp=str(t.now),
            nonce=secrets.token_hex(12),
        )

    def signed(url: str, body: str | None, method: str = "POST", c: oauth1.Client | None = None):  # type: ignore[no-untyped-def]
        headers = {"Content-Type": FORM} if body is not None else {}
        return (c or client()).sign(url, http_method=method, body=body, headers=headers)[1][
            "Authorization"
        ]

    def case(name: str, expect: tuple[str, ...], wire: WireRequest) -> Case:
        return Case("oauthlib", name, frozenset(expect), wire)

    url, group = t.url(), t.url(group=True)
    out: list[Case] = []

    def simple(name: str, expect: tuple[str, ...], fields: Fields, send_url: str = url) -> None:
        body = form(fields)
        out.append(
            case(name, expect, WireRequest("POST", send_url, signed(send_url, body), body.encode()))
        )

    simple("ok", (), payout_fields("ol-ok"))
    simple("ok-group", (), payout_fields("ol-ok-group"), group)

    # GET signed with the fields in the URL, then POSTed as a form
    body = form(payout_fields("ol-get"))
    auth = signed(f"{url}?{body}", None, "GET")
    out.append(
        case("get-signed", ("method-differs",), WireRequest("POST", url, auth, body.encode()))
    )

    # signed for one scheme, sent over the other
    other_scheme = "http" if urlsplit(url).scheme == "https" else "https"
    body = form(payout_fields("ol-scheme"))
    auth = signed(_with(url, scheme=other_scheme), body)
    out.append(case("scheme", ("scheme-differs",), WireRequest("POST", url, auth, body.encode())))

    # signed without the port the request went to
    body = form(payout_fields("ol-port"))
    auth = signed(_with(url, netloc=urlsplit(url).hostname), body)
    out.append(
        case("port-left-out", ("port-left-out",), WireRequest("POST", url, auth, body.encode()))
    )

    # the group form sent, the signed URL built without its /group/ part
    body = form(payout_fields("ol-group"))
    auth = signed(group.replace("/group/", "/", 1), body)
    out.append(
        case("group-left-out", ("path-differs",), WireRequest("POST", group, auth, body.encode()))
    )

    # a query value quote()d by hand, then encoded again when the URL was built
    body = form(payout_fields("ol-query"))
    auth = signed(f"{url}?note=a%20b", body)
    wire = WireRequest("POST", f"{url}?note=a%2520b", auth, body.encode())
    out.append(case("query-twice", ("query-double-encoded",), wire))

    # a literal + signed as %2B but sent unencoded (the gateway reads a space)
    fields = payout_fields("ol-plus", order_desc="1+1 refund")
    auth = signed(url, form(fields))
    sent = form(fields).replace("1%2B1", "1+1")
    out.append(case("plus", ("plus-literal",), WireRequest("POST", url, auth, sent.encode())))

    # an & inside a value sent unencoded (the body built with an f-string)
    fields = payout_fields("ol-amp", order_desc="Tom & Jerry")
    auth = signed(url, form(fields))
    sent = "&".join(f"{n}={v}" for n, v in fields).replace(" ", "%20").replace("~", "%7E")
    wire = WireRequest("POST", url, auth, sent.encode())
    out.append(case("amp", ("unencoded-ampersand",), wire))

    # the amount edited after signing: nothing explains it, and the lab must say so
    fields = payout_fields("ol-changed")
    auth = signed(url, form(fields))
    sent = form(fields).replace("amount=10.50", "amount=100.50")
    out.append(case("changed", ("unexplained",), WireRequest("POST", url, auth, sent.encode())))

    # a field sent twice, signed from a dict that kept one copy
    fields = [*payout_fields("ol-dup"), ("merchant_data", "first"), ("merchant_data", "second")]
    auth = signed(url, form(list(dict(fields).items())))
    wire = WireRequest("POST", url, auth, form(fields).encode())
    out.append(case("duplicate", ("duplicate-kept-once",), wire))

    # signed without a body, sent as JSON
    auth = signed(url, None)
    data = json.dumps(dict(payout_fields("ol-json"))).encode()
    wire = WireRequest("POST", url, auth, data, "application/json")
    out.append(case("json", ("json-body",), wire))

    # a body saved to a file with its final line feed, signed without it
    body = form(payout_fields("ol-lf"))
    wire = WireRequest("POST", url, signed(url, body), (body + "\n").encode())
    out.append(case("line-feed", ("line-feed-not-signed",), wire))

    # signed with another key
    body = form(payout_fields("ol-key"))
    auth = signed(url, body, c=client(other))
    out.append(case("wrong-key", ("wrong-key",), WireRequest("POST", url, auth, body.encode())))

    # HMAC-SHA1 with a shared secret
    hmac = oauth1.Client(
        t.login, client_secret="secret", signature_method=oauth1.SIGNATURE_HMAC_SHA1
    )
    body = form(payout_fields("ol-hmac"))
    auth = signed(url, body, c=hmac)
    out.append(case("hmac", ("hmac-sha1",), WireRequest("POST", url, auth, body.encode())))
    return out


def requests_oauthlib_cases(t: Target, key: rsa.RSAPrivateKey) -> list[Case]:
    """requests-oauthlib's OAuth1 on prepared requests: three correct, four mistakes."""

    def prepared(url: str, realm: str | None = None, **kw: object) -> requests.PreparedRequest:
        auth = OAuth1(
            t.login,
            signature_method=oauth1.SIGNATURE_RSA_SHA256,
            rsa_key=pem(key),
            realm=realm,
            timestamp=str(t.now),
            nonce=secrets.token_hex(12),
        )
        return requests.Request("POST", url, auth=auth, **kw).prepare()  # type: ignore[arg-type]

    def wire(p: requests.PreparedRequest, url: str | None = None) -> WireRequest:
        auth = p.headers["Authorization"]
        text = auth.decode() if isinstance(auth, bytes) else auth
        body = p.body if isinstance(p.body, bytes) else (p.body or "").encode()
        ctype = p.headers.get("Content-Type")
        ctype = ctype.decode() if isinstance(ctype, bytes) else ctype
        return WireRequest("POST", url or str(p.url), text, body, ctype)

    def case(name: str, expect: tuple[str, ...], w: WireRequest) -> Case:
        return Case("requests-oauthlib", name, frozenset(expect), w)

    url = t.url()
    make: list[tuple[str, tuple[str, ...], Callable[[], WireRequest]]] = [
        ("ok", (), lambda: wire(prepared(url, data=payout_fields("ro-ok")))),
        (
            "ok-query",
            (),
            lambda: wire(prepared(url, params={"lang": "en"}, data=payout_fields("ro-query"))),
        ),
        (
            "ok-realm",
            (),
            lambda: wire(prepared(url, realm="gateway", data=payout_fields("ro-realm"))),
        ),
        (
            # a field sent twice, both copies signed: the gateway refuses it (150)
            "repeated",
            ("parameter-repeated",),
            lambda: wire(
                prepared(
                    url,
                    data=[*payout_fields("ro-rep"), ("merchant_data", "b"), ("merchant_data", "a")],
                )
            ),
        ),
        ("json", ("json-body",), lambda: wire(prepared(url, json=dict(payout_fields("ro-json"))))),
        (
            # bytes from a file with a final line feed: not a form to oauthlib, nothing signed
            "file-body",
            ("body-not-signed",),
            lambda: wire(prepared(url, data=(form(payout_fields("ro-file")) + "\n").encode())),
        ),
        (
            # signed without the /paynet prefix that a reverse proxy put in front
            "prefix",
            ("path-differs",),
            lambda: wire(
                prepared(url.replace("/paynet", "", 1), data=payout_fields("ro-prefix")), url
            ),
        ),
    ]
    return [case(name, expect, build()) for name, expect, build in make]
