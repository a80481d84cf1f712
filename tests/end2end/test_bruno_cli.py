"""The exported Bruno collection runs with Bruno's runner (``bru``, npm @usebruno/cli)
against the sandbox: every request accepted, every test passing.

Bruno signs OAuth 1.0 RSA-SHA256 itself (its requests library, through Node's crypto), with
a fresh nonce and timestamp on every send; the collection only says how. The key is never
in the folder: it is given to the runner on its command line. The bodies are edited the way
a person edits a .bru file, with values that break encoders.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.sandbox import SandboxHandle
from tests.helpers.runtimes import BRU, require_bru
from tests.helpers.sandbox_client import pem_of

# A .bru value loses the white space at its ends; the rest breaks encoders.
HOSTILE = "a b+c~d*e&f=g%h/i?j ü€😀"


def _export(sandbox: SandboxHandle, folder: Path) -> None:
    demo = sandbox.demo
    code = main(
        [
            "export",
            "bruno",
            "--base-url",
            sandbox.base_url,
            "--login",
            demo.login,
            "--endpoint-id",
            demo.endpoint_id,
            "--output-dir",
            str(folder),
        ]
    )
    assert code == 0


def _set_body(path: Path, name: str, value: str) -> None:
    text = path.read_text(encoding="utf-8")
    line = re.compile(rf"^  {re.escape(name)}: .*$", re.MULTILINE)
    if line.search(text):
        text = line.sub(lambda _m: f"  {name}: {value}", text)
    else:
        text = text.replace(
            "body:form-urlencoded {\n", f"body:form-urlencoded {{\n  {name}: {value}\n"
        )
    path.write_text(text, encoding="utf-8")


def test_the_exported_bruno_collection_runs_with_bru_and_every_test_passes(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    require_bru()
    folder = tmp_path / "collection"
    _export(sandbox, folder)
    written = "".join(p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.is_file())
    assert "PRIVATE KEY" not in written
    _set_body(folder / "payout-check.bru", "order_desc", HOSTILE)
    _set_body(folder / "payout-check.bru", "merchant_data", HOSTILE)
    _set_body(folder / "create-recurring-payment.bru", "order_desc", HOSTILE)
    key = pem_of(rsa_key).decode("ascii").replace("\n", "\\n")  # one line, as Bruno takes it
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            str(BRU),
            "run",
            "--env",
            "gateway-v4",
            "--env-var",
            f"privateKey={key}",
            "--reporter-json",
            str(report),
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "NO_PROXY": "127.0.0.1,localhost"},
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    results = json.loads(report.read_text(encoding="utf-8"))[0]["results"]
    assert [r["test"]["filename"] for r in results] == [
        "payout-check.bru",
        "create-card-ref.bru",
        "create-recurring-payment.bru",
        "status.bru",
    ]
    answers = {}
    for result in results:
        assert result["response"]["status"] == 200
        assert len(result["testResults"]) == 2
        assert all(t["status"] == "pass" for t in result["testResults"]), result["testResults"]
        pairs = parse_qsl(str(result["response"]["data"]).strip("\n"))
        answers[result["test"]["filename"]] = {k: v.rstrip("\n") for k, v in pairs}
    # status looked up the payout this run made, and got its merchant_data back unchanged.
    status = answers["status.bru"]
    assert status["type"] == "status-response"
    assert status["merchant_data"] == HOSTILE
    assert status["merchant-order-id"] == answers["payout-check.bru"]["merchant-order-id"]


@pytest.mark.parametrize("value", ["two\nlines", " leading space"])
def test_a_value_a_bru_file_cannot_hold_is_refused_by_name(tmp_path: Path, value: str) -> None:
    from console.core.errors import InputError
    from console.core.exports.bruno import bruno_collection

    with pytest.raises(InputError, match=r"^order_desc: a Bruno file cannot hold"):
        bruno_collection(values={"payout-check": {"order_desc": value}})
