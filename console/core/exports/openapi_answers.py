"""The answers in the OpenAPI description: what the gateway sends back, as it sends it.

A 200 answer is ``text/html`` whose body is form-urlencoded text (``name=value`` items joined
with ``&``, every value followed by a line feed), not an object: the description says so with
a string schema, an example answer per command and the way to decode it, and keeps the
decoded fields as a schema of their own. Mock servers serve the example; generated clients
hand the text back.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote_plus

from console.core.spec import example_values
from console.core.spec.model import Command

RESPONSE_FORMAT = (
    "HTTP 200 with `Content-Type: text/html;charset=utf-8`. The body is a list of "
    "`name=value` pairs joined with `&` (form-urlencoded); every value is followed by a line "
    "feed (0x0A). `type` says what the answer is; `validation-error` and `error` carry "
    "`error-message` and `error-code`."
)
DECODING = (
    "To read it: split the text at `&`, split each item at its first `=`, form-decode the "
    "name and the value (`+` is a space, then percent-decoding over UTF-8) and drop the line "
    "feed that ends each value; in Python `{k: v.rstrip('\\n') for k, v in "
    "urllib.parse.parse_qsl(text)}`. The fields it holds are described by the schema "
    "`{name}`."
)
# Example values of the answer fields a success carries (errors' fields are left out).
_EXAMPLE_FIELDS = {
    "serial-number": "8a3c1f0e-5b7d-4c2a-9e61-2f4b8d0c7a15",
    "gateway-order-id": "10000001",
    "end-point-id": "1001",
    "card-ref-id": "20000001",
    "unq-card-ref-id": "21000001",
    "recurring-payment-id": "30000001",
    "dst-card-ref-id": "20000002",
    "dst-unq-card-ref-id": "21000002",
    "dst-recurring-payment-id": "30000002",
    "status": "approved",
}


def example_answer(command: Command) -> str:
    """A success answer of ``command`` exactly as the gateway writes it."""
    request = example_values(command.name)
    pairs = [("type", command.success_type)]
    for r in command.response_fields:
        if r.name == "merchant-order-id":
            pairs.append((r.name, request["client_orderid"]))
        elif r.name in request:  # given back as sent (merchant_data)
            pairs.append((r.name, request[r.name]))
        elif r.name in _EXAMPLE_FIELDS:
            pairs.append((r.name, _EXAMPLE_FIELDS[r.name]))
    return "&".join(f"{quote_plus(n)}={quote_plus(v)}\n" for n, v in pairs)


def fields_schema(command: Command) -> dict[str, Any]:
    """The answer's fields once decoded (the text itself is a string)."""
    return {
        "type": "object",
        "description": f"The fields of a {command.name} answer once decoded. "
        + RESPONSE_FORMAT
        + f" Success: `type={command.success_type}`.",
        "properties": {
            r.name: {"type": "string", "description": r.meaning} for r in command.response_fields
        },
        "required": ["type"],
    }


def responses(command: Command, fields_name: str) -> dict[str, Any]:
    """The operation's answers: the 200 text with its example, and the 403 page."""
    decoding = DECODING.replace("{name}", fields_name)
    return {
        "200": {
            "description": f"{RESPONSE_FORMAT} {decoding}",
            "content": {
                "text/html": {
                    "schema": {
                        "type": "string",
                        "description": "Form-urlencoded fields, each value followed by a "
                        f"line feed; success: `type={command.success_type}`.",
                    },
                    "example": example_answer(command),
                }
            },
        },
        "403": {
            "description": "Authorization failed (signature, key, login or address): "
            "a small HTML page, not the form format.",
            "content": {"text/html": {"schema": {"type": "string"}}},
        },
    }
