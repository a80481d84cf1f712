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
from console.core.masking import is_sensitive, pan_fields
from console.core.spec import COMMANDS, example_values
from console.core.spec.examples import SANDBOX_CARD, SANDBOX_CVV2

SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
COLLECTION_NAME = "Gateway v4 (OAuth 1.0a RSA-SHA256)"
PLACEHOLDER_BASE_URL = "https://gateway.example/paynet"

# Body values that come from variables: card data (secret variables cardNumber and cvv2),
# and the ids that tie the requests together so the collection runs again and again without
# repeating an order id.
_TIED = {
    ("payout-check", "client_orderid"): "{{payoutOrderId}}",
    ("status", "client_orderid"): "{{payoutOrderId}}",
    ("status", "orderid"): "{{payoutGatewayOrderId}}",
    ("create-card-ref", "client_orderid"): "{{firstPaymentClientOrderId}}",
    ("create-card-ref", "orderid"): "{{firstPaymentOrderId}}",
    ("create-recurring-payment", "client-orderid"): "{{subscriptionOrderId}}",
}
# Scripts run before a request: a fresh order id each run.
_BEFORE = {
    "payout-check": 'pm.collectionVariables.set("payoutOrderId", "payout-" + Date.now());',
    "create-recurring-payment": (
        'pm.collectionVariables.set("subscriptionOrderId", "subscription-" + Date.now());'
    ),
}
# After payout-check: keep the gateway's order id for the status request.
_AFTER = {
    "payout-check": (
        'if (fields["gateway-order-id"]) '
        'pm.collectionVariables.set("payoutGatewayOrderId", fields["gateway-order-id"]);'
    ),
}
_READ_ANSWER = """\
// The answer is form-urlencoded, each value followed by a line feed.
const fields = {};
pm.response.text().split("&").forEach((item) => {
  const at = item.indexOf("=");
  if (at < 1) return;
  const decode = (text) => {
    try { return decodeURIComponent(text.replace(/\\+/g, " ")); } catch (e) { return text; }
  };
  fields[decode(item.slice(0, at)).trim()] = decode(item.slice(at + 1)).replace(/\\n$/, "");
});"""


def _body_value(command: str, name: str, value: str) -> str:
    tied = _TIED.get((command, name))
    if tied is not None:
        return tied
    if is_sensitive(name):
        return "{{" + ("cardNumber" if name in pan_fields() else "cvv2") + "}}"
    return value


def _url(command: str, form: str, templates: Mapping[str, str]) -> dict[str, Any]:
    path = templates[form]
    for placeholder, variable in (
        ("{endpoint_id}", "{{endpointId}}"),
        ("<endpoint_id>", "{{endpointId}}"),
        ("{endpoint_group_id}", "{{endpointGroupId}}"),
        ("<endpoint_group_id>", "{{endpointGroupId}}"),
    ):
        path = path.replace(placeholder, variable)
    segments = [s for s in path.split("/") if s]
    return {
        "raw": "{{baseUrl}}/" + "/".join(segments),
        "host": ["{{baseUrl}}"],
        "path": segments,
    }


def _item(
    command: str,
    values: Mapping[str, str],
    form: str,
    templates: Mapping[str, str],
) -> dict[str, Any]:
    spec = COMMANDS[command]
    if form not in templates:  # create-recurring-payment has no group form
        form = "endpoint"
    test = "\n".join(
        [
            _READ_ANSWER,
            'pm.test("HTTP 200", () => pm.response.to.have.status(200));',
            f'pm.test("type is {spec.success_type}", () => '
            f'pm.expect(fields["type"]).to.eql("{spec.success_type}"));',
            _AFTER.get(command, ""),
        ]
    ).strip()
    events = [{"listen": "test", "script": {"type": "text/javascript", "exec": test.split("\n")}}]
    if command in _BEFORE:
        events.insert(
            0,
            {
                "listen": "prerequest",
                "script": {"type": "text/javascript", "exec": [_BEFORE[command]]},
            },
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
                    {"key": name, "value": _body_value(command, name, value), "type": "text"}
                    for name, value in values.items()
                ],
            },
            "url": _url(command, form, templates),
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
    items = []
    for command, spec in COMMANDS.items():
        fields = example_values(command, today=today)
        fields.update((values or {}).get(command, {}))
        templates = {**spec.path_templates, **(path_templates or {}).get(command, {})}
        kept = {name: value for name, value in fields.items() if value != ""}
        items.append(_item(command, kept, "group" if group else "endpoint", templates))
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
        "variable": [
            {"key": "payoutOrderId", "value": "payout-0001"},
            {"key": "payoutGatewayOrderId", "value": ""},
            {"key": "subscriptionOrderId", "value": "subscription-0001"},
        ],
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
        sandbox: the environment is a sandbox: its test card fills the card variables and a
            key may be filled in.
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
        ("firstPaymentClientOrderId", "sale-0001", "default"),
        ("firstPaymentOrderId", "1234567", "default"),
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
