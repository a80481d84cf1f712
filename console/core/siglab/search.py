"""The combined search: every base string the known mistakes make, alone and two at a time,
hashed and compared with the digest the signature holds.

A PKCS#1 v1.5 signature opens (one RSA operation) to the digest of the base string that was
signed, so each candidate costs one hash, not one RSA operation. Candidates are built from
the options of :mod:`console.core.siglab.variants`; their hashes share a prefix (method and
URI), hashed once. The cheapest explanation wins: fewer mistakes first, then the order in
which the options are listed (the commoner mistake first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from cryptography.hazmat.primitives import hashes

from console.core.siglab import variants
from console.core.siglab.encoders import Encoder, deviants, memo, rfc3986
from console.core.siglab.encoders import outer as fast_outer
from console.core.siglab.received import Received
from console.core.siglab.variants import BUDGET, ORDERS, Option, ParamSet

Hasher = Any  # hashlib's hash objects have no public type
_ALGORITHMS: dict[str, type[hashes.HashAlgorithm]] = {"sha256": hashes.SHA256, "sha1": hashes.SHA1}


def _digest(name: str, data: bytes) -> bytes:
    """One digest with cryptography (loaded anyway to open the signature)."""
    h = hashes.Hash(_ALGORITHMS[name]())
    h.update(data)
    return h.finalize()


@dataclass(frozen=True)
class Choice:
    """One candidate, as the keys of its options (rebuilt on a masked copy to show it)."""

    method: str = ""
    uri: str = ""
    params: str = ""
    encoder: str = ""
    order: str = ""
    newline: bool = False


@dataclass(frozen=True)
class Match:
    """The explanation found: its mistake codes, the choice and the base string signed."""

    choice: Choice
    codes: tuple[str, ...]
    cost: int
    base: str
    signature_codes: tuple[str, ...]


@dataclass(frozen=True)
class EncoderOption:
    key: str
    codes: tuple[str, ...]
    cost: int
    inner: Encoder
    outer: Encoder
    part: Encoder  # ``outer`` for the parameter string, which the inner encoder made


def encoders(r: Received, sets: list[Option[ParamSet]] | None = None) -> list[EncoderOption]:
    """The correct encoder and every wrong one, used everywhere or only for names and
    values; with ``sets``, only those whose every knob changes something on this request
    (the characters of its names and values, and for everywhere, of its URIs too)."""
    correct = memo(rfc3986)
    out = [EncoderOption("", (), 0, correct, rfc3986, fast_outer())]
    inner_chars: set[str] = set()
    outer_chars: set[str] = set()
    if sets is not None:
        inner_chars = {c for ps in sets for pair in ps.value.all for t in pair for c in t}
        uri_chars = {c for u in variants.uris(r) for c in u.value}
        outer_chars = inner_chars | uri_chars | set("=&%")
    for deviant in deviants():
        enc: Encoder | None = None
        for scope, chars in (("both", outer_chars), ("inner", inner_chars)):
            if sets is not None and not deviant.acts_on(chars):
                continue
            enc = enc or memo(deviant.encoder)
            outer, part = (enc, deviant.outer) if scope == "both" else (rfc3986, fast_outer())
            key = f"{deviant.key}:{scope}"
            out.append(EncoderOption(key, deviant.codes, deviant.cost, enc, outer, part))
    return out


def _orders(r: Received) -> list[str]:
    names = [n for n, _ in (*r.query, *r.body)]
    repeated = len(set(names)) < len(names)
    return [o for o in ORDERS if o != "o-name" or repeated]


def candidates(
    r: Received, limit: list[int] | None = None
) -> Iterator[tuple[int, Choice, tuple[str, ...], str, str]]:
    """(cost, choice, codes, prefix, parameter part) for every candidate within the budget;
    ``limit[0]``, when given, is lowered by the caller to prune what can no longer win."""
    cap = limit if limit is not None else [BUDGET]
    ms, us, sets = variants.methods(r), variants.uris(r), variants.param_sets(r)
    encs = encoders(r, sets)
    orders = _orders(r)
    uri_memo: dict[str, Encoder] = {}
    for ps in sets:
        for enc in encs:
            c1 = ps.cost + enc.cost
            if c1 > cap[0]:
                continue
            outer_uri = uri_memo.setdefault(enc.key, memo(enc.outer))
            for order in orders:
                c2 = c1 + (1 if order else 0)
                if c2 > cap[0]:
                    continue
                part = enc.part(variants.normalize(ps.value, enc.inner, order))
                base_codes = (*ps.codes, *enc.codes, *((ORDERS[order],) if order else ()))
                for m in ms:
                    c3 = c2 + m.cost
                    for u in us:
                        cost = c3 + u.cost
                        if cost > cap[0]:
                            continue
                        choice = Choice(m.key, u.key, ps.key, enc.key, order)
                        codes = tuple(dict.fromkeys((*m.codes, *u.codes, *base_codes)))
                        yield cost, choice, codes, f"{m.value}&{outer_uri(u.value)}&", part


def search(
    r: Received, targets: Mapping[str, Mapping[bytes, tuple[str, ...]]]
) -> tuple[Match | None, int]:
    """The cheapest candidate whose digest is one of ``targets`` (hash name → digest →
    signature codes), and how many base strings were tried."""
    algorithms = [(name, found) for name, found in targets.items() if found]
    if not algorithms:
        return None, 0
    expected = variants.correct(r)  # the usual answer, before building any candidate
    for name, found in algorithms:
        hit = found.get(_digest(name, expected.encode("utf-8", "surrogateescape")))
        if hit is not None:
            return Match(Choice(), (), 0, expected, hit), 1
    # hashlib's copyable hashes for the thousands of candidates; loaded only here, so a
    # request that verifies does not load a second OpenSSL binding
    import hashlib

    limit = [BUDGET]
    prefixes: dict[tuple[str, str], Hasher] = {}
    best: Match | None = None
    tried = 0
    for cost, choice, codes, prefix, part in candidates(r, limit):
        data = part.encode("utf-8", "surrogateescape")
        for name, found in algorithms:
            head = prefixes.get((name, prefix))
            if head is None:
                head = prefixes[(name, prefix)] = hashlib.new(name, prefix.encode())
            h = head.copy()
            h.update(data)
            tried += 1
            hit = found.get(h.digest())
            newline = False
            if hit is None and cost < limit[0]:
                h.update(b"\n")
                tried += 1
                hit, newline = found.get(h.digest()), True
            if hit is None:
                continue
            extra = ("base-string-newline",) if newline else ()
            best = Match(
                replace(choice, newline=newline),
                (*codes, *extra),
                cost + len(extra),
                prefix + part + ("\n" if newline else ""),
                hit,
            )
            limit[0] = best.cost - 1
            if limit[0] < 0:
                return best, tried
            break
    return best, tried


def first_base(
    r: Received, accept: Callable[[bytes], bool], budget: int = 1
) -> tuple[Match | None, int]:
    """The cheapest candidate (within ``budget``) whose bytes ``accept`` takes: for checks
    that cost an RSA operation each (PSS), so only few candidates are tried."""
    tried = 0
    for cost, choice, codes, prefix, part in candidates(r, [budget]):
        base = prefix + part
        tried += 1
        if accept(base.encode("utf-8", "surrogateescape")):
            return Match(choice, codes, cost, base, ()), tried
    return None, tried


def build(r: Received, choice: Choice) -> str | None:
    """The base string ``choice`` makes of ``r`` (None when an option does not apply)."""
    if choice == Choice():
        return variants.correct(r)
    m = _pick(variants.methods(r), choice.method)
    u = _pick(variants.uris(r), choice.uri)
    ps = _pick(variants.param_sets(r), choice.params)
    enc = next((e for e in encoders(r) if e.key == choice.encoder), None)
    if m is None or u is None or ps is None or enc is None:
        return None
    part = enc.part(variants.normalize(ps.value, enc.inner, choice.order))
    return f"{m.value}&{enc.outer(u.value)}&{part}" + ("\n" if choice.newline else "")


def _pick(options: list[Option[Any]], key: str) -> Option[Any] | None:
    return next((o for o in options if o.key == key), None)
