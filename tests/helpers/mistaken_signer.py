"""A signer written for the tests, apart from the console's: it signs a request the way the
field notes say, or with exactly one named mistake, and returns what goes over the wire.

Nothing here comes from ``console``: the lab must recognise mistakes made by code it has
never seen.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

_KEEP = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


@dataclass(frozen=True)
class Wire:
    """A signed request as sent."""

    url: str
    authorization: str
    body: str

    def http(self) -> str:
        _scheme, _, rest = self.url.partition("://")
        host, _, path = rest.partition("/")
        return (
            f"POST /{path} HTTP/1.1\r\nHost: {host}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Authorization: {self.authorization}\r\n\r\n{self.body}"
        )


def pct(text: str, keep: bytes = _KEEP, *, lower: bool = False, plus: bool = False) -> str:
    out = []
    for byte in text.encode("utf-8"):
        if byte in keep:
            out.append(chr(byte))
        elif plus and byte == 0x20:
            out.append("+")
        else:
            out.append(f"%{byte:02x}" if lower else f"%{byte:02X}")
    return "".join(out)


ENCODERS = {
    "plus-for-space": lambda t: pct(t, plus=True),
    "js-encodeuricomponent": lambda t: pct(t, _KEEP + b"!'()*"),
    "slash-not-encoded": lambda t: pct(t, _KEEP + b"/"),
    "tilde-encoded": lambda t: pct(t, _KEEP.replace(b"~", b"")),
    "lowercase-hex": lambda t: pct(t, lower=True),
}


def sign(
    url: str,
    params: list[tuple[str, str]],
    key: rsa.RSAPrivateKey,
    *,
    mistake: str = "",
    login: str = "demo",
    nonce: str = "nonce-1",
    timestamp: int = 1_700_000_000,
    signed_url: str | None = None,
) -> Wire:
    """Sign like a client with ``mistake`` (empty: no mistake).

    ``signed_url`` is the URL the client signs when it differs from the one it sends to.
    """
    enc = ENCODERS.get(mistake, pct)
    inner_only = mistake.endswith(":inner")
    if inner_only:
        enc, mistake = ENCODERS[mistake.split(":")[0]], mistake.split(":")[0]
    outer = pct if inner_only else enc
    stamp = str(timestamp * 1000 if mistake == "timestamp-millis" else timestamp)
    oauth = [
        ("oauth_consumer_key", login),
        ("oauth_nonce", nonce),
        ("oauth_signature_method", "RSA-SHA256"),
        ("oauth_timestamp", stamp),
        ("oauth_version", "1.0"),
    ]
    header_extra = [("oauth_token", "")] if mistake == "oauth-token-empty" else []
    sent_body = [(n, v) for n, v in params]
    signed_body = list(sent_body)
    if mistake == "value-trimmed":
        signed_body = [(n, v.strip()) for n, v in signed_body]
    if mistake == "login-in-body":
        signed_body.append(("login", login))
    if mistake == "body-double-encoded":
        signed_body = [(n, pct(v)) for n, v in signed_body]
    body_text = "&".join(f"{pct(n)}={pct(v)}" for n, v in sent_body)

    base_url = signed_url or url
    scheme_host, _, rest = base_url.partition("://")
    authority, _, tail = rest.partition("/")
    path, _, query = ("/" + tail).partition("?")
    if mistake != "scheme-case":
        scheme_host = scheme_host.lower()
    if mistake != "host-case":
        authority = authority.lower()
    if mistake != "default-port-kept":
        for default in (":443", ":80"):
            authority = authority.removesuffix(default)
    query_pairs = [tuple(q.split("=", 1)) for q in query.split("&") if q]
    signed = list(signed_body) + list(oauth)
    if mistake != "query-not-signed":
        signed += [(n, v) for n, v in query_pairs]  # plain values in these tests
    if mistake == "body-not-signed":
        signed = [p for p in signed if p not in sent_body]
    if mistake == "oauth-token-empty":
        signed.append(("oauth_token", ""))
    if mistake == "oauth-signature-signed":
        signed.append(("oauth_signature", ""))
    if mistake == "not-sorted":
        pairs = [(enc(n), enc(v)) for n, v in signed]
    elif mistake == "sorted-before-encoding":
        pairs = [(enc(n), enc(v)) for n, v in sorted(signed)]
    else:
        pairs = sorted((enc(n), enc(v)) for n, v in signed)
    normalized = "&".join(f"{n}={v}" for n, v in pairs)
    uri = f"{scheme_host}://{authority}{path}"
    base = f"POST&{outer(uri)}&{outer(normalized)}".encode()

    if mistake == "sha1-instead-of-sha256":
        raw = key.sign(base, padding.PKCS1v15(), hashes.SHA1())
    elif mistake == "pss-padding":
        pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32)
        raw = key.sign(base, pss, hashes.SHA256())
    else:
        raw = key.sign(base, padding.PKCS1v15(), hashes.SHA256())
    text = raw.hex() if mistake == "hex-signature" else base64.b64encode(raw).decode()
    encoded_sig = pct(text)
    if mistake == "signature-not-url-decoded":
        encoded_sig = pct(encoded_sig)
    header = [*oauth[:2], ("oauth_signature", None), *oauth[2:], *header_extra]
    parts = [f'{n}="{encoded_sig if v is None else pct(v)}"' for n, v in header]
    return Wire(url, "OAuth " + ", ".join(parts), body_text)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
