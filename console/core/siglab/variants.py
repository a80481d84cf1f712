"""The base strings a client may have signed: the correct one, and the deviations known
clients make, one dimension at a time.

Dimensions: the method; the base string URI (scheme, host, port, path, a query left in);
which parameters are signed (query and body read another way, a copy of a repeated field
dropped, extra parameters such as realm or oauth_body_hash); the encoder of names and
values; the order. Every option has a stable ``key`` (so the same choice can be rebuilt on
the request with card data masked), its mistake codes and its cost (0 for the correct
reading, 1 for one mistake; an encoder that makes two known deviations at once counts as
the one client function it is). :mod:`console.core.siglab.search` combines them.

Each option follows the field notes ("Signing") except for its one deliberate deviation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from typing import Generic, TypeVar

from console.core.siglab import readings
from console.core.siglab.encoders import Encoder, rfc3986
from console.core.siglab.received import Pairs, Received

T = TypeVar("T")
DEFAULT_PORTS = {"http": 80, "https": 443}
BUDGET = 2  # mistakes combined at most (a library's encoder counts as one)


@dataclass(frozen=True)
class Option(Generic[T]):
    """One way of reading one dimension."""

    key: str
    codes: tuple[str, ...]
    cost: int
    value: T


@dataclass(frozen=True)
class ParamSet:
    """The signed parameters in three groups (kept apart for the unsorted orders)."""

    query: Pairs
    body: Pairs
    oauth: Pairs  # the five signed oauth parameters, and any extra a client signed

    @property
    def all(self) -> Pairs:
        return (*self.query, *self.body, *self.oauth)


def _one(key: str, code: str, value: T) -> Option[T]:
    return Option(key, (code,), 1, value)


def methods(r: Received) -> list[Option[str]]:
    other = "GET" if r.method == "POST" else "POST"
    return [Option("", (), 0, r.method), _one("method", "method-differs", other)]


def port_text(r: Received) -> str:
    """``:port`` as the base string URI keeps it (empty for the scheme's default)."""
    default = DEFAULT_PORTS.get(r.scheme.lower())
    return "" if r.port is None or r.port == default else f":{r.port}"


def uris(r: Received) -> list[Option[str]]:
    """The correct base string URI and its deviations, up to :data:`BUDGET` at once."""
    scheme = r.scheme.lower()
    schemes = [Option("", (), 0, scheme)]
    schemes.append(_one("scheme", "scheme-differs", "http" if scheme == "https" else "https"))
    # as written, and in capitals (raw HTTP text does not show how the client wrote it)
    for written in dict.fromkeys((r.scheme, scheme.upper())):
        if written != scheme:
            schemes.append(_one(f"scheme-case:{written}", "scheme-case", written))
    hosts = [Option("", (), 0, r.host.lower())]
    if r.host != r.host.lower():
        hosts.append(_one("host-case", "host-case", r.host))
    port = port_text(r)
    ports = [Option("", (), 0, port)]
    if port:
        ports.append(_one("port-out", "port-left-out", ""))
    elif scheme in DEFAULT_PORTS:
        ports.append(_one("port-default", "default-port-kept", "default"))
    paths = [Option("", (), 0, r.path)]
    paths += [_one(f"path:{p}", "path-differs", p) for p in _paths(r.path, r.known_ids)]
    tails = [Option("", (), 0, "")]
    if r.query_text:
        tails.append(_one("query-in-uri", "query-in-uri", "?" + r.query_text))
    out = []
    for parts in product(schemes, hosts, ports, paths, tails):
        cost = sum(p.cost for p in parts)
        if cost <= BUDGET:
            s, h, p, path, tail = (o.value for o in parts)
            if p == "default":
                p = f":{DEFAULT_PORTS.get(s.lower(), 443)}"
            key = "|".join(o.key for o in parts if o.key)
            codes = tuple(c for o in parts for c in o.codes)
            out.append(Option(key, codes, cost, f"{s}://{h}{p}{path}{tail}"))
    return out


def _paths(path: str, ids: tuple[str, ...]) -> list[str]:
    candidates = [path.replace("/group/", "/", 1), path.rstrip("/") or "/", path + "/"]
    api = path.find("/api/")
    if api > 0:
        candidates.append(path[api:])
    # signed for another of the signer's endpoints or groups (the endpoint's path signed,
    # the group's sent, or the other way)
    head = path.rstrip("/").rpartition("/")[0].removesuffix("/group")
    for ident in ids:
        candidates += [f"{head}/{ident}", f"{head}/group/{ident}"]
    return [p for p in dict.fromkeys(candidates) if p != path]


def _applicable(
    options: list[tuple[str, str, Pairs | None]], baseline: Pairs
) -> list[Option[Pairs]]:
    """The options that apply and change something."""
    return [_one(k, c, v) for k, c, v in options if v is not None and v != baseline]


def queries(r: Received) -> list[Option[Pairs]]:
    q, text = r.query, r.query_text
    options = [
        ("q-none", "query-not-signed", () if q else None),
        # before q-raw: without escapes, a + read as a plus and a raw value are the same
        ("q-plus", "plus-literal", readings.form(text, plus=False) if "+" in text else None),
        ("q-decoded", "query-double-encoded", tuple((n, readings.decode(v)) for n, v in q)),
        ("q-raw", "query-double-encoded", readings.raw_values(text)),
    ]
    return [Option("", (), 0, q), *_applicable(options, q)]


def bodies(r: Received) -> list[Option[Pairs]]:
    b, text = r.body, r.body_text
    json_like = readings.is_json(r)
    ends = text.endswith("\n")
    options = [
        ("b-none", "json-body" if json_like else "body-not-signed", () if b else None),
        ("b-plus", "plus-literal", readings.form(text, plus=False) if "+" in text else None),
        ("b-raw", "body-double-encoded", readings.raw_values(text)),
        ("b-decoded", "body-double-encoded", tuple((n, readings.decode(v)) for n, v in b)),
        ("b-lf-out", "line-feed-not-signed", readings.form(text.rstrip("\r\n")) if ends else None),
        (
            "b-lf-in",
            "line-feed-not-sent",
            readings.form(text + "\n") if text and not ends else None,
        ),
        (
            "b-crlf-in",
            "line-feed-not-sent",
            readings.form(text + "\r\n") if text and not ends else None,
        ),
        ("b-trim", "value-trimmed", tuple((n, v.strip()) for n, v in b)),
        ("b-amp", "unencoded-ampersand", readings.glued(text)),
        ("b-json", "json-body-form-signed", readings.json_fields(r)),
        ("b-login", "login-in-body", tuple(p for p in b if p[0] != "login")),
    ]
    return [Option("", (), 0, b), *_applicable(options, b)]


def header_extras(r: Received) -> Pairs:
    """Header parameters that are neither oauth_ ones nor realm (body fields, most often)."""
    return tuple((n, v) for n, v in r.oauth if not n.startswith("oauth_") and n != "realm")


def extras(r: Received) -> list[Option[Pairs]]:
    """Parameters a client signed that the gateway does not."""
    names = {n for n, _ in r.oauth}
    login = r.oauth_value("oauth_consumer_key") or ""
    token = r.oauth_value("oauth_token") or ""
    options: list[tuple[str, str, Pairs | None]] = [
        ("x-token", "oauth-token-empty", (("oauth_token", token),)),
        ("x-signature", "oauth-signature-signed", (("oauth_signature", ""),)),
        ("x-realm", "realm-signed", _header_pair(r, "realm") if "realm" in names else None),
        (
            "x-body-hash",
            "oauth-body-hash",
            _header_pair(r, "oauth_body_hash") if "oauth_body_hash" in names else None,
        ),
        ("x-header", "body-fields-in-header", header_extras(r) or None),
        (
            "x-login",
            "login-in-body",
            None if any(n == "login" for n, _ in r.body) else (("login", login),),
        ),
    ]
    return [Option("", (), 0, ()), *_applicable(options, ())]


def _header_pair(r: Received, name: str) -> Pairs:
    return ((name, r.oauth_value(name) or ""),)


def duplicates(r: Received) -> list[Option[Callable[[Pairs], Pairs]]]:
    """A repeated field signed once (the first or the last copy kept, as a dict would)."""
    names = [n for n, _ in (*r.query, *r.body)]
    out: list[Option[Callable[[Pairs], Pairs]]] = [Option("", (), 0, _same)]
    if len(set(names)) < len(names):
        out.append(_one("d-first", "duplicate-kept-once", _keep_first))
        out.append(_one("d-last", "duplicate-kept-once", _keep_last))
    return out


def _same(pairs: Pairs) -> Pairs:
    return pairs


def _keep_first(pairs: Pairs) -> Pairs:
    seen: dict[str, str] = {}
    for name, value in pairs:
        seen.setdefault(name, value)
    return tuple(seen.items())


def _keep_last(pairs: Pairs) -> Pairs:
    return tuple(dict(pairs).items())


def param_sets(r: Received) -> list[Option[ParamSet]]:
    """Every combination of query, body, duplicate and extra options within the budget."""
    oauth = r.signed_oauth
    out = []
    for q, b, d, x in product(queries(r), bodies(r), duplicates(r), extras(r)):
        cost = q.cost + b.cost + d.cost + x.cost
        if cost > BUDGET:
            continue
        query, body = q.value, b.value
        if d.key:  # the copies kept, query and body as one dict
            query, body = (), d.value((*query, *body))
        key = "|".join(o.key for o in (q, b, d, x) if o.key)
        codes = tuple(c for o in (q, b, d, x) for c in o.codes)
        out.append(Option(key, codes, cost, ParamSet(query, body, (*oauth, *x.value))))
    return out


ORDERS = {
    "": "",
    "o-sent": "not-sorted",
    "o-oauth-first": "not-sorted",
    "o-body-first": "not-sorted",
    "o-decoded": "sorted-before-encoding",
    "o-value": "sorted-by-value",
    "o-joined": "sorted-as-joined",
    "o-name": "repeated-name-order",
}


def normalize(ps: ParamSet, enc: Encoder, order: str) -> str:
    """The normalized parameter string in ``order`` (a key of :data:`ORDERS`)."""
    if order == "o-decoded":
        pairs = sorted(ps.all, key=lambda p: (_bytes(p[0]), _bytes(p[1])))
        encoded = [(enc(n), enc(v)) for n, v in pairs]
    else:
        groups = {
            "o-sent": (ps.query, ps.body, ps.oauth),
            "o-oauth-first": (ps.oauth, ps.query, ps.body),
            "o-body-first": (ps.body, ps.oauth, ps.query),
        }.get(order, (ps.all,))
        encoded = [(enc(n), enc(v)) for group in groups for n, v in group]
        if order == "":
            encoded.sort()
        elif order == "o-value":
            encoded.sort(key=lambda p: (p[1], p[0]))
        elif order == "o-name":
            encoded.sort(key=lambda p: p[0])
    joined = [f"{n}={v}" for n, v in encoded]
    if order == "o-joined":
        joined.sort()
    return "&".join(joined)


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def correct(r: Received) -> str:
    """The base string the gateway computes."""
    ps = ParamSet(r.query, r.body, r.signed_oauth)
    uri = f"{r.scheme.lower()}://{r.host.lower()}{port_text(r)}{r.path}"
    return f"{r.method}&{rfc3986(uri)}&{rfc3986(normalize(ps, rfc3986, ''))}"
