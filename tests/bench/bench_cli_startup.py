"""Whole-process start-up of ``gateway-console sign`` and ``verify`` beside a bare signer and
a bare verifier measured in the same run. Run with ``pytest -s tests/bench/bench_cli_startup.py``.

Goal (issue 24): each at most 1.5x its anchor. The anchors are Python processes that do the
same job with nothing but ``cryptography`` and the standard library: load the PEM key, build
the base string of the same payout, sign it (or verify it). Both sides run from compiled
bytecode (an installed package has it), in pairs that alternate which goes first so a load
change on a shared machine hits both alike; the figure is the median of the per-pair ratios
of CPU time (user + system of the child, which a busy second core does not inflate the way
it inflates wall time). Wall-time medians are printed beside it.
"""

from __future__ import annotations

import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

ROOT = Path(__file__).resolve().parents[2]
GOAL = 1.5
RUNS = 21

FIELDS = {
    "client_orderid": "A-1",
    "amount": "10.42",
    "currency": "EUR",
    "order_desc": "Payout for order A-1",
    "ipaddress": "65.153.12.232",
    "credit_card_number": "4444444444444448",
    "card_printed_name": "JOHN SMITH",
    "expire_month": "12",
    "expire_year": "2030",
    "receiver_first_name": "John",
    "receiver_last_name": "Smith",
    "receiver_country_code": "US",
}
URL = "https://gateway.example/paynet/api/v4/payout-check/123"

# The anchors: the same work with cryptography and the standard library only.
BARE_SIGNER = """
import json, sys
from urllib.parse import quote
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
key = serialization.load_pem_private_key(open(sys.argv[1], "rb").read(), None)
fields = json.load(open(sys.argv[2]))
oauth = {"oauth_consumer_key": "merchant", "oauth_nonce": "n1",
         "oauth_signature_method": "RSA-SHA256", "oauth_timestamp": "1700000000",
         "oauth_version": "1.0"}
pairs = sorted((quote(k, safe="~"), quote(v, safe="~"))
               for k, v in [*fields.items(), *oauth.items()])
normalized = "&".join(f"{k}={v}" for k, v in pairs)
base = "POST&" + quote(sys.argv[3], safe="~") + "&" + quote(normalized, safe="~")
print(key.sign(base.encode(), padding.PKCS1v15(), hashes.SHA256()).hex())
"""

BARE_VERIFIER = """
import base64, sys
from urllib.parse import parse_qsl, quote, unquote
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
head, body = open(sys.argv[1], "rb").read().decode().split("\\r\\n\\r\\n", 1)
lines = head.split("\\r\\n")
headers = dict(line.split(": ", 1) for line in lines[1:])
oauth = dict((k, unquote(v.strip('"'))) for k, v in
             (p.split("=", 1) for p in headers["Authorization"][6:].split(", ")))
signature = base64.b64decode(oauth.pop("oauth_signature"))
pairs = sorted((quote(k, safe="~"), quote(v, safe="~"))
               for k, v in [*parse_qsl(body, keep_blank_values=True), *oauth.items()])
uri = "https://" + headers["Host"] + lines[0].split()[1]
normalized = "&".join(f"{k}={v}" for k, v in pairs)
base = "POST&" + quote(uri, safe="~") + "&" + quote(normalized, safe="~")
key = serialization.load_pem_public_key(open(sys.argv[2], "rb").read())
key.verify(signature, base.encode(), padding.PKCS1v15(), hashes.SHA256())
print("valid")
"""


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def _cpu_and_wall(command: Sequence[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=_environment(), cwd=ROOT)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _pairs(ours: Sequence[str], anchor: Sequence[str]) -> tuple[list[float], list[float], float]:
    """Per-pair CPU ratios, our wall times and the anchor's median wall time."""
    for command in (ours, anchor):  # warm the file cache and write any missing bytecode
        _cpu_and_wall(command)
    ratios: list[float] = []
    walls: list[float] = []
    anchor_walls: list[float] = []
    for i in range(RUNS):
        order = [(ours, True), (anchor, False)]
        for command, is_ours in order if i % 2 else reversed(order):
            cpu, wall = _cpu_and_wall(command)
            if is_ours:
                ours_cpu = cpu
                walls.append(wall)
            else:
                anchor_cpu = cpu
                anchor_walls.append(wall)
        ratios.append(ours_cpu / anchor_cpu)
    return ratios, walls, statistics.median(anchor_walls)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    compileall.compile_dir(ROOT / "console", quiet=1)  # as an installed package has it
    folder = tmp_path_factory.mktemp("startup")
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    paths = {"key": folder / "merchant.pem", "pub": folder / "merchant.pub"}
    paths["key"].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    paths["pub"].write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    paths["fields"] = folder / "payout.json"
    paths["fields"].write_text(json.dumps(FIELDS))
    paths["request"] = folder / "request.http"
    return paths


def _sign_command(files: dict[str, Path], *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "console",
        "sign",
        "payout-check",
        "--base-url",
        "https://gateway.example/paynet",
        "--login",
        "merchant",
        "--endpoint-id",
        "123",
        "--key-file",
        str(files["key"]),
        "--nonce",
        "n1",
        "--timestamp",
        "1700000000",
        "--fields-file",
        str(files["fields"]),
        *extra,
    ]


def _report(name: str, ratios: list[float], walls: list[float], anchor_wall: float) -> float:
    ratio = statistics.median(ratios)
    print(
        f"\n{name}: CPU {ratio:.2f}x the bare process (median of {len(ratios)} pairs, "
        f"goal <= {GOAL}x); wall median {statistics.median(walls) * 1000:.0f} ms vs "
        f"{anchor_wall * 1000:.0f} ms"
    )
    return ratio


def test_sign_starts_like_a_bare_signer(files: dict[str, Path]) -> None:
    anchor = [sys.executable, "-c", BARE_SIGNER, str(files["key"]), str(files["fields"]), URL]
    ratio = _report("gateway-console sign", *_pairs(_sign_command(files), anchor))
    assert ratio <= GOAL


def test_verify_starts_like_a_bare_verifier(files: dict[str, Path]) -> None:
    signed = subprocess.run(
        _sign_command(files, "--reveal", "--json"),
        capture_output=True,
        check=True,
        env=_environment(),
        cwd=ROOT,
    )
    out = json.loads(signed.stdout)
    files["request"].write_bytes(
        (
            "POST /paynet/api/v4/payout-check/123 HTTP/1.1\r\nHost: gateway.example\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Authorization: {out['authorization']}\r\n\r\n{out['body']}"
        ).encode()
    )
    ours = [
        sys.executable,
        "-m",
        "console",
        "verify",
        str(files["request"]),
        "--scheme",
        "https",
        "--public-key",
        str(files["pub"]),
    ]
    anchor = [sys.executable, "-c", BARE_VERIFIER, str(files["request"]), str(files["pub"])]
    ratio = _report("gateway-console verify", *_pairs(ours, anchor))
    assert ratio <= GOAL
