"""Signing keys: every load path, every failure with its own message, generation, export."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed25519, padding, rsa
from cryptography.x509.oid import NameOID

from console.core.errors import KeyMaterialError
from console.core.keys import (
    KeyProblem,
    LoadedKey,
    fingerprint,
    generate_private_key,
    load_private_key,
    private_key_pem,
    public_key_pem,
)

PEM = serialization.Encoding.PEM
NO_ENCRYPTION = serialization.NoEncryption()


def _pem(key: object, fmt: serialization.PrivateFormat, passphrase: bytes | None = None) -> bytes:
    encryption = serialization.BestAvailableEncryption(passphrase) if passphrase else NO_ENCRYPTION
    return key.private_bytes(PEM, fmt, encryption)  # type: ignore[attr-defined,no-any-return]


def _same_key(loaded: LoadedKey, key: rsa.RSAPrivateKey) -> bool:
    return loaded.private_key.private_numbers() == key.private_numbers()


def _problem(pem: bytes | str, passphrase: bytes | str | None = None) -> KeyProblem:
    with pytest.raises(KeyProblem) as info:
        load_private_key(pem, passphrase)
    assert info.value.message == str(info.value)
    return info.value


# --- loading -------------------------------------------------------------------------------


def test_loads_pkcs1_pem(rsa_key: rsa.RSAPrivateKey) -> None:
    pem = _pem(rsa_key, serialization.PrivateFormat.TraditionalOpenSSL)
    assert pem.startswith(b"-----BEGIN RSA PRIVATE KEY-----")
    loaded = load_private_key(pem)
    assert _same_key(loaded, rsa_key)
    assert loaded.bits == 2048
    assert loaded.fingerprint == fingerprint(rsa_key)
    assert loaded.warnings == ()


def test_loads_pkcs8_pem_given_as_text(rsa_key: rsa.RSAPrivateKey) -> None:
    pem = _pem(rsa_key, serialization.PrivateFormat.PKCS8).decode("ascii")
    assert pem.startswith("-----BEGIN PRIVATE KEY-----")
    assert _same_key(load_private_key(pem), rsa_key)


@pytest.mark.parametrize("passphrase", ["correct horse", b"correct horse", "pässwörd"])
def test_loads_encrypted_pkcs8(rsa_key: rsa.RSAPrivateKey, passphrase: str | bytes) -> None:
    pem = private_key_pem(rsa_key, passphrase)
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert _same_key(load_private_key(pem, passphrase), rsa_key)


def test_loads_encrypted_pkcs1(rsa_key: rsa.RSAPrivateKey) -> None:
    pem = _pem(rsa_key, serialization.PrivateFormat.TraditionalOpenSSL, b"secret")
    assert b"Proc-Type: 4,ENCRYPTED" in pem
    assert _same_key(load_private_key(pem, "secret"), rsa_key)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl tool")
def test_loads_key_made_by_openssl_tool(tmp_path: Path) -> None:
    path = tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
         "-aes-256-cbc", "-pass", "pass:tool pass", "-out", str(path)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    loaded = load_private_key(path.read_bytes(), "tool pass")
    assert loaded.bits == 2048


def test_private_key_found_after_a_certificate(rsa_key: rsa.RSAPrivateKey) -> None:
    bundle = _certificate(rsa_key) + _pem(rsa_key, serialization.PrivateFormat.PKCS8)
    assert _same_key(load_private_key(bundle), rsa_key)


def test_passphrase_given_for_plain_key_loads_with_a_warning(rsa_key: rsa.RSAPrivateKey) -> None:
    loaded = load_private_key(_pem(rsa_key, serialization.PrivateFormat.PKCS8), "unneeded")
    assert _same_key(loaded, rsa_key)
    assert any("not protected by a passphrase" in w for w in loaded.warnings)


def test_empty_passphrase_counts_as_none(rsa_key: rsa.RSAPrivateKey) -> None:
    loaded = load_private_key(_pem(rsa_key, serialization.PrivateFormat.PKCS8), "")
    assert loaded.warnings == ()
    assert _problem(private_key_pem(rsa_key, "pw"), "").kind == "passphrase-needed"


def test_repr_does_not_show_key_material(rsa_key: rsa.RSAPrivateKey) -> None:
    loaded = load_private_key(_pem(rsa_key, serialization.PrivateFormat.PKCS8))
    assert repr(loaded) == f"LoadedKey(bits=2048, fingerprint={fingerprint(rsa_key)!r})"


def test_a_key_read_again_is_not_parsed_and_checked_again(rsa_key: rsa.RSAPrivateKey) -> None:
    # the window reads its key from the keyring for every send
    pem = private_key_pem(rsa_key, "pw")
    first = load_private_key(pem, "pw")
    assert load_private_key(pem.decode(), b"pw") is first
    assert _same_key(first, rsa_key)


def test_a_key_read_before_still_asks_for_its_own_passphrase(rsa_key: rsa.RSAPrivateKey) -> None:
    locked = private_key_pem(rsa_key, "right")
    assert _same_key(load_private_key(locked, "right"), rsa_key)
    assert _problem(locked, "wrong").kind == "wrong-passphrase"
    assert _problem(locked).kind == "passphrase-needed"
    plain = _pem(rsa_key, serialization.PrivateFormat.PKCS8)
    assert load_private_key(plain).warnings == ()
    assert load_private_key(plain, "unneeded").warnings != ()
    assert load_private_key(plain).warnings == ()


# --- failures ------------------------------------------------------------------------------


def test_wrong_passphrase(rsa_key: rsa.RSAPrivateKey) -> None:
    problem = _problem(private_key_pem(rsa_key, "right"), "wrong")
    assert problem.kind == "wrong-passphrase"
    assert "passphrase does not unlock" in problem.message


def test_wrong_passphrase_for_encrypted_pkcs1(rsa_key: rsa.RSAPrivateKey) -> None:
    pem = _pem(rsa_key, serialization.PrivateFormat.TraditionalOpenSSL, b"right")
    assert _problem(pem, "wrong").kind == "wrong-passphrase"


@pytest.mark.parametrize("fmt", ["pkcs8", "pkcs1"])
def test_passphrase_needed(rsa_key: rsa.RSAPrivateKey, fmt: str) -> None:
    if fmt == "pkcs8":
        pem = private_key_pem(rsa_key, "pw")
    else:
        pem = _pem(rsa_key, serialization.PrivateFormat.TraditionalOpenSSL, b"pw")
    problem = _problem(pem)
    assert problem.kind == "passphrase-needed"
    assert "Enter the passphrase" in problem.message


def _certificate(key: rsa.RSAPrivateKey) -> bytes:
    import datetime

    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "merchant")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(PEM)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda k: public_key_pem(k), "a public key"),
        (
            lambda k: k.public_key().public_bytes(PEM, serialization.PublicFormat.PKCS1),
            "a public key",
        ),
        (_certificate, "a certificate"),
    ],
)
def test_public_key_or_certificate_is_not_a_private_key(
    rsa_key: rsa.RSAPrivateKey, make: object, words: str
) -> None:
    problem = _problem(make(rsa_key))  # type: ignore[operator]
    assert problem.kind == "not-private-key"
    assert words in problem.message
    assert "public key is the part you give the gateway" in problem.message


def test_openssh_public_key_is_not_a_private_key(rsa_key: rsa.RSAPrivateKey) -> None:
    line = rsa_key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    )
    assert _problem(line).kind == "not-private-key"


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (
            lambda: _pem(
                ec.generate_private_key(ec.SECP256R1()), serialization.PrivateFormat.PKCS8
            ),
            "an EC (elliptic curve) key",
        ),
        (
            lambda: _pem(
                ec.generate_private_key(ec.SECP384R1()),
                serialization.PrivateFormat.TraditionalOpenSSL,
            ),
            "an EC (elliptic curve) key",
        ),
        (
            lambda: _pem(ed25519.Ed25519PrivateKey.generate(), serialization.PrivateFormat.PKCS8),
            "an Ed25519 key",
        ),
        (
            lambda: _pem(
                ed25519.Ed25519PrivateKey.generate(), serialization.PrivateFormat.PKCS8, b"pw"
            ),
            "an Ed25519 key",
        ),
        (
            lambda: _pem(dsa.generate_private_key(2048), serialization.PrivateFormat.PKCS8),
            "a DSA key",
        ),
    ],
)
def test_non_rsa_key_is_named(make: object, words: str) -> None:
    problem = _problem(make(), "pw")  # type: ignore[operator]
    assert problem.kind == "not-rsa"
    assert f"This is {words}, not an RSA key" in problem.message


def _corrupt_body(pem: bytes) -> bytes:
    lines = pem.splitlines(keepends=True)
    middle = len(lines) // 2
    lines[middle] = lines[middle][:10] + b"!!!!" + lines[middle][14:]
    return b"".join(lines)


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (_corrupt_body, "cannot be decoded"),
        (lambda pem: pem[:200] + pem[-30:], "cannot be decoded"),  # middle cut out
        (lambda pem: pem[: len(pem) // 2], "no matching -----END"),  # cut short
        (lambda pem: b"hello, I am not a key", "no -----BEGIN line"),
        (lambda pem: b"", "no -----BEGIN line"),
        (lambda pem: pem.replace(b"PRIVATE KEY", b"SECRET THING"), "'SECRET THING'"),
        (lambda pem: b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82", "no -----BEGIN line"),
    ],
)
def test_damaged_file(rsa_key: rsa.RSAPrivateKey, damage: object, words: str) -> None:
    pem = _pem(rsa_key, serialization.PrivateFormat.PKCS8)
    problem = _problem(damage(pem))  # type: ignore[operator]
    assert problem.kind == "damaged"
    assert words in problem.message


def test_openssh_private_key_gets_a_conversion_hint(rsa_key: rsa.RSAPrivateKey) -> None:
    pem = _pem(rsa_key, serialization.PrivateFormat.OpenSSH)
    problem = _problem(pem)
    assert problem.kind == "damaged"
    assert "ssh-keygen -p -m PKCS8" in problem.message


def test_key_below_2048_bits_is_too_small() -> None:
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    problem = _problem(_pem(small, serialization.PrivateFormat.PKCS8))
    assert problem.kind == "too-small"
    assert "1024 bits" in problem.message
    assert "at least 2048" in problem.message


def test_key_above_4096_bits_loads_with_sandbox_warning() -> None:
    # one byte above the sandbox's limit: generated about as fast as a 4096-bit key
    big = rsa.generate_private_key(public_exponent=65537, key_size=4104)
    loaded = load_private_key(_pem(big, serialization.PrivateFormat.PKCS8))
    assert loaded.bits == 4104
    assert len(loaded.warnings) == 1
    assert "at most 4096 bits" in loaded.warnings[0]


def test_problem_kinds_are_distinct_messages(rsa_key: rsa.RSAPrivateKey) -> None:
    problems = [
        _problem(private_key_pem(rsa_key, "a"), "b"),
        _problem(private_key_pem(rsa_key, "a")),
        _problem(public_key_pem(rsa_key)),
        _problem(_pem(ed25519.Ed25519PrivateKey.generate(), serialization.PrivateFormat.PKCS8)),
        _problem(b"junk"),
        _problem(_pem(rsa.generate_private_key(65537, 1024), serialization.PrivateFormat.PKCS8)),
    ]
    assert {p.kind for p in problems} == {
        "wrong-passphrase",
        "passphrase-needed",
        "not-private-key",
        "not-rsa",
        "damaged",
        "too-small",
    }
    assert len({p.message for p in problems}) == len(problems)
    # key problems are the person's to fix, never mistaken for bad input or a programming error
    assert all(isinstance(p, KeyMaterialError) and not isinstance(p, ValueError) for p in problems)


# --- generating and exporting --------------------------------------------------------------


@pytest.mark.parametrize("bits", [2048, 3072, 4096])
def test_generated_key_sizes(bits: int) -> None:
    key = generate_private_key(bits)
    assert key.key_size == bits
    assert key.public_key().public_numbers().e == 65537
    assert load_private_key(private_key_pem(key)).bits == bits


def test_default_size_is_2048() -> None:
    assert generate_private_key().key_size == 2048


@pytest.mark.parametrize("bits", [1024, 2047, 2049, 4097, 8192])
def test_other_sizes_are_refused(bits: int) -> None:
    with pytest.raises(ValueError, match="2048, 3072 or 4096"):
        generate_private_key(bits)


def test_private_key_pem_is_pkcs8_and_encrypted_with_passphrase(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    plain = private_key_pem(rsa_key)
    assert plain.startswith(b"-----BEGIN PRIVATE KEY-----")
    encrypted = private_key_pem(rsa_key, "pw")
    assert encrypted.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    with pytest.raises(TypeError):  # unreadable without the passphrase
        serialization.load_pem_private_key(encrypted, None)


def test_empty_export_passphrase_is_refused(rsa_key: rsa.RSAPrivateKey) -> None:
    with pytest.raises(ValueError, match="passphrase is empty"):
        private_key_pem(rsa_key, "")


def test_public_key_pem_verifies_signatures(rsa_key: rsa.RSAPrivateKey) -> None:
    text = public_key_pem(rsa_key)
    assert text.startswith("-----BEGIN PUBLIC KEY-----")
    public = serialization.load_pem_public_key(text.encode("ascii"))
    assert isinstance(public, rsa.RSAPublicKey)
    signature = rsa_key.sign(b"data", padding.PKCS1v15(), hashes.SHA256())
    public.verify(signature, b"data", padding.PKCS1v15(), hashes.SHA256())
    assert public_key_pem(public) == text


def test_fingerprint_is_sha256_of_public_der(rsa_key: rsa.RSAPrivateKey) -> None:
    # Independent computation: DER from the PEM text by hand, then SHA-256, base64.
    pem_lines = public_key_pem(rsa_key).strip().splitlines()
    der = base64.b64decode("".join(pem_lines[1:-1]))
    expected = base64.b64encode(hashlib.sha256(der).digest()).decode("ascii")
    assert fingerprint(rsa_key) == expected
    assert fingerprint(rsa_key.public_key()) == expected
    assert len(base64.b64decode(fingerprint(rsa_key))) == 32


def test_fingerprint_is_stable_and_tells_keys_apart(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    reloaded = load_private_key(private_key_pem(rsa_key, "pw"), "pw")
    assert reloaded.fingerprint == fingerprint(rsa_key)
    assert fingerprint(other_rsa_key) != fingerprint(rsa_key)
