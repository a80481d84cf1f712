"""The command line loads only the module of the command it runs, and every command has one."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import COMMAND_MODULES, SUBCOMMAND_MODULES

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_a_module_registers_is_dispatched_to_that_module() -> None:
    registered: dict[str, str] = {}
    for module in SUBCOMMAND_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub)
        registered.update(dict.fromkeys(sub.choices, module))
    assert registered == COMMAND_MODULES


_SIGN = """
import contextlib, io, json, sys
from console.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["sign", "status", "--base-url", "https://gw.example/paynet", "--login",
                 "m", "--endpoint-id", "1", "--key-file", sys.argv[1], "-f", "client_orderid=x",
                 "-f", "orderid=7"])
print(json.dumps([code, sorted(sys.modules)]))
"""


def _loaded(script: str, key_file: Path) -> list[str]:
    """The modules a fresh process loaded running ``script`` (which must end well)."""
    done = subprocess.run(
        [sys.executable, "-c", script, str(key_file)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    code, loaded = json.loads(done.stdout.splitlines()[-1])
    assert code == 0
    return list(loaded)


@pytest.mark.footprint
def test_signing_loads_none_of_the_other_commands(key_file: Path) -> None:
    loaded = _loaded(_SIGN, key_file)
    others = ("console.sandbox", "console.core.siglab", "console.core.batch", "console.ui")
    assert [m for m in loaded if m.startswith(others)] == []
    assert [m for m in loaded if m.endswith(("_cmd", "team_send", "team_batch"))] == [
        "console.cli.sign_cmd"
    ]


_SIGN_PAYOUT = """
import contextlib, io, json, sys
from console.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["sign", "payout-check", "--base-url", "https://gw.example/paynet", "--login",
                 "m", "--endpoint-id", "1", "--key-file", sys.argv[1], "-f", "client_orderid=x",
                 "-f", "amount=10.42", "-f", "currency=EUR", "-f", "ipaddress=65.153.12.232",
                 "-f", "order_desc=Payout", "-f", "credit_card_number=4444444444444448",
                 "-f", "card_printed_name=JOHN SMITH", "-f", "expire_month=12",
                 "-f", "expire_year=2030"])
print(json.dumps([code, sorted(sys.modules)]))
"""


@pytest.mark.footprint
def test_signing_a_payout_loads_nothing_of_the_sending_half(key_file: Path) -> None:
    # sign and validate start like a bare signer: no HTTP library, journal, pipeline or
    # keyring, no reference table a payout without a country field does not need, and no
    # XML parser (the currency table is Python, not the iso4217 package's XML), and no
    # hashlib (a second OpenSSL binding: cryptography's own hashes serve)
    loaded = _loaded(_SIGN_PAYOUT, key_file)
    heavy = (
        "requests",
        "urllib3",
        "keyring",
        "stdnum",
        "iso3166",
        "iso4217",
        "xml",
        "hashlib",
        "shutil",  # argparse's formatter would import it, and with it bz2, lzma and zlib
        "bz2",
        "lzma",
        "console.core.transport",
        "console.core.journals",
        "console.core.pipeline",
        "console.core.history",
        "console.cli.send_cmd",
        "console.cli.asking",
    )
    assert [m for m in loaded if m.split(".")[0] in heavy or m.startswith(heavy)] == []


_VERIFY = """
import contextlib, io, json, sys
from console.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["verify", "--url", "https://gw.example/paynet/api/v4/status/1",
                 "--authorization", sys.argv[2], "--body", "client_orderid=x&orderid=7",
                 "--public-key", sys.argv[1]])
print(json.dumps([code, sorted(sys.modules)]))
"""


@pytest.mark.footprint
def test_verifying_loads_no_contract_table(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> None:
    # the lab masks card data from the spec's one list of card fields, not its command tables
    public = tmp_path / "merchant.pub"
    public.write_bytes(
        rsa_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    header = 'OAuth oauth_consumer_key="m", oauth_signature="c2ln", oauth_nonce="n"'
    done = subprocess.run(
        [sys.executable, "-c", _VERIFY, str(public), header],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    _code, loaded = json.loads(done.stdout.splitlines()[-1])
    assert [m for m in loaded if m.startswith("console.core.spec.")] == [
        "console.core.spec.sensitive"
    ]


@pytest.mark.footprint
def test_a_request_that_verifies_loads_no_hashlib(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    # hashlib (a second OpenSSL binding) serves only the search for what a failing
    # signature got wrong; the usual digest comes from cryptography, loaded anyway
    from console.core.signing import sign

    public = tmp_path / "merchant.pub"
    public.write_bytes(
        rsa_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    signed = sign(
        "https://gw.example/paynet/api/v4/status/1",
        [("client_orderid", "x"), ("orderid", "7")],
        consumer_key="m",
        private_key=rsa_key,
        timestamp=int(time.time()),
    )
    done = subprocess.run(
        [sys.executable, "-c", _VERIFY, str(public), signed.authorization],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    code, loaded = json.loads(done.stdout.splitlines()[-1])
    assert code == 0  # it verified
    assert "hashlib" not in loaded


def test_help_is_as_wide_as_the_terminal_says() -> None:
    def help_at(columns: int) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-m", "console", "sign", "--help"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "COLUMNS": str(columns)},
            check=True,
        )
        return done.stdout.splitlines()

    narrow, wide = help_at(60), help_at(120)
    assert len(narrow) > len(wide)  # wrapped to the narrow terminal
    assert 100 < max(len(line) for line in wide) <= 118  # using the wide one, not beyond
