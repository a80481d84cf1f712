"""What the journal keeps of one request and its answer: pane columns and masked details.

Card data rules (field notes, PCI DSS): card numbers only as first six + last four, CVV2
never, the base string and body masked the same way. One more rule of this journal: when a
request carried card data, its RSA signature is not kept either, because with the public key
it would let anyone holding the database test guesses of the full card number and CVV2
(about 10^5 x 10^3 candidates once six and four digits are known).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from console.core.masking import is_sensitive
from console.core.order_facts import (
    amount,
    answer_order_id,
    client_orderid,
    currency,
    first_value,
    receiver,
    requested_order_id,
)
from console.core.outcome_view import masked_outcome
from console.core.signing import shown_request

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.prepared import PreparedRequest

_SIGNATURE_IN_HEADER = re.compile(r'oauth_signature="[^"]*"')
NOT_KEPT = "(not kept: the request carried card data)"


def request_columns(env: str, prepared: PreparedRequest) -> dict[str, Any]:
    """The pane columns known before sending."""
    params = prepared.params
    shown, last4 = receiver(params)
    return {
        "environment": env,
        "command": prepared.command,
        "url": prepared.url,
        "gateway": prepared.gateway,
        "client_orderid": client_orderid(params) or None,
        "amount": amount(params),
        "currency": currency(params),
        "receiver": shown,
        "last4": last4,
        # create-card-ref and status name an existing gateway order: make it searchable
        "gateway_order_id": requested_order_id(params),
        "card_ref_id": None,
        "recurring_payment_id": first_value(
            params, "recurring-payment-id", "card_recurring_payment_id"
        ),
    }


def _secrets(params: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(n, v) for n, v in params if is_sensitive(n) and v]


def masked_request(prepared: PreparedRequest, *, answered: bool = False) -> dict[str, Any]:
    """The signed request as it may be stored: card data masked, signature dropped with it;
    without card data, its signature only once the gateway has ``answered`` it
    (:func:`console.core.signing.shown_request`: before that, a copy from the history would
    pay out past the confirmation and the journal)."""
    assert prepared.signed is not None
    data = shown_request(prepared.signed, revealed=False, answered=answered).to_json()
    if _secrets(prepared.params):
        data["signature_hex"] = data["signature_base64"] = NOT_KEPT
        data["authorization"] = _SIGNATURE_IN_HEADER.sub(
            f'oauth_signature="{NOT_KEPT}"', data["authorization"]
        )
    data["problems"] = [p.to_json() for p in prepared.problems]
    return data


def answered_request(prepared: PreparedRequest, *, answered: bool) -> dict[str, Any] | None:
    """The request as stored once its send ended, or None where that is what the pending
    row stored already: not answered (its signature still withheld), or carrying card data
    (its signature never kept)."""
    if not answered or _secrets(prepared.params):
        return None
    return masked_request(prepared, answered=True)


def answer_columns(outcome: Outcome) -> tuple[dict[str, Any], dict[str, Any]]:
    """The pane columns known after the answer, and the answer to store: the one masked
    view of it (:func:`console.core.outcome_view.masked_outcome`, which leaves an outcome
    masked already as it is)."""
    outcome = masked_outcome(outcome)
    columns: dict[str, Any] = {
        "finished": round(outcome.started_at + outcome.elapsed, 6) if outcome.started_at else None,
        "outcome": str(outcome.result),
        "elapsed": outcome.elapsed,
        "summary": outcome.summary,
    }
    if outcome.response is None:
        error = outcome.error
        message = error.message if error else ""
        return columns, {"error": message, "error_class": type(error).__name__}
    response = outcome.response
    fields = response.fields
    got = dict(fields)
    columns.update(
        http_status=response.http_status,
        response_type=response.type,
        response_status=response.status,
        serial_number=got.get("serial-number"),
        card_ref_id=got.get("card-ref-id"),
    )
    order_id = answer_order_id(fields)
    if order_id:
        columns["gateway_order_id"] = order_id
    rpi = got.get("recurring-payment-id")
    if rpi:
        columns["recurring_payment_id"] = rpi
    if outcome.prepared.command == "status" and response.status:
        columns.update(final_status=response.status, final_status_source="status")
    return columns, response.to_json()
