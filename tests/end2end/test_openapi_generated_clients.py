"""Clients generated from the exported OpenAPI description send every command to the sandbox
and give back its answer, with nothing in the generated code edited.

Two generators, pinned in tests/clients/openapi_generators/requirements.txt and run from
the environment .ci/run makes there: openapi-python-client (httpx and attrs) and
openapi-generator's python client (urllib3 and pydantic; a Java program). Each client is
used as its README says, by a small program of the kind an integrator writes; the OAuth
header comes from the console's signer, as an integrator's own signing would give it. The
answer comes back as text and is read the way the description says.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core.signing import sign
from console.core.spec import COMMANDS, example_values
from console.core.spec.examples import (
    SANDBOX_FIRST_PAYMENT_CLIENT_ORDERID,
    SANDBOX_FIRST_PAYMENT_ORDERID,
)
from console.sandbox import SandboxHandle
from tests.helpers.runtimes import GENERATORS, require_generator

pytestmark = pytest.mark.slow

HOSTILE = "a b+c~d*e&f=g%h/i?j ü€😀 "

# openapi-python-client: one module per operation, a model per request body.
PYTHON_CLIENT_PROGRAM = """\
import importlib, json, sys
from gw.client import Client

job = json.load(sys.stdin)
snake = job["command"].replace("-", "_")
operation = importlib.import_module(f"gw.api.{snake}.{snake}")
model = importlib.import_module(f"gw.models.{snake}_request")
body = getattr(model, job["model"]).from_dict(job["fields"])
client = Client(base_url=job["base_url"], headers={"Authorization": job["authorization"]})
response = operation.sync_detailed(job["endpoint_id"], client=client, body=body)
print(json.dumps({"status": int(response.status_code), "answer": response.parsed}))
"""

# openapi-generator's python client: one API class per tag, form fields as arguments.
GENERATOR_PROGRAM = """\
import json, sys
import gwgen

job = json.load(sys.stdin)
config = gwgen.Configuration(
    host=job["base_url"], api_key={"oauth1RsaSha256": job["authorization"]}
)
api = getattr(gwgen, job["api"])(gwgen.ApiClient(config))
call = getattr(api, job["command"].replace("-", "_") + "_with_http_info")
fields = {name.replace("-", "_"): value for name, value in job["fields"].items()}
response = call(job["endpoint_id"], **fields)
print(json.dumps({"status": response.status_code, "answer": response.data}))
"""


def _generate(generator: str, description: Path, folder: Path) -> Path:
    """The client ``generator`` makes in ``folder``; the program that uses it."""
    if generator == "openapi-python-client":
        command = [
            "generate",
            "--path",
            str(description),
            "--meta",
            "none",
            "--output-path",
            str(folder / "gw"),
        ]
        program = PYTHON_CLIENT_PROGRAM
    else:
        command = [
            "generate",
            "-g",
            "python",
            "-i",
            str(description),
            "-o",
            str(folder),
            "--package-name",
            "gwgen",
            "--global-property",
            "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false",
        ]
        program = GENERATOR_PROGRAM
    done = subprocess.run(
        [str(GENERATORS / generator), *command],
        capture_output=True,
        text=True,
        timeout=300,
        # the generator formats its code with the ruff beside it
        env={**os.environ, "PATH": f"{GENERATORS}{os.pathsep}{os.environ['PATH']}"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    path = folder / "send.py"
    path.write_text(program, encoding="utf-8")
    return path


def _send(
    program: Path,
    sandbox: SandboxHandle,
    key: rsa.RSAPrivateKey,
    command: str,
    fields: dict[str, str],
) -> dict[str, str]:
    """One command through the generated client, signed for its URL and body; its answer's
    fields, decoded as the description says."""
    demo = sandbox.demo
    path = COMMANDS[command].path_templates["endpoint"].replace("{endpoint_id}", demo.endpoint_id)
    signed = sign(
        sandbox.base_url + path, list(fields.items()), consumer_key=demo.login, private_key=key
    )
    name = "".join(part.title() for part in command.split("-"))
    job = {
        "command": command,
        "model": name + "Request",
        "api": name + "Api",
        "base_url": sandbox.base_url,
        "endpoint_id": demo.endpoint_id,
        "authorization": signed.authorization,
        "fields": fields,
    }
    done = subprocess.run(
        [str(GENERATORS / "python"), program.name],
        cwd=program.parent,
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_PROXY": "127.0.0.1,localhost"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    got = json.loads(done.stdout)
    assert got["status"] == 200, got
    text = got["answer"]
    assert isinstance(text, str), got  # the answer as sent: text
    assert text.endswith("\n"), got
    return {k: v.rstrip("\n") for k, v in parse_qsl(text, strict_parsing=True)}


@pytest.mark.parametrize("generator", ["openapi-python-client", "openapi-generator-cli"])
def test_a_generated_client_sends_every_command_and_gives_back_the_answer(
    sandbox: SandboxHandle,
    rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
    generator: str,
) -> None:
    require_generator(generator)
    description = tmp_path / "gateway-v4.openapi.json"
    assert main(["export", "openapi", "--base-url", sandbox.base_url, "-o", str(description)]) == 0
    program = _generate(generator, description, tmp_path / "client")
    stamp = f"{generator}-{time.time_ns()}"

    payout = example_values("payout-check")
    payout.update({"client_orderid": stamp, "merchant_data": HOSTILE})
    answer = _send(program, sandbox, rsa_key, "payout-check", payout)
    assert answer["type"] == "async-response", answer
    assert answer["merchant-order-id"] == stamp

    status = {"client_orderid": stamp, "orderid": answer["gateway-order-id"]}
    got = _send(program, sandbox, rsa_key, "status", status)
    assert got["type"] == "status-response", got
    assert got["merchant_data"] == HOSTILE  # arrived exactly as given

    card_ref = {
        "client_orderid": SANDBOX_FIRST_PAYMENT_CLIENT_ORDERID,
        "orderid": str(SANDBOX_FIRST_PAYMENT_ORDERID),
    }
    got = _send(program, sandbox, rsa_key, "create-card-ref", card_ref)
    assert got["type"] == "create-card-ref-response", got

    recurring = example_values("create-recurring-payment")
    recurring["client-orderid"] = f"r-{stamp}"
    got = _send(program, sandbox, rsa_key, "create-recurring-payment", recurring)
    assert got["type"] == "create-recurring-payment-response", got
