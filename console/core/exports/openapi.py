"""An OpenAPI 3.1 description of the commands, built from the contract tables.

Every field's type, length, choices and meaning comes from ``console.core.spec``, as the
forms' do. Rules that JSON Schema can say are said as schema: the either-or and together
rules read off the rule objects validation runs (callback addresses, card details or a card
reference, redirect addresses), and the shapes held in tables (who receives a payout, the
amount rule, SRC and DST profiles); every rule is also in the operation's description in the
contract's words. OAuth 1.0a has no OpenAPI security type: the scheme is described in words.
"""

from __future__ import annotations

from typing import Any

from console.core.exports.openapi_answers import RESPONSE_FORMAT, fields_schema, responses
from console.core.spec import COMMANDS
from console.core.spec.checks import check_length
from console.core.spec.command_rules import (
    AMOUNT_RULES,
    RECEIVER_KINDS,
    RULES,
    SRC_ONLY_FIELDS,
    SRC_REQUIRED_FIELDS,
)
from console.core.spec.field_rules import always_required, field_checks, field_pattern
from console.core.spec.model import Command, Field, FieldType
from console.core.spec.rules import Alternatives, OneOf, Rule, Together

PLACEHOLDER_SERVER = "https://gateway.example/paynet"

SECURITY = (
    "OAuth 1.0a with the signature method RSA-SHA256 (RFC 5849), in the `Authorization` "
    'header: `OAuth oauth_consumer_key="<login>", oauth_nonce="...", '
    'oauth_signature="...", oauth_signature_method="RSA-SHA256", '
    'oauth_timestamp="...", oauth_version="1.0"` (no oauth_token). The signed parameters '
    "are the body parameters and these oauth parameters, each name and value percent-encoded "
    "per RFC 3986 over UTF-8 (only A-Z a-z 0-9 - . _ ~ stay; a space is %20), sorted by name "
    "then value and joined with `&`. The base string is `POST&<encoded URL>&<encoded "
    "parameters>`, the URL with the scheme and host in lower case, no default port and no "
    "query. The signature is RSASSA-PKCS1-v1_5 with SHA-256 under the merchant's RSA private "
    "key, base64-encoded and percent-encoded in the header. A fresh nonce and the current "
    "Unix time go with every request. The login is never a body parameter. A request that "
    "fails authorization gets HTTP 403 with a small HTML page."
)

_PATH_PARAMETERS = {
    "endpoint": ("endpoint_id", "The endpoint id the gateway issued."),
    "group": ("endpoint_group_id", "The endpoint group id the gateway issued."),
}


def _camel(name: str) -> str:
    head, *rest = name.split("-")
    return head + "".join(part.title() for part in rest)


def _property(f: Field, *, alias_of: str | None = None) -> dict[str, Any]:
    words = [f"Alias of `{alias_of}`: send one of the two." if alias_of else f.meaning]
    if f.note:
        words.append(f.note)
    if f.type is FieldType.DATE:
        words.append("Format DD.MM.YYYY.")
    if f.card_types is not None and len(f.card_types) == 1:
        words.append(f"For {next(iter(f.card_types))} profiles only.")
    words.append(f"Contract type: {f.type}; length: {f.length.text}; {f.necessity}.")
    prop: dict[str, Any] = {"type": "string", "description": " ".join(words)}
    if check_length in field_checks(f):  # the lengths validation holds values to
        if f.length.max is not None:
            prop["maxLength"] = f.length.max
        if f.length.min is not None:
            prop["minLength"] = f.length.min
    pattern = field_pattern(f)
    if pattern is not None:  # the format validation holds values to
        prop["pattern"] = pattern
    if f.choices:
        prop["enum"] = list(f.choices)
    if f.sensitive:
        prop["writeOnly"] = True  # card data: never echoed, never stored in full
    return prop


def _any_of(names: tuple[str, ...]) -> dict[str, Any]:
    """Any one of ``names`` is sent."""
    return {"anyOf": [{"required": [n]} for n in names]}


def _declared(rule: Rule) -> dict[str, Any] | None:
    """The schema of a rule the contract tables hold as data, read off the rule itself (the
    one validation runs); None for a rule that is code only."""
    if isinstance(rule, OneOf):
        return {
            "description": f"{rule.first} or {rule.second}, never both.",
            "not": {"required": [rule.first, rule.second]},
        }
    if isinstance(rule, Alternatives):
        return {
            "description": f"{rule.single} or {rule.what}, never both.",
            "not": {"required": [rule.single], **_any_of(rule.group)},
        }
    if isinstance(rule, Together):
        return {
            "description": f"{rule.what}: all of them or none.",
            "dependentRequired": {
                n: [other for other in rule.names if other != n] for n in rule.names
            },
        }
    return None


def _rules(command: Command) -> list[dict[str, Any]]:
    """The cross-field rules JSON Schema can say, as ``allOf`` members."""
    declared = [d for r in RULES.get(command.name, ()) if (d := _declared(r)) is not None]
    return declared + _shaped(command)


def _shaped(command: Command) -> list[dict[str, Any]]:
    """The rules whose shape comes from the contract's tables of names, not from a rule."""
    if command.name == "payout-check":
        return [
            {
                "description": "Who receives the money: at least one way of naming a receiver.",
                "anyOf": [{"required": list(names)} for names in RECEIVER_KINDS.values()],
            }
        ]
    if command.name == "create-recurring-payment":
        return [
            {
                "description": "Rule 1: exactly one of amount, amount-from with amount-to, "
                "or amount-sequence.",
                "oneOf": [{"required": list(names)} for _, names in AMOUNT_RULES],
            },
            {
                "description": "SRC profiles need the payer's and card's fields; DST "
                "profiles must not carry them.",
                "if": {
                    "properties": {"rp_card_type": {"const": "DST"}},
                    "required": ["rp_card_type"],
                },
                "then": {"not": _any_of(SRC_ONLY_FIELDS)},
                "else": {"required": list(SRC_REQUIRED_FIELDS)},
            },
        ]
    return []


def _request_schema(command: Command) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for f in command.fields:
        properties[f.name] = _property(f)
        if f.alias:
            properties[f.alias] = _property(f, alias_of=f.name)
    schema: dict[str, Any] = {
        "type": "object",
        "description": " ".join(command.notes),
        "properties": properties,
        "required": [f.name for f in command.fields if always_required(f)],
    }
    rules = _rules(command)
    if rules:
        schema["allOf"] = rules
    return schema


def _operation(command: Command, form: str, schema_name: str) -> dict[str, Any]:
    param, meaning = _PATH_PARAMETERS[form]
    description = [command.purpose, *command.notes]
    if command.from_field_notes:
        description.append("Outside the contract: from the field notes of deployed gateways.")
    return {
        "operationId": _camel(command.name) + ("ByGroup" if form == "group" else ""),
        "summary": command.title + (" (endpoint group)" if form == "group" else ""),
        "description": "\n\n".join(description),
        "tags": [command.name],
        "parameters": [
            {
                "name": param,
                "in": "path",
                "required": True,
                "description": meaning,
                "schema": {"type": "string"},
            }
        ],
        "requestBody": {
            "required": True,
            "content": {
                "application/x-www-form-urlencoded": {
                    "schema": {"$ref": f"#/components/schemas/{schema_name}Request"}
                }
            },
        },
        "responses": responses(command, f"{schema_name}Response"),
    }


def openapi_document(*, server_url: str | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every command the console knows.

    Args:
        server_url: the base URL (scheme, host and prefix before ``/api/v4``); a placeholder
            address when None.
    """
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {}
    for command in COMMANDS.values():
        schema_name = _camel(command.name)
        schema_name = schema_name[0].upper() + schema_name[1:]
        schemas[f"{schema_name}Request"] = _request_schema(command)
        schemas[f"{schema_name}Response"] = fields_schema(command)
        for form, template in command.path_templates.items():
            paths[template] = {"post": _operation(command, form, schema_name)}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Payment gateway API v4",
            "version": "4",
            "description": "The commands the Gateway Console sends, generated from its contract "
            "tables. " + RESPONSE_FORMAT,
        },
        "servers": [{"url": (server_url or PLACEHOLDER_SERVER).rstrip("/")}],
        "security": [{"oauth1RsaSha256": []}],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                # OAuth 1.0a has no type of its own; the header it signs into is what tools
                # (mock servers, generated clients) can check and fill in.
                "oauth1RsaSha256": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "Authorization",
                    "description": SECURITY,
                }
            },
        },
    }
