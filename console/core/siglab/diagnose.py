"""The verdict on a signed request: valid, or which known mistake broke the signature.

One RSA operation opens the signature under the key (PKCS#1 v1.5 keeps the digest inside);
every variant base string is then only hashed and compared, so trying all known mistakes
costs little more than one verification. A signature that opens to a well-formed PKCS#1
block was made with this key, over some base string; one that does not was made with
another key (or is not a signature at all), which is told apart from a base string mistake.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from console.core.keys import fingerprint
from console.core.siglab import variants
from console.core.siglab.received import Received
from console.core.siglab.variants import MISTAKES

TIMESTAMP_WINDOW = 300.0
_HASHES: tuple[tuple[str, hashes.HashAlgorithm], ...] = (
    ("", hashes.SHA256()),
    ("sha1-instead-of-sha256", hashes.SHA1()),  # noqa: S303 (recognising a mistake)
)
_PSS = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.AUTO)
_HEX = re.compile(r"[0-9a-fA-F]+")
_AMP = re.compile("%26", re.IGNORECASE)


@dataclass(frozen=True)
class Finding:
    """One entry of a diagnosis: a stable code and a message in plain words."""

    code: str
    message: str


@dataclass(frozen=True)
class Verdict:
    """What the lab found.

    Attributes:
        valid: the signature verifies under the contract's rules with this key, and the
            request breaks no other signing rule (timestamp notes do not change this).
        findings: the diagnosis; empty for a clean valid request.
        expected_base_string / received_base_string: the base string the gateway computes,
            and the one the signature matches when a known mistake explains it (else None).
        masked_expected / masked_received: the same with card data masked, to show.
        first_difference: where the two base strings part ("the URL", "parameter amount").
        fingerprint: of the key checked with.
    """

    valid: bool
    findings: tuple[Finding, ...]
    expected_base_string: str
    received_base_string: str | None
    masked_expected: str
    masked_received: str | None
    first_difference: str | None
    fingerprint: str
    codes: tuple[str, ...] = field(default=())

    def base_strings(self, *, reveal: bool = False) -> tuple[str, str | None]:
        if reveal:
            return self.expected_base_string, self.received_base_string
        return self.masked_expected, self.masked_received

    def to_json(self, *, reveal: bool = False) -> dict[str, object]:
        expected, received = self.base_strings(reveal=reveal)
        return {
            "valid": self.valid,
            "diagnosis": [{"code": f.code, "message": f.message} for f in self.findings],
            "expected_base_string": expected,
            "received_base_string": received,
            "first_difference": self.first_difference,
            "key_fingerprint": self.fingerprint,
        }


def diagnose(
    r: Received,
    key: RSAPublicKey,
    *,
    now: float | None = None,
    other_keys: Mapping[str, RSAPublicKey] | None = None,
) -> Verdict:
    """Verify ``r`` with ``key``; when it fails, find the known mistake that explains it.

    Args:
        r: the request as received.
        key: the public key the gateway holds for the signer.
        now: Unix time to judge ``oauth_timestamp`` against; None skips the staleness check.
        other_keys: more keys by name (other environments, other merchants), tried when
            the signature does not open with ``key``, to name the key it was made with.
    """
    expected = variants.correct(r)
    candidates: dict[str, list[str]] = {expected: []}
    recipes = variants.recipes(r)
    for code, recipe in recipes:
        base = variants.build(r, recipe)
        if base not in (None, expected) and code not in candidates.setdefault(base, []):
            candidates[base].append(code)
    signatures = _signature_forms(r.signature_text)
    matches, opened = _match(key, signatures, candidates)
    findings: list[Finding] = []
    received: str | None = None
    if matches:
        extra, received = matches[0]
        codes = [*extra, *candidates[received]]
        findings += [Finding(c, _message(c)) for c in codes]
    elif not signatures:
        findings.append(
            Finding(
                "signature-unreadable",
                "oauth_signature is neither base64 nor hex: it cannot be a signature. "
                "Send base64 of the RSA-SHA256 signature, percent-encoded.",
            )
        )
    elif opened:
        findings.append(
            Finding(
                "unexplained",
                "The signature was made with this key, but over a base string that none of "
                "the known mistakes explains. Compare the client's base string with the "
                "expected one below.",
            )
        )
    else:
        findings.append(_wrong_key(key, signatures, candidates, other_keys or {}))
    if any(n == "login" for n, _ in r.body) and all(f.code != "login-in-body" for f in findings):
        findings.append(Finding("login-in-body", MISTAKES["login-in-body"].capitalize() + "."))
    findings += _timestamp_notes(r.oauth_value("oauth_timestamp"), now)
    signature_codes = {f.code for f in findings} - {"timestamp-millis", "timestamp-stale"}
    valid = bool(matches) and not signature_codes
    masked = r.masked()
    masked_expected = variants.correct(masked)
    masked_received = None
    if received is not None and received != expected:
        recipe = next(rc for code, rc in recipes if variants.build(r, rc) == received)
        masked_received = variants.build(masked, recipe)
    elif received is not None:
        masked_received = masked_expected
    return Verdict(
        valid=valid,
        findings=tuple(findings),
        expected_base_string=expected,
        received_base_string=received,
        masked_expected=masked_expected,
        masked_received=masked_received,
        first_difference=first_difference(expected, received) if received else None,
        fingerprint=fingerprint(key),
        codes=tuple(f.code for f in findings),
    )


def _signature_forms(text: str) -> list[tuple[list[str], bytes]]:
    """Ways the header's signature text may hold the signature, the right one first."""
    forms: list[tuple[list[str], bytes]] = []
    once = unquote(text)
    for codes, candidate in (
        ([], once),
        (["signature-not-url-decoded"], unquote(once)),
        (["signature-not-url-decoded"], once.replace(" ", "+")),
    ):
        if codes and candidate == once:
            continue
        with contextlib.suppress(binascii.Error, ValueError):
            forms.append((codes, base64.b64decode(candidate, validate=True)))
    if _HEX.fullmatch(once) and len(once) % 2 == 0 and len(once) >= 128:
        forms.append((["hex-signature"], bytes.fromhex(once)))
    return forms


def _match(
    key: RSAPublicKey,
    signatures: Sequence[tuple[list[str], bytes]],
    candidates: Mapping[str, list[str]],
) -> tuple[list[tuple[list[str], str]], bool]:
    """Matching (extra codes, base string) pairs, and whether any signature opened."""
    matches: list[tuple[list[str], str]] = []
    opened = False
    for sig_codes, signature in signatures:
        for hash_code, algorithm in _HASHES:
            try:
                digest = key.recover_data_from_signature(signature, padding.PKCS1v15(), algorithm)
            except (InvalidSignature, ValueError):
                continue
            opened = True
            hasher = hashlib.new(algorithm.name)
            for base in candidates:
                h = hasher.copy()
                h.update(base.encode("utf-8", "surrogateescape"))
                if h.digest() == digest:
                    matches.append(([*sig_codes, *([hash_code] if hash_code else [])], base))
        if matches:
            return matches, opened
    if not opened:
        for sig_codes, signature in signatures:
            for base in candidates:
                try:
                    key.verify(
                        signature, base.encode("utf-8", "surrogateescape"), _PSS, hashes.SHA256()
                    )
                except (InvalidSignature, ValueError):
                    continue
                return [([*sig_codes, "pss-padding"], base)], True
    return matches, opened


def _wrong_key(
    key: RSAPublicKey,
    signatures: Sequence[tuple[list[str], bytes]],
    candidates: Mapping[str, list[str]],
    other_keys: Mapping[str, RSAPublicKey],
) -> Finding:
    mine = fingerprint(key)
    for name, other in other_keys.items():
        if fingerprint(other) == mine:
            continue
        if _match(other, signatures, candidates)[1]:
            return Finding(
                "wrong-key",
                f"The request was signed with the key of {name} (fingerprint "
                f"{fingerprint(other)}), not with the key it was checked with "
                f"(fingerprint {mine}).",
            )
    size = (key.key_size + 7) // 8
    lengths = {len(s) for _, s in signatures}
    detail = ""
    if lengths and size not in lengths:
        detail = f" The signature is {min(lengths)} bytes; a {key.key_size}-bit key's are {size}."
    return Finding(
        "wrong-key",
        f"The signature does not open with this key (fingerprint {mine}): it was made with "
        f"another key, whose fingerprint the lab cannot know.{detail} Check which key the "
        "client signs with and which public key the gateway holds.",
    )


def _message(code: str) -> str:
    text = MISTAKES.get(code, code)
    return text[0].upper() + text[1:] + "."


def _timestamp_notes(text: str | None, now: float | None) -> list[Finding]:
    if not text or not (text.isascii() and text.isdigit()):
        return []
    stamp = int(text)
    if len(text) >= 13:
        return [
            Finding(
                "timestamp-millis",
                f"oauth_timestamp {text} is in milliseconds: the gateway wants Unix seconds "
                f"({stamp // 1000}) and refuses it as far in the future.",
            )
        ]
    if now is not None and abs(now - stamp) > TIMESTAMP_WINDOW:
        skew = stamp - now
        side = "ahead of" if skew > 0 else "behind"
        return [
            Finding(
                "timestamp-stale",
                f"oauth_timestamp is {abs(skew):.0f} s {side} the time of this check; the "
                f"gateway accepts {TIMESTAMP_WINDOW:g} s (fine for an old capture, not for a "
                "request sent now).",
            )
        ]
    return []


def first_difference(expected: str, other: str) -> str | None:
    """Where two base strings part: "the method", "the URL" or "parameter NAME"."""
    if expected == other:
        return None
    e_parts, o_parts = expected.split("&", 2), other.split("&", 2)
    if len(e_parts) < 3 or len(o_parts) < 3:
        return "the base string's shape"
    if e_parts[0] != o_parts[0]:
        return "the method"
    if e_parts[1] != o_parts[1]:
        return "the URL"
    e_params, o_params = _AMP.split(e_parts[2]), _AMP.split(o_parts[2])
    for i, pair in enumerate(e_params):
        if i >= len(o_params) or pair != o_params[i]:
            name = unquote(unquote(re.split("%3D", pair, maxsplit=1, flags=re.I)[0]))
            return f"parameter {name}"
    return "an extra parameter"
