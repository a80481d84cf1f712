"""A Postman collection (v2.1) and environment: one signed request per command.

Postman signs OAuth 1.0 itself, RSA-SHA256 included (its runtime's oauth1 authorizer), with a
fresh nonce and timestamp on every send, so the collection carries auth settings, never a
signature. The private key is an environment variable of type secret, left empty; only a
sandbox's key may be filled in (:func:`postman_environment` refuses any other). Card fields
read secret variables too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from typing import Any

from console.core.errors import InputError
from console.core.exports.collection_plan import (
    COLLECTION_VARIABLES,
    FRESH_IDS,
    KEPT_IDS,
    PlannedRequest,
    first_payment_variables,
    planned_requests,
    read_answer_js,
)
from console.core.spec import COMMANDS
from console.core.spec.examples import SANDBOX_CARD, SANDBOX_CVV2

SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
COLLECTION_NAME = "Gateway v4 (OAuth 1.0a RSA-SHA256)"
PLACEHOLDER_BASE_URL = "https://gateway.example/paynet"


def _item(planned: PlannedRequest) -> dict[str, Any]:
    command = planned.command
    spec = COMMANDS[command]
    after = ""
    if command in KEPT_IDS:
        field, variable = KEPT_IDS[command]
        after = (
            f'if (fields["{field}"]) pm.collectionVariables.set("{variable}", fields["{field}"]);'
        )
    test = "\n".join(
        [
            read_answer_js("pm.response.text()"),
            'pm.test("HTTP 200", () => pm.response.to.have.status(200));',
            f'pm.test("type is {spec.success_type}", () => '
            f'pm.expect(fields["type"]).to.eql("{spec.success_type}"));',
            after,
        ]
    ).strip()
    events = [{"listen": "test", "script": {"type": "text/javascript", "exec": test.split("\n")}}]
    if command in FRESH_IDS:
        variable, prefix = FRESH_IDS[command]
        fresh = f'pm.collectionVariables.set("{variable}", "{prefix}" + Date.now());'
        events.insert(
            0, {"listen": "prerequest", "script": {"type": "text/javascript", "exec": [fresh]}}
        )
    return {
        "name": command,
        "event": events,
        "request": {
            "description": spec.purpose + ("\n\n" + "\n".join(spec.notes) if spec.notes else ""),
            "method": "POST",
            "header": [{"key": "Content-Type", "value": "application/x-www-form-urlencoded"}],
            "body": {
                "mode": "urlencoded",
                "urlencoded": [
                    {"key": name, "value": value, "type": "text"} for name, value in planned.fields
                ],
            },
            "url": {
                "raw": "{{baseUrl}}/" + "/".join(planned.segments),
                "host": ["{{baseUrl}}"],
                "path": list(planned.segments),
            },
        },
    }


def postman_collection(
    *,
    group: bool = False,
    values: Mapping[str, Mapping[str, str]] | None = None,
    path_templates: Mapping[str, Mapping[str, str]] | None = None,
    today: date | None = None,
) -> dict[str, Any]:
    """The collection: one request per command, signed by Postman with the environment's key.

    Args:
        group: use the endpoint group form of the paths where the command has one.
        values: per command, fields that replace the example values (a value of ``""``
            drops the field).
        path_templates: per command, an environment's path overrides.
        today: the date the example values are computed from (the default: today).
    """
    items = [
        _item(planned)
        for planned in planned_requests(
            group=group, values=values, path_templates=path_templates, today=today
        )
    ]
    oauth = [
        ("signatureMethod", "RSA-SHA256"),
        ("consumerKey", "{{login}}"),
        ("privateKey", "{{privateKey}}"),
        ("version", "1.0"),
        ("addParamsToHeader", True),
        ("addEmptyParamsToSign", False),
        ("includeBodyHash", False),
    ]
    return {
        "info": {
            "name": COLLECTION_NAME,
            "description": (
                "The v4 gateway's commands, signed by Postman with OAuth 1.0a RSA-SHA256 "
                "(a fresh nonce and timestamp on every send). Put the merchant's private key "
                "(PEM) in the environment's secret variable privateKey. Run payout-check "
                "before status: it keeps the order ids status asks for."
            ),
            "schema": SCHEMA,
        },
        "auth": {
            "type": "oauth1",
            "oauth1": [
                {"key": k, "value": v, "type": "boolean" if isinstance(v, bool) else "string"}
                for k, v in oauth
            ],
        },
        "item": items,
        "variable": [{"key": key, "value": value} for key, value in COLLECTION_VARIABLES],
    }


def postman_environment(
    *,
    name: str,
    base_url: str | None = None,
    login: str | None = None,
    endpoint_id: str | None = None,
    endpoint_group_id: str | None = None,
    sandbox: bool = False,
    private_key_pem: str | None = None,
) -> dict[str, Any]:
    """The environment: address, login and endpoint as variables, the key as a secret.

    Args:
        sandbox: the environment is a sandbox: its test card fills the card variables, its
            seeded first payment create-card-ref's ids, and a key may be filled in.
        private_key_pem: a sandbox's private key to fill in; None leaves the secret empty.

    Raises:
        InputError: a key for an environment that is not a sandbox.
    """
    if private_key_pem is not None and not sandbox:
        raise InputError(
            "A private key is written into a Postman environment only for a sandbox: "
            "this environment is not one. Leave the key out and set privateKey in Postman."
        )
    rows: list[tuple[str, str, str]] = [
        ("baseUrl", (base_url or PLACEHOLDER_BASE_URL).rstrip("/"), "default"),
        ("login", login or "", "default"),
        ("endpointId", endpoint_id or "", "default"),
        ("endpointGroupId", endpoint_group_id or "", "default"),
        ("privateKey", private_key_pem or "", "secret"),
        ("cardNumber", SANDBOX_CARD if sandbox else "", "secret"),
        ("cvv2", SANDBOX_CVV2 if sandbox else "", "secret"),
        *((key, value, "default") for key, value in first_payment_variables(sandbox=sandbox)),
    ]
    return {
        "name": name,
        "values": [
            {"key": key, "value": value, "type": kind, "enabled": True} for key, value, kind in rows
        ],
        "_postman_variable_scope": "environment",
    }


def dumps(document: Mapping[str, Any]) -> str:
    """JSON text as Postman writes it (indented, UTF-8)."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
