"""The gateway's rules other than the signature's bytes (contract section 5).

A request can carry a signature that verifies and still be refused: an oauth parameter
missing, given twice or not used by this API, another signature method or version, login
in the body, a JSON body, a timestamp that is not whole seconds. Each broken rule is a
finding with its code; the lab calls such a request invalid, as the gateway does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from console.core.siglab import readings, variants
from console.core.siglab.mistakes import fix, sentence
from console.core.siglab.received import SIGNED_OAUTH, Received


@dataclass(frozen=True)
class Finding:
    """One entry of a diagnosis: a stable code, a message in plain words and, for a
    client's mistake, the one-line fix for its code."""

    code: str
    message: str
    fix: str | None = None


def finding(code: str, detail: str = "") -> Finding:
    """The finding for a known mistake code, with its fix."""
    return Finding(code, sentence(code) + (f" {detail}" if detail else ""), fix(code))


_f = finding


def header_findings(r: Received) -> list[Finding]:
    """What is wrong with the Authorization header's parameters."""
    out = [_f(code) for code in r.header_problems]
    if r.oauth_place != "header":
        out.append(_f(f"oauth-params-in-{r.oauth_place}"))
    names = list(r.header_names)
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        out.append(_f("header-param-twice", f"Given twice: {', '.join(twice)}."))
    values = dict(r.oauth)
    missing = [n for n in SIGNED_OAUTH if not values.get(n)]
    if missing:
        out.append(_f("oauth-param-missing", f"Missing or empty: {', '.join(missing)}."))
    if "oauth_token" in values:
        out.append(_f("oauth-token-empty"))
    if "oauth_body_hash" in values:
        out.append(_f("oauth-body-hash"))
    fields = [n for n, _ in variants.header_extras(r)]
    if fields:
        out.append(_f("body-fields-in-header", f"Found there: {', '.join(fields)}."))
    known = (*SIGNED_OAUTH, "oauth_token", "oauth_body_hash")
    unknown = sorted(n for n in values if n.startswith("oauth_") and n not in known)
    if unknown:
        out.append(
            Finding(
                "header-extra-params",
                f"The Authorization header has parameters this API does not use: "
                f"{', '.join(unknown)}. Keep only the oauth_ parameters of the contract.",
            )
        )
    out += _method_findings(values.get("oauth_signature_method"))
    version = values.get("oauth_version")
    if version and version != "1.0":
        out.append(_f("oauth-version", f"It is {version!r}."))
    return out


def _method_findings(method: str | None) -> list[Finding]:
    if not method or method == "RSA-SHA256":
        return []
    if method.upper().startswith("HMAC"):
        code = "hmac-sha256" if "256" in method else "hmac-sha1"
        return [_f(code, f"oauth_signature_method is {method!r}.")]
    return [_f("signature-method", f"It is {method!r}.")]


METHOD_CODES = frozenset(("hmac-sha1", "hmac-sha256", "signature-method"))


def method_told_by_bytes(
    findings: list[Finding], declared: str, targets: Mapping[str, Mapping[bytes, object]]
) -> list[Finding]:
    """The header's method findings, corrected by what the signature opened to: under an
    ``RSA-SHA1`` header, a SHA-1 signature is the signing's mistake, a SHA-256 one the
    header's."""
    if declared != "RSA-SHA1":
        return findings
    others = [f for f in findings if f.code != "signature-method"]
    if targets.get("sha1"):
        return [
            *others,
            finding("sha1-instead-of-sha256", "oauth_signature_method says RSA-SHA1 too."),
        ]
    if targets.get("sha256"):
        detail = (
            "It says RSA-SHA1, but the signature is RSA-SHA256 (SHA-256 inside): only the "
            "header's method is wrong."
        )
        return [*others, finding("signature-method", detail)]
    return findings


def body_findings(r: Received) -> list[Finding]:
    """Login in the body, a field sent twice or not UTF-8 (the sandbox's 150 and 151),
    a JSON body."""
    out = []
    names = [n for n, _ in r.body]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        out.append(_f("parameter-repeated", f"Sent more than once: {', '.join(twice)}."))
    not_text = [n for n, v in r.body if not _is_text(n) or not _is_text(v)]
    if not_text:
        shown = ", ".join(n.encode("utf-8", "replace").decode() for n in not_text)
        out.append(_f("value-not-utf8", f"Found in: {shown}."))
    if any(n == "login" for n, _ in (*r.query, *r.body)):
        out.append(_f("login-in-body"))
    if readings.is_json(r):
        out.append(
            _f(
                "json-body",
                "The expected base string below reads the JSON text as a form, as the gateway "
                "would; with Content-Type application/json it refuses the request outright.",
            )
        )
    return out


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")  # bytes that were not UTF-8 came in as lone surrogates
    except UnicodeEncodeError:
        return False
    return True


def declared_method(r: Received) -> str:
    return r.oauth_value("oauth_signature_method") or ""


def timestamp_findings(text: str | None, now: float | None, window: float) -> list[Finding]:
    """Milliseconds or not a number (the gateway refuses), or stale (a note: an old
    capture's timestamp is expected to be old)."""
    if not text:
        return []
    if not (text.isascii() and text.isdigit()):
        return [_f("timestamp-invalid", f"It is {text!r}.")]
    stamp = int(text)
    if len(text) >= 13:
        return [
            Finding(
                "timestamp-millis",
                f"oauth_timestamp {text} is in milliseconds: the gateway wants Unix seconds "
                f"({stamp // 1000}) and refuses it as far in the future.",
                fix("timestamp-millis"),
            )
        ]
    if now is not None and abs(now - stamp) > window:
        skew = stamp - now
        side = "ahead of" if skew > 0 else "behind"
        return [
            Finding(
                "timestamp-stale",
                f"oauth_timestamp is {abs(skew):.0f} s {side} the time of this check; the "
                f"gateway accepts {window:g} s (fine for an old capture, not for a request "
                "sent now).",
            )
        ]
    return []
