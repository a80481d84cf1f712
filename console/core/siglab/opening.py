"""Opening a signature: the forms its text may take (base64, base64url, unpadded, hex,
percent-encoded twice), the digests it opens to under a key (PKCS#1 v1.5 over SHA-256 or
SHA-1), PSS, and which key made it when it does not open with the one given."""

from __future__ import annotations

import base64
import binascii
import contextlib
import re
from collections.abc import Mapping, Sequence
from urllib.parse import unquote

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from console.core.keys import fingerprint
from console.core.siglab import search
from console.core.siglab.received import Received
from console.core.siglab.rules import Finding, finding

_HASHES: tuple[tuple[str, hashes.HashAlgorithm], ...] = (
    ("", hashes.SHA256()),
    ("sha1-instead-of-sha256", hashes.SHA1()),  # noqa: S303 (recognising a mistake)
)
_PSS = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.AUTO)
_HEX = re.compile(r"[0-9a-fA-F]+")
_B64 = re.compile(r"[A-Za-z0-9+/]+")
_B64URL = re.compile(r"[A-Za-z0-9_-]+=*")
_B64_BYTES = re.compile(rb"[A-Za-z0-9+/]+={0,2}")


def signature_forms(text: str) -> list[tuple[list[str], bytes]]:
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
    if not forms and _B64.fullmatch(once) and len(once) % 4:
        padded = once + "=" * (-len(once) % 4)
        with contextlib.suppress(binascii.Error, ValueError):
            forms.append((["signature-unpadded"], base64.b64decode(padded, validate=True)))
    if not forms and _B64URL.fullmatch(once) and re.search("[-_]", once):
        padded = once.rstrip("=") + "=" * (-len(once.rstrip("=")) % 4)
        with contextlib.suppress(binascii.Error, ValueError):
            forms.append((["signature-base64url"], base64.urlsafe_b64decode(padded)))
    if _HEX.fullmatch(once) and len(once) % 2 == 0 and len(once) >= 128:
        forms.append((["hex-signature"], bytes.fromhex(once)))
    if not forms and re.search(r"\s", once.strip()):  # MIME base64: a break every 76
        with contextlib.suppress(binascii.Error, ValueError):
            joined = re.sub(r"\s", "", once)
            forms.append((["signature-mime-base64"], base64.b64decode(joined, validate=True)))
    for codes, data in list(forms):  # base64 of the base64 text
        if _B64_BYTES.fullmatch(data) and len(data) % 4 == 0:
            with contextlib.suppress(binascii.Error, ValueError):
                twice = base64.b64decode(data, validate=True)
                forms.append(([*codes, "signature-base64-twice"], twice))
    return forms


# HMAC digests by their length in bytes, and the code of each
HMAC_LENGTHS = {20: "hmac-sha1", 32: "hmac-sha256"}


def hmac_by_length(key: RSAPublicKey, forms: Sequence[tuple[list[str], bytes]]) -> Finding | None:
    """HMAC, told by the signature's length (an RSA signature is as long as the key), or
    None when the length fits no HMAC."""
    size = (key.key_size + 7) // 8
    lengths = {len(s) for _, s in forms}
    if size in lengths:
        return None
    found = [n for n in sorted(lengths) if n in HMAC_LENGTHS]
    if not found:
        return None
    n = found[0]
    code = HMAC_LENGTHS[n]
    name = "HMAC-SHA1" if n == 20 else "HMAC-SHA256"
    return finding(
        code,
        f"The signature is {n} bytes, the length of an {name} digest; a {key.key_size}-bit "
        f"RSA signature is {size} bytes.",
    )


def open_digests(
    key: RSAPublicKey, forms: Sequence[tuple[list[str], bytes]]
) -> dict[str, dict[bytes, tuple[str, ...]]]:
    """Digests the signature opens to under ``key``, per hash name, with the codes of the
    signature's form."""
    targets: dict[str, dict[bytes, tuple[str, ...]]] = {a.name: {} for _, a in _HASHES}
    for form_codes, signature in forms:
        for hash_code, algorithm in _HASHES:
            try:
                digest = key.recover_data_from_signature(signature, padding.PKCS1v15(), algorithm)
            except (InvalidSignature, ValueError):
                continue
            codes = (*form_codes, *((hash_code,) if hash_code else ()))
            targets[algorithm.name].setdefault(digest, codes)
    return targets


def pss_match(
    r: Received, key: RSAPublicKey, forms: Sequence[tuple[list[str], bytes]]
) -> tuple[search.Match | None, int]:
    size = (key.key_size + 7) // 8
    signatures = [s for _, s in forms if len(s) == size]
    if not signatures:
        return None, 0

    def accept(data: bytes) -> bool:
        for signature in signatures:
            with contextlib.suppress(InvalidSignature, ValueError):
                key.verify(signature, data, _PSS, hashes.SHA256())
                return True
        return False

    return search.first_base(r, accept)


def wrong_key(
    key: RSAPublicKey,
    forms: Sequence[tuple[list[str], bytes]],
    other_keys: Mapping[str, RSAPublicKey],
) -> Finding:
    mine = fingerprint(key)
    for name, other in other_keys.items():
        if fingerprint(other) == mine:
            continue
        if any(open_digests(other, forms).values()):
            return Finding(
                "wrong-key",
                f"The request was signed with the key of {name} (fingerprint "
                f"{fingerprint(other)}), not with the key it was checked with "
                f"(fingerprint {mine}).",
                finding("wrong-key").fix,
            )
    size = (key.key_size + 7) // 8
    lengths = {len(s) for _, s in forms}
    detail = ""
    if lengths and size not in lengths:
        detail = f" The signature is {min(lengths)} bytes; a {key.key_size}-bit key's are {size}."
    return Finding(
        "wrong-key",
        f"The signature does not open with this key (fingerprint {mine}): it was made with "
        f"another key, whose fingerprint the lab cannot know.{detail} Check which key the "
        "client signs with and which public key the gateway holds.",
        finding("wrong-key").fix,
    )
