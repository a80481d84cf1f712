"""A Bruno collection (a folder of ``.bru`` files) and its environment.

Bruno signs OAuth 1.0 itself, RSA-SHA256 included (its requests library, through Node's
crypto), with a fresh nonce and timestamp on every send; the collection only says how, once,
in ``collection.bru``, and each request inherits it. The private key is the environment's
secret variable ``privateKey``, never in a file: Bruno keeps secrets out of the collection,
and its runner takes the key with ``--env-var privateKey=...`` (line feeds written ``\\n``).
The requests are the same as the Postman collection's (:mod:`collection_plan`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date
from pathlib import Path

from console.core.atomic import write_text_atomic
from console.core.errors import InputError
from console.core.exports.collection_plan import (
    COLLECTION_VARIABLES,
    FRESH_IDS,
    KEPT_IDS,
    CollectionTarget,
    PlannedRequest,
    first_payment_variables,
    planned_requests,
    read_answer_js,
)
from console.core.spec import COMMANDS
from console.core.spec.examples import SANDBOX_CARD, SANDBOX_CVV2

COLLECTION_NAME = "Gateway v4 (OAuth 1.0a RSA-SHA256)"
PLACEHOLDER_BASE_URL = "https://gateway.example/paynet"
# A .bru value runs to the end of its line and loses the white space around it.
_UNSAFE = re.compile(r"[\r\n]|^\s|\s$")

_AUTH = """\
auth {
  mode: oauth1
}

auth:oauth1 {
  consumer_key: {{login}}
  consumer_secret:
  signature_method: RSA-SHA256
  private_key: {{privateKey}}
  version: 1.0
  placement: header
}
"""


def _block(name: str, rows: list[tuple[str, str]]) -> str:
    """A ``name { key: value }`` block; refuses a value a .bru line cannot hold."""
    for key, value in rows:
        if _UNSAFE.search(value):
            raise InputError(
                f"{key}: a Bruno file cannot hold a line feed or white space at either end "
                "of a value; change the value, or use the Postman collection."
            )
    return name + " {\n" + "".join(f"  {k}: {v}\n" for k, v in rows) + "}\n"


def _script(name: str, lines: list[str]) -> str:
    body = "\n".join(f"  {line}" if line else "" for line in "\n".join(lines).split("\n"))
    return f"{name} {{\n{body}\n}}\n"


def _request(seq: int, planned: PlannedRequest) -> str:
    command = planned.command
    success = COMMANDS[command].success_type
    parts = [
        _block("meta", [("name", command), ("type", "http"), ("seq", str(seq))]),
        _block(
            "post",
            [
                ("url", "{{baseUrl}}/" + "/".join(planned.segments)),
                ("body", "formUrlEncoded"),
                ("auth", "inherit"),
            ],
        ),
        _block("body:form-urlencoded", list(planned.fields)),
    ]
    if command in FRESH_IDS:
        variable, prefix = FRESH_IDS[command]
        fresh = f'bru.setVar("{variable}", "{prefix}" + Date.now());'
        parts.append(_script("script:pre-request", [fresh]))
    tests = [
        read_answer_js("res.getBody()"),
        'test("HTTP 200", () => expect(res.getStatus()).to.equal(200));',
        f'test("type is {success}", () => expect(fields["type"]).to.equal("{success}"));',
    ]
    if command in KEPT_IDS:
        field, variable = KEPT_IDS[command]
        tests.append(f'if (fields["{field}"]) bru.setVar("{variable}", fields["{field}"]);')
    parts.append(_script("tests", tests))
    return "\n".join(parts)


def bruno_collection(
    *,
    group: bool = False,
    values: Mapping[str, Mapping[str, str]] | None = None,
    path_templates: Mapping[str, Mapping[str, str]] | None = None,
    today: date | None = None,
) -> dict[str, str]:
    """The collection's files by their path in its folder (arguments as ``planned_requests``).

    Raises:
        InputError: a value a .bru file cannot hold (a line feed, white space at an end).
    """
    files = {
        "bruno.json": json.dumps(
            {"version": "1", "name": COLLECTION_NAME, "type": "collection", "ignore": []},
            indent=2,
        )
        + "\n",
        "collection.bru": _AUTH,
    }
    plan = planned_requests(group=group, values=values, path_templates=path_templates, today=today)
    for seq, planned in enumerate(plan, start=1):
        files[f"{planned.command}.bru"] = _request(seq, planned)
    return files


def bruno_environment(target: CollectionTarget) -> str:
    """The environment file: address, login and endpoint ids; the key a secret with no value.

    A sandbox's test card fills the card variables (elsewhere they are secrets too), and its
    seeded first payment create-card-ref's ids.
    """
    rows = [
        ("baseUrl", (target.base_url or PLACEHOLDER_BASE_URL).rstrip("/")),
        ("login", target.login or ""),
        ("endpointId", target.endpoint_id or ""),
        ("endpointGroupId", target.endpoint_group_id or ""),
        *first_payment_variables(sandbox=target.sandbox),
        *COLLECTION_VARIABLES,
    ]
    secrets = ["privateKey"]
    if target.sandbox:
        rows += [("cardNumber", SANDBOX_CARD), ("cvv2", SANDBOX_CVV2)]
    else:
        secrets += ["cardNumber", "cvv2"]
    return (
        _block("vars", rows) + "\nvars:secret [\n" + ",\n".join(f"  {s}" for s in secrets) + "\n]\n"
    )


def write_bruno(folder: Path, target: CollectionTarget) -> Path:
    """Write the collection into ``folder`` and the environment into its environments/.

    Returns:
        The environment file's path.

    Raises:
        InputError: a value a .bru file cannot hold, or a name unfit for a file name
            (nothing written).
        OSError: a file could not be written.
    """
    if not re.fullmatch(r"[A-Za-z0-9._-]+", target.name) or target.name.startswith("."):
        raise InputError(
            f"{target.name!r} cannot name a Bruno environment file: use letters, digits, "
            "'.', '_' and '-'."
        )
    files = bruno_collection(
        group=target.group_form,
        path_templates=target.path_templates,
    )
    environment = folder / "environments" / f"{target.name}.bru"
    files_out = {folder / name: text for name, text in files.items()}
    files_out[environment] = bruno_environment(target)
    for path, text in files_out.items():
        write_text_atomic(path, text)
    return environment
