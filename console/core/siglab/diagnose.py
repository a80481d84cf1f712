"""The verdict on a signed request: valid, or which known mistakes broke the signature.

One RSA operation opens the signature under the key (PKCS#1 v1.5 keeps the digest inside);
the base strings of every known mistake, alone and two at a time, are then only hashed and
compared (:mod:`console.core.siglab.search`). A signature that opens to a well-formed
PKCS#1 block was made with this key, over some base string; one that does not was made with
another key, another method (HMAC) or another padding, which are told apart. The gateway's
other rules (:mod:`console.core.siglab.rules`) are checked as the gateway checks them, so
the lab, ``verify`` and the sandbox's log give one verdict for the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from urllib.parse import unquote

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from console.core.keys import fingerprint
from console.core.siglab import opening, rules, search, variants
from console.core.siglab.mistakes import NOTES
from console.core.siglab.received import Received
from console.core.siglab.rules import Finding, finding
from console.core.unsigned import UNSIGNED

__all__ = ["Finding", "Verdict", "diagnose", "first_difference"]

TIMESTAMP_WINDOW = 300.0
_AMP = re.compile("%26", re.IGNORECASE)
_RULED_OUT = (
    "the method; the scheme, host, port and path (the prefix, /group/, a trailing slash, and "
    "the signer's other endpoint and group ids when known); the query and the body read "
    "another way (a line feed, a + or & sent unencoded, JSON, a value encoded twice, spaces "
    "trimmed); a repeated field signed once; extra parameters (oauth_token, oauth_signature, "
    "realm, oauth_body_hash, login, header fields); every percent-encoder of up to three "
    "wrong settings (+ for a space, ~ escaped, * or ! ' ( ) * kept, / kept, $ & + : = @ "
    "kept, lower-case hex, another charset than UTF-8), everywhere or in names and values "
    "only; the parameter order; a line feed after the base string"
)


@dataclass(frozen=True)
class Verdict:
    """What the lab found.

    Attributes:
        valid: the signature verifies under the contract's rules with this key, and the
            request breaks none of the gateway's other rules (the note timestamp-stale does
            not change this); never when the scheme was assumed.
        valid_over: when the scheme was assumed, the scheme over which the request is valid
            (it is invalid over the other), else None.
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
    valid_over: str | None = None

    def headline(self) -> str:
        """The verdict's first line, as every front shows it."""
        if self.valid:
            return "VALID: the signature verifies."
        if self.valid_over:
            return (
                f"VALID ONLY IF SENT OVER {self.valid_over.upper()}: the scheme was assumed, "
                "see below."
            )
        return "INVALID"

    def base_strings(self, *, reveal: bool = False) -> tuple[str, str | None]:
        if reveal:
            return self.expected_base_string, self.received_base_string
        return self.masked_expected, self.masked_received

    def summary(self) -> str:
        """The verdict in one line, as the sandbox's log writes it."""
        head = "valid" if self.valid else "invalid"
        if self.valid_over:
            head = f"valid only if sent over {self.valid_over}"
        words = [
            f"{f.message[0].lower()}{f.message[1:].rstrip('.')} ({f.code})" for f in self.findings
        ]
        return "; ".join([head, *words])

    def to_json(self, *, reveal: bool = False) -> dict[str, object]:
        expected, received = self.base_strings(reveal=reveal)
        return {
            "valid": self.valid,
            "diagnosis": [
                {"code": f.code, "message": f.message, "fix": f.fix} for f in self.findings
            ],
            "expected_base_string": expected,
            "received_base_string": received,
            "first_difference": self.first_difference,
            "key_fingerprint": self.fingerprint,
            "valid_if_sent_over": self.valid_over,
        }


def diagnose(
    r: Received,
    key: RSAPublicKey,
    *,
    now: float | None = None,
    other_keys: Mapping[str, RSAPublicKey] | None = None,
    ids: Sequence[str] = (),
) -> Verdict:
    """Verify ``r`` with ``key`` by the gateway's rules; when it fails, find the known
    mistakes that explain it.

    Args:
        r: the request as received.
        key: the public key the gateway holds for the signer.
        now: Unix time to judge ``oauth_timestamp`` against; None skips the staleness check.
        other_keys: more keys by name (other environments, other merchants), tried when
            the signature does not open with ``key``, to name the key it was made with.
        ids: the signer's endpoint and group ids, to name a path signed for another of them
            (the endpoint's path signed, the group's sent).
    """
    r = replace(r, known_ids=tuple(ids) or r.known_ids)
    verdict = _diagnose(r, key, now, other_keys or {})
    if not r.scheme_assumed:
        return verdict
    # never valid on an assumption: both schemes are read, and the verdict says which
    assumed = r.scheme.lower()
    other = "http" if assumed == "https" else "https"
    alt = _diagnose(replace(r, scheme=other), key, now, other_keys or {})
    valid_over = None
    if verdict.valid or alt.valid:
        bad = alt if verdict.valid else verdict
        valid_over, refused_over = (assumed, other) if verdict.valid else (other, assumed)
        note = (
            f"Valid only if it was sent over {valid_over}: the request text does not say its "
            f"scheme, and sent over {refused_over} the gateway refuses it for what is said "
            "above. Choose the scheme it went over (--scheme, or the lab's scheme choice)."
        )
        # the refused reading is what is shown: it is the one with something to fix
        verdict = replace(
            bad,
            findings=tuple(
                replace(f, message=f"If it was sent over {refused_over}: {f.message}")
                for f in bad.findings
            ),
        )
    else:
        note = f"The request text does not say its scheme: {assumed} was assumed."
        if set(alt.codes) != set(verdict.codes):
            note += f" Read as sent over {other}: {_reading(alt)}."
        note += " Choose the scheme it went over if that is wrong."
    findings = (*verdict.findings, Finding("scheme-assumed", note))
    return replace(
        verdict,
        valid=False,
        valid_over=valid_over,
        findings=findings,
        codes=tuple(f.code for f in findings),
    )


def _reading(verdict: Verdict) -> str:
    words = [
        f"{f.message[0].lower()}{f.message[1:].rstrip('.')} ({f.code})" for f in verdict.findings
    ]
    return "; ".join(words) or "valid"


def _diagnose(
    r: Received,
    key: RSAPublicKey,
    now: float | None,
    other_keys: Mapping[str, RSAPublicKey],
) -> Verdict:
    expected = variants.correct(r)
    forms = opening.signature_forms(r.signature_text)
    targets = opening.open_digests(key, forms)
    match, tried = search.search(r, targets)
    findings: list[Finding] = []
    declared = rules.declared_method(r)
    method_findings = rules.method_told_by_bytes(rules.header_findings(r), declared, targets)
    hmac = None if any(targets.values()) else opening.hmac_by_length(key, forms)
    if unquote(r.signature_text) == UNSIGNED:
        match = None
        findings.append(
            Finding(
                "unsigned-template",
                f"oauth_signature is the placeholder {UNSIGNED}: this is an unsigned template "
                "(a copy as curl never carries a signature). Sign the request (gateway-console "
                "sign, or your own code) and check the signed one.",
            )
        )
    elif match is not None:
        findings += [finding(c) for c in (*match.signature_codes, *match.codes)]
    elif not forms and (declared.startswith("RSA") or not declared):
        findings.append(
            Finding(
                "signature-unreadable",
                "oauth_signature is neither base64 nor hex: it cannot be a signature. "
                "Send base64 of the RSA-SHA256 signature, percent-encoded.",
            )
        )
    elif any(targets.values()):
        findings.append(_unexplained(tried))
    elif hmac is not None:  # the length tells, whatever the header says
        findings.append(hmac)
        method_findings = [f for f in method_findings if f.code not in rules.METHOD_CODES]
    elif declared.startswith("RSA") or not declared:
        match, _ = opening.pss_match(r, key, forms)
        if match is not None:
            findings += [finding(c) for c in ("pss-padding", *match.codes)]
        else:
            findings.append(opening.wrong_key(key, forms, other_keys))
    findings += method_findings + rules.body_findings(r)
    findings += rules.timestamp_findings(r.oauth_value("oauth_timestamp"), now, TIMESTAMP_WINDOW)
    findings = _dedupe(findings)
    valid = (
        match is not None
        and match.cost == 0
        and not match.signature_codes
        and all(f.code in NOTES for f in findings)
    )
    masked = r.masked()
    masked_received = None
    received = match.base if match is not None else None
    if match is not None:
        masked_received = search.build(masked, match.choice) or variants.correct(masked)
    return Verdict(
        valid=valid,
        findings=tuple(findings),
        expected_base_string=expected,
        received_base_string=received,
        masked_expected=variants.correct(masked),
        masked_received=masked_received,
        first_difference=first_difference(expected, received) if received else None,
        fingerprint=fingerprint(key),
        codes=tuple(f.code for f in findings),
    )


def _dedupe(findings: list[Finding]) -> list[Finding]:
    codes = {f.code for f in findings}
    if "json-body-form-signed" in codes:
        findings = [f for f in findings if f.code != "json-body"]
    if "duplicate-kept-once" in codes:  # it says the field is sent twice already
        findings = [f for f in findings if f.code != "parameter-repeated"]
    seen: dict[str, Finding] = {}
    for f in findings:  # one finding a code, in the first place, with the fullest words
        if f.code not in seen or len(f.message) > len(seen[f.code].message):
            seen[f.code] = f
    return list(seen.values())


def _unexplained(tried: int) -> Finding:
    return Finding(
        "unexplained",
        "The signature was made with this key, but over a base string that none of the "
        f"{tried} the lab built explains. Ruled out, alone and two at a time: {_RULED_OUT}. "
        "Left: a value changed after signing (an amount or a description edited, a proxy "
        "rewriting the body), a parameter added or removed after signing, a path signed for "
        "an id the lab was not given (verify --id), or a mistake the lab does not know. "
        "Compare the client's base string with the expected one below.",
    )


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
