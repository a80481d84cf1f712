"""The exported Postman collection runs with newman against the sandbox: every request
accepted, every test passing.

Postman signs OAuth 1.0 RSA-SHA256 itself (postman-runtime's oauth1 authorizer, through
node-oauth1 and Node's crypto), with a fresh nonce and timestamp on every send; the
collection only says how. The bodies are edited the way a person edits them in Postman,
with values that break encoders.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from console.cli import main
from console.sandbox import SandboxHandle
from tests.helpers.newman import run_newman
from tests.helpers.runtimes import require_newman

HOSTILE = "a b+c~d*e&f=g%h/i?j ü€😀 "


def _export(sandbox: SandboxHandle, key_file: Path, folder: Path) -> tuple[Path, Path]:
    demo = sandbox.demo
    code = main(
        [
            "export",
            "postman",
            "--base-url",
            sandbox.base_url,
            "--login",
            demo.login,
            "--endpoint-id",
            demo.endpoint_id,
            "--with-key",
            str(key_file),
            "--output-dir",
            str(folder),
        ]
    )
    assert code == 0
    return (
        folder / "gateway-v4.postman_collection.json",
        folder / "gateway-v4.postman_environment.json",
    )


def _set_body(collection: dict, command: str, name: str, value: str) -> None:
    item = next(i for i in collection["item"] if i["name"] == command)
    rows = item["request"]["body"]["urlencoded"]
    row = next((r for r in rows if r["key"] == name), None)
    if row is None:
        rows.append({"key": name, "value": value, "type": "text"})
    else:
        row["value"] = value


def test_the_exported_collection_runs_with_newman_and_every_test_passes(
    sandbox: SandboxHandle, key_file: Path, tmp_path: Path
) -> None:
    require_newman()
    collection_path, environment_path = _export(sandbox, key_file, tmp_path)
    collection = json.loads(collection_path.read_text(encoding="utf-8"))
    assert "PRIVATE KEY" not in collection_path.read_text(encoding="utf-8")
    _set_body(collection, "payout-check", "order_desc", HOSTILE[:64])
    _set_body(collection, "payout-check", "merchant_data", HOSTILE)
    _set_body(collection, "create-recurring-payment", "order_desc", HOSTILE)
    collection_path.write_text(json.dumps(collection), encoding="utf-8")
    run = run_newman(collection_path, environment_path, tmp_path / "report.json")
    assert run["stats"]["requests"] == {"total": 4, "pending": 0, "failed": 0}
    assert run["stats"]["assertions"]["failed"] == 0
    assert run["stats"]["assertions"]["total"] == 8
    answers = {}
    for execution in run["executions"]:
        assert execution["response"]["code"] == 200
        body = bytes(execution["response"]["stream"]["data"]).decode("utf-8")
        pairs = parse_qsl(body.strip("\n"))
        answers[execution["item"]["name"]] = {k: v.rstrip("\n") for k, v in pairs}
    # status looked up the payout this run made, and got its merchant_data back unchanged.
    status = answers["status"]
    assert status["type"] == "status-response"
    assert status["merchant_data"] == HOSTILE
    assert status["merchant-order-id"] == answers["payout-check"]["merchant-order-id"]


@pytest.mark.parametrize("address", ["https://gateway.example/paynet"])
def test_a_key_goes_into_an_environment_only_for_a_sandbox(
    key_file: Path, tmp_path: Path, address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "export",
            "postman",
            "--base-url",
            address,
            "--login",
            "merchant",
            "--endpoint-id",
            "1",
            "--with-key",
            str(key_file),
            "--output-dir",
            str(tmp_path / "out"),
        ]
    )
    assert code == 1
    assert "only for a sandbox" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing written
