"""The correct signature base string and one wrong builder per known client mistake.

Every builder is a deliberate deviation from the rules in the field notes ("Signing"): it
rebuilds the base string the way a client with exactly that mistake would. A builder returns
None where its mistake cannot change anything (``host-case`` for a host already in lower
case), so only meaningful variants are tried.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote_plus

from console.core.siglab import encoders
from console.core.siglab.encoders import Encoder, rfc3986
from console.core.siglab.received import Pairs, Received

_DEFAULT_PORTS = {"http": 80, "https": 443}

# Each mistake's stable code and what it means, in the words a log or a verdict uses.
MISTAKES: dict[str, str] = {
    "plus-for-space": "the client encoded spaces as + (form encoding) instead of %20 (RFC 3986)",
    "js-encodeuricomponent": "the client left ! ' ( ) * unencoded (JavaScript's "
    "encodeURIComponent) instead of RFC 3986 encoding",
    "slash-not-encoded": "the client left / unencoded (Python's quote() default safe='/')",
    "tilde-encoded": "the client encoded ~ as %7E; RFC 3986 keeps ~ as it is",
    "lowercase-hex": "the client wrote percent escapes in lower-case hex (%2f); they must "
    "be upper case (%2F)",
    "not-sorted": "the client did not sort the parameters by name and value",
    "sorted-before-encoding": "the client sorted the parameters before percent-encoding "
    "them; they are sorted by their encoded form",
    "oauth-token-empty": "the client signed an empty oauth_token; this API has none",
    "oauth-signature-signed": "the client put oauth_signature itself into the signed parameters",
    "default-port-kept": "the client kept the default port in the signed URL; it is dropped",
    "host-case": "the client signed the host name as written; it is signed in lower case",
    "scheme-case": "the client signed the scheme as written; it is signed in lower case",
    "path-differs": "the client signed a different path than the one the request went to",
    "query-not-signed": "the client left the URL's query parameters out of the signature",
    "body-not-signed": "the client left the body parameters out of the signature",
    "body-double-encoded": "the body values were percent-encoded twice: once more in the "
    "signature or in the body than the other",
    "value-trimmed": "the client trimmed spaces around values before signing but sent them "
    "untrimmed",
    "login-in-body": "login belongs in oauth_consumer_key only, never in the body",
    "sha1-instead-of-sha256": "the client signed with RSA-SHA1 instead of RSA-SHA256",
    "pss-padding": "the client used RSA-PSS padding instead of PKCS#1 v1.5",
    "hex-signature": "the client sent the signature in hex (a debug form) instead of base64",
    "signature-not-url-decoded": "the signature in the header was percent-encoded twice, "
    "or its percent-encoding was not undone",
    "wrong-key": "the request was signed with another key than the one it was checked with",
    "timestamp-millis": "oauth_timestamp is in milliseconds; the gateway wants Unix seconds",
    "timestamp-stale": "oauth_timestamp is outside the gateway's window of real time",
}


@dataclass(frozen=True)
class Recipe:
    """How one signer builds its base string."""

    inner: Encoder = rfc3986  # names and values
    outer: Encoder = rfc3986  # the URI and the normalized string
    order: str = "encoded"  # encoded | decoded | as-sent | oauth-first
    uri: Callable[[Received], str | None] | None = None
    params: Callable[[Received], Pairs | None] | None = None


def correct_uri(r: Received) -> str:
    return _uri(r.scheme.lower(), r.host.lower(), _port(r), r.path)


def correct_params(r: Received) -> Pairs:
    return (*r.query, *r.body, *r.signed_oauth)


def build(r: Received, recipe: Recipe = Recipe()) -> str | None:
    """The base string ``recipe`` makes of ``r``, or None when it does not apply."""
    uri = (recipe.uri or correct_uri)(r)
    pairs = (recipe.params or correct_params)(r)
    if uri is None or pairs is None:
        return None
    enc = recipe.inner
    if recipe.order == "encoded":
        normalized = sorted((enc(n), enc(v)) for n, v in pairs)
    elif recipe.order == "decoded":
        normalized = [(enc(n), enc(v)) for n, v in sorted(pairs, key=_byte_order)]
    else:
        if recipe.order == "oauth-first":
            pairs = (*r.signed_oauth, *r.query, *r.body)
        normalized = [(enc(n), enc(v)) for n, v in pairs]
    text = "&".join(f"{n}={v}" for n, v in normalized)
    return f"{recipe.outer(r.method)}&{recipe.outer(uri)}&{recipe.outer(text)}"


def correct(r: Received) -> str:
    """The base string the gateway computes."""
    base = build(r)
    assert base is not None
    return base


def _byte_order(pair: tuple[str, str]) -> tuple[bytes, bytes]:
    return tuple(p.encode("utf-8", "surrogateescape") for p in pair)  # type: ignore[return-value]


def _port(r: Received) -> int | None:
    return None if r.port == _DEFAULT_PORTS.get(r.scheme.lower()) else r.port


def _uri(scheme: str, host: str, port: int | None, path: str) -> str:
    return f"{scheme}://{host}{f':{port}' if port else ''}{path}"


def _default_port(r: Received) -> str | None:
    if _port(r) is not None or r.scheme.lower() not in _DEFAULT_PORTS:
        return None
    return _uri(r.scheme.lower(), r.host.lower(), _DEFAULT_PORTS[r.scheme.lower()], r.path)


def _host_case(r: Received) -> str | None:
    return None if r.host == r.host.lower() else _uri(r.scheme.lower(), r.host, _port(r), r.path)


def _scheme_case(r: Received) -> str | None:
    if r.scheme == r.scheme.lower():
        return None
    return _uri(r.scheme, r.host.lower(), _port(r), r.path)


def _paths(r: Received) -> list[Callable[[Received], str | None]]:
    def with_path(path: str) -> Callable[[Received], str | None]:
        return lambda r: (
            None if path == r.path else _uri(r.scheme.lower(), r.host.lower(), _port(r), path)
        )

    candidates = [r.path.replace("/group/", "/", 1), r.path.rstrip("/") or "/", r.path + "/"]
    api = r.path.find("/api/")
    if api > 0:
        candidates.append(r.path[api:])
    return [with_path(p) for p in dict.fromkeys(candidates)]


def _without(part: str) -> Callable[[Received], Pairs | None]:
    def params(r: Received) -> Pairs | None:
        if not getattr(r, part):
            return None
        rest = (*r.body,) if part == "query" else (*r.query,)
        return (*rest, *r.signed_oauth)

    return params


def _with_oauth(name: str) -> Callable[[Received], Pairs | None]:
    def params(r: Received) -> Pairs | None:
        if name in {n for n, _ in r.signed_oauth}:
            return None
        return (*correct_params(r), (name, r.oauth_value(name) or ""))

    return params


def _body_values(change: Callable[[str], str]) -> Callable[[Received], Pairs | None]:
    def params(r: Received) -> Pairs | None:
        body = tuple((n, change(v)) for n, v in r.body)
        query = tuple((n, change(v)) for n, v in r.query)
        if body == r.body and query == r.query:
            return None
        return (*query, *body, *r.signed_oauth)

    return params


def _raw_body(r: Received) -> Pairs | None:
    if r.body_raw is None or [v for _, v in r.body_raw] == [v for _, v in r.body]:
        return None
    return (
        *r.query,
        *((n, v) for (n, _), (_, v) in zip(r.body, r.body_raw, strict=True)),
        *r.signed_oauth,
    )


def _login(r: Received) -> Pairs | None:
    login = r.oauth_value("oauth_consumer_key") or ""
    if any(n == "login" for n, _ in r.body):  # sent in the body but not signed
        return (*r.query, *((n, v) for n, v in r.body if n != "login"), *r.signed_oauth)
    return (*correct_params(r), ("login", login))


def _decode_again(value: str) -> str:
    return unquote_plus(value, errors="surrogateescape")


def _encoder_recipes(code: str, enc: Encoder) -> list[tuple[str, Recipe]]:
    # Either the one wrong encoder everywhere, or only for names and values.
    return [(code, Recipe(inner=enc, outer=enc)), (code, Recipe(inner=enc))]


def recipes(r: Received) -> list[tuple[str, Recipe]]:
    """Every (mistake code, recipe) worth trying on ``r``."""
    out = [
        *_encoder_recipes("plus-for-space", encoders.form_encoding),
        *_encoder_recipes("js-encodeuricomponent", encoders.encode_uri_component),
        *_encoder_recipes("slash-not-encoded", encoders.quote_default),
        *_encoder_recipes("tilde-encoded", encoders.tilde_encoded),
        *_encoder_recipes("lowercase-hex", encoders.lowercase_hex),
        ("not-sorted", Recipe(order="as-sent")),
        ("not-sorted", Recipe(order="oauth-first")),
        ("sorted-before-encoding", Recipe(order="decoded")),
        ("oauth-token-empty", Recipe(params=_with_oauth("oauth_token"))),
        ("oauth-signature-signed", Recipe(params=_with_oauth("oauth_signature"))),
        ("default-port-kept", Recipe(uri=_default_port)),
        ("host-case", Recipe(uri=_host_case)),
        ("scheme-case", Recipe(uri=_scheme_case)),
        *[("path-differs", Recipe(uri=uri)) for uri in _paths(r)],
        ("query-not-signed", Recipe(params=_without("query"))),
        ("body-not-signed", Recipe(params=_without("body"))),
        ("body-double-encoded", Recipe(params=_raw_body)),
        ("body-double-encoded", Recipe(params=_body_values(_decode_again))),
        ("value-trimmed", Recipe(params=_body_values(str.strip))),
        ("login-in-body", Recipe(params=_login)),
    ]
    return out
