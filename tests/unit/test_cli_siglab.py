"""``gateway-console verify`` and ``import-curl``: verdicts, JSON shape, exit statuses,
card data masked unless --reveal."""

from __future__ import annotations

import hashlib
import io
import json
import shlex
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from tests.helpers.mistaken_signer import sign

URL = "https://gateway.example/paynet/api/v4/payout-check/1001"
PARAMS = [
    ("client_orderid", "order-1"),
    ("amount", "10.50"),
    ("order_desc", "a refund"),
    ("credit_card_number", "4444444444444448"),
]
# A request that must pass the timestamp check is signed as the test runs, never at import:
# the check allows 300 s, and the whole suite takes longer.


@pytest.fixture
def public_key_file(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> Path:
    path = tmp_path / "merchant.pub"
    path.write_bytes(
        rsa_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    return path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_json_names_the_mistake_and_exits_1(
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    public_key_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    request = tmp_path / "request.http"
    request.write_text(
        sign(URL, PARAMS, rsa_key, mistake="plus-for-space", timestamp=int(time.time())).http()
    )
    code, out, _ = _run(
        capsys, "verify", str(request), "--public-key", str(public_key_file), "--json"
    )
    assert code == 1
    data = json.loads(out)
    assert set(data) >= {"valid", "diagnosis", "expected_base_string", "received_base_string"}
    assert data["valid"] is False
    # raw HTTP without a full URL: the scheme is said to be assumed
    assert [d["code"] for d in data["diagnosis"]] == ["plus-for-space", "scheme-assumed"]
    assert "spaces as +" in data["diagnosis"][0]["message"]
    assert "rawurlencode" in data["diagnosis"][0]["fix"]
    assert "a%2Brefund" in data["received_base_string"]
    assert "4444444444444448" not in out
    assert "444444%252A%252A%252A%252A%252A%252A4448" in data["expected_base_string"]


def test_verify_reveal_shows_card_data(
    rsa_key: rsa.RSAPrivateKey, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wire = sign(URL, PARAMS, rsa_key)
    line = f"curl {URL} -H {shlex.quote('Authorization: ' + wire.authorization)} -d '{wire.body}'"
    code, out, _ = _run(capsys, "verify", "--curl", line, "--key-file", str(key_file), "--reveal")
    assert code == 0
    assert out.startswith("VALID")
    assert "4444444444444448" in out


def test_verify_reads_stdin_and_separate_parts(
    rsa_key: rsa.RSAPrivateKey,
    public_key_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wire = sign(URL, PARAMS, rsa_key, mistake="lowercase-hex")
    monkeypatch.setattr("sys.stdin", io.StringIO(wire.http()))
    code, out, _ = _run(capsys, "verify", "--public-key", str(public_key_file))
    assert code == 1
    assert "(lowercase-hex)" in out
    assert "INVALID" in out
    code, out, _ = _run(
        capsys,
        "verify",
        "--url",
        wire.url,
        "--authorization",
        wire.authorization,
        "--body",
        wire.body,
        "--public-key",
        str(public_key_file),
    )
    assert code == 1
    assert "(lowercase-hex)" in out


def test_verify_unreadable_input_exits_2(
    tmp_path: Path, public_key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    request = tmp_path / "request.http"
    request.write_text("hello there\n")
    code, _, err = _run(capsys, "verify", str(request), "--public-key", str(public_key_file))
    assert code == 2
    assert "not an HTTP request line" in err
    good = tmp_path / "good.http"
    good.write_text(
        'POST /x HTTP/1.1\nHost: h.example\nAuthorization: OAuth oauth_signature="a"\n\n'
    )
    code, _, err = _run(capsys, "verify", str(good), "--public-key", str(request))
    assert code == 2
    assert "not a PEM" in err
    code, _, err = _run(capsys, "verify", str(tmp_path / "missing"), "--public-key", str(request))
    assert code == 2


def test_verify_with_an_environments_key(
    rsa_key: rsa.RSAPrivateKey, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = "https://gateway.example/paynet"
    add = ["env", "add", "gw", "--kind", "sandbox", "--base-url", base, "--login", "demo"]
    assert main([*add, "--endpoint-id", "1001"]) == 0
    assert main(["keys", "import", str(key_file), "--env", "gw"]) == 0
    capsys.readouterr()
    wire = sign(URL, PARAMS, rsa_key, mistake="not-sorted", timestamp=int(time.time()))
    line = f"curl {URL} -H {shlex.quote('Authorization: ' + wire.authorization)} -d '{wire.body}'"
    code, out, _ = _run(capsys, "verify", "--curl", line, "--env", "gw", "--json")
    assert code == 1
    assert [d["code"] for d in json.loads(out)["diagnosis"]] == ["not-sorted"]


def test_verify_with_an_environment_names_the_endpoint_signed_and_the_group_sent(
    rsa_key: rsa.RSAPrivateKey, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The environment's endpoint and group ids are tried as the signed path: a request
    signed for the endpoint and sent to the group is named, not unexplained."""
    base = "https://gateway.example/paynet"
    add = ["env", "add", "gw", "--kind", "sandbox", "--base-url", base, "--login", "demo"]
    assert main([*add, "--endpoint-id", "1001", "--endpoint-group-id", "2001"]) == 0
    assert main(["keys", "import", str(key_file), "--env", "gw"]) == 0
    capsys.readouterr()
    group = f"{base}/api/v4/payout-check/group/2001"
    wire = sign(group, PARAMS, rsa_key, timestamp=int(time.time()), signed_url=URL)
    line = f"curl {group} -H {shlex.quote('Authorization: ' + wire.authorization)} -d '{wire.body}'"
    code, out, _ = _run(capsys, "verify", "--curl", line, "--env", "gw", "--json")
    assert code == 1
    assert [d["code"] for d in json.loads(out)["diagnosis"]] == ["path-differs"]
    code, out, _ = _run(capsys, "verify", "--curl", line, "--public-key", str(key_file), "--json")
    assert [d["code"] for d in json.loads(out)["diagnosis"]] == ["unexplained"]
    code, out, _ = _run(
        capsys, "verify", "--curl", line, "--key-file", str(key_file), "--id", "1001", "--json"
    )
    assert [d["code"] for d in json.loads(out)["diagnosis"]] == ["path-differs"]


def test_verify_callback_control(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MC", "s3cret")
    good = hashlib.sha1(b"approved77o-1s3cret", usedforsecurity=False).hexdigest()
    query = "status=approved&orderid=77&client_orderid=o-1&control="
    code, out, _ = _run(
        capsys, "verify", "--callback", query + good, "--merchant-control-env", "MC"
    )
    assert (code, out.split(":")[0]) == (0, "VALID")
    code, out, _ = _run(
        capsys,
        "verify",
        "--callback",
        query + good.upper(),
        "--merchant-control-env",
        "MC",
        "--json",
    )
    assert code == 1
    assert json.loads(out)["diagnosis"][0]["code"] == "control-uppercase-hex"


def test_import_curl_prints_the_command_and_a_send_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = (
        "curl -X POST https://gateway.example/paynet/api/v4/payout-check/1001 "
        "-H 'Authorization: OAuth oauth_consumer_key=\"demo\"' "
        "--data-urlencode 'order_desc=a refund' "
        "-d 'amount=10.50&credit_card_number=4444444444444448'"
    )
    code, out, _ = _run(capsys, "import-curl", "--curl", line)
    assert code == 0
    assert "Command: payout-check" in out
    assert "Endpoint: 1001" in out
    assert "order_desc = a refund" in out
    assert "4444444444444448" not in out
    assert "444444******4448" in out
    assert "gateway-console send payout-check --base-url https://gateway.example/paynet" in out
    code, out, _ = _run(capsys, "import-curl", "--curl", line, "--json", "--reveal")
    assert json.loads(out)["fields"]["credit_card_number"] == "4444444444444448"
    code, _, err = _run(capsys, "import-curl", "--curl", "curl https://x.example/nothing")
    assert code == 2
    assert "matches none of the commands" in err
