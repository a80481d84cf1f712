"""The status command. It is outside the contract ("not shown"); everything here comes from
the field notes (public v4 documentation of deployed gateways), hence
``from_field_notes=True``. Paths are templates an environment may override like any other.
"""

from __future__ import annotations

from .build import row, v4_paths
from .model import Command, FieldType, ResponseField

# Transaction status values seen in deployed gateways (field notes).
STATUS_VALUES = ("approved", "declined", "filtered", "processing", "error", "unknown")
# Statuses after which nothing changes any more; "filtered" is a fraud-control decline.
FINAL_STATUSES = frozenset({"approved", "declined", "filtered", "error"})
# Statuses of an order not decided yet: they never replace a settled status (a final one, or
# a later update such as a chargeback reported through notify_url) that a journal holds.
IN_PROGRESS_STATUSES = frozenset(STATUS_VALUES) - FINAL_STATUSES

_FROM_NOTES = "From the field notes (public v4 documentation); the contract does not show it."

FIELDS = (
    row(
        "client_orderid",
        "Required",
        FieldType.STRING,
        "not shown",
        "The Connecting Party's order id of the order to look up.",
        section="order",
        note=_FROM_NOTES,
    ),
    row(
        "orderid",
        "Optional",
        FieldType.STRING,
        "not shown",
        "The gateway order id (the `gateway-order-id` of the payout-check answer).",
        section="order",
        note="Recommended. " + _FROM_NOTES,
    ),
    row(
        "by-request-sn",
        "Optional",
        FieldType.STRING,
        "not shown",
        "A serial-number: look up the order by the request that carried it.",
        section="order",
        note=_FROM_NOTES,
    ),
)

RESPONSE_FIELDS = (
    ResponseField(
        "type",
        "`status-response`, `validation-error` or `error`. For the last two, `error-message` "
        "and `error-code` carry the details.",
    ),
    ResponseField(
        "status",
        "Transaction status: `approved`, `declined`, `filtered` (fraud control; treat as "
        "declined), `processing`, `error` or `unknown`.",
    ),
    ResponseField("serial-number", "Per-request unique number."),
    ResponseField("merchant_data", "The `merchant_data` sent with the payout check order."),
    ResponseField("error-message", "Reason for a decline or error."),
    ResponseField("error-code", "Code for a declined or error result."),
)

NOTES = (
    _FROM_NOTES,
    "The success type `status-response` follows the public v4 documentation; the field notes "
    "do not name it.",
    "Suggested polling: every 3-5 s for the first 5 minutes, then every 5-10 minutes for up "
    "to an hour, then rely on the callback.",
    "`merchant_data` sent with a payout check order is returned in the status response "
    "(contract section 6).",
)

STATUS = Command(
    name="status",
    title="Order status",
    purpose="Look up the current status of an order.",
    fields=FIELDS,
    response_fields=RESPONSE_FIELDS,
    success_type="status-response",
    path_templates=v4_paths("status"),
    from_field_notes=True,
    notes=NOTES,
)
