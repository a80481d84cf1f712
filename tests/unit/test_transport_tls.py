"""TLS: verification is on by default, a private CA bundle can be given, failures are "not sent"."""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from console.core.transport import NotSentError, Timeouts, Transport
from tests.helpers.http_server import Reply, serve

ANSWER = b"type=async-response\n&merchant-order-id=A1\n"
FAST = Timeouts(connect=2.0, read=2.0)


@pytest.fixture(autouse=True)
def _no_ca_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "HTTPS_PROXY", "https_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (its own CA), as (cert.pem, key.pem)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gateway test CA")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    folder = tmp_path_factory.mktemp("tls")
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.fixture
def tls_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    return context


def test_unknown_certificate_is_refused_and_nothing_is_sent(tls_context: ssl.SSLContext) -> None:
    with (
        serve(lambda _r: Reply(200, ANSWER), ssl_context=tls_context) as server,
        Transport(timeouts=FAST) as transport,
        pytest.raises(NotSentError) as caught,
    ):
        transport.post(server.url + "/x", headers={}, body=b"a=1")
    assert server.url.startswith("https://")
    assert "certificate" in caught.value.message
    assert "CA bundle" in caught.value.message
    assert "safe to send again" in caught.value.message
    assert server.received == []


def test_a_private_ca_bundle_is_trusted(
    tls_context: ssl.SSLContext, certificate: tuple[Path, Path]
) -> None:
    with (
        serve(lambda _r: Reply(200, ANSWER), ssl_context=tls_context) as server,
        Transport(timeouts=FAST, verify=str(certificate[0])) as transport,
    ):
        raw = transport.post(server.url + "/x", headers={}, body=b"a=1")
    assert raw.body == ANSWER
    assert len(server.received) == 1


def test_plain_http_server_behind_an_https_url_is_not_sent() -> None:
    with serve(lambda _r: Reply(200, ANSWER)) as server:
        url = server.url.replace("http://", "https://") + "/x"
        with pytest.raises(NotSentError) as caught, Transport(timeouts=FAST) as transport:
            transport.post(url, headers={}, body=b"a=1")
    assert "secure connection" in caught.value.message
    assert server.received == []
