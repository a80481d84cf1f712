"""create-card-ref (contract section 4.1): the request table, response table and paths.

The contract's request table also lists ``login``, but says it "is carried as the OAuth
consumer key and is not sent as a body parameter". It is therefore not a field here: the
login comes from the environment and goes into ``oauth_consumer_key``.
"""

from __future__ import annotations

from .build import row, v4_paths
from .model import Command, FieldType, ResponseField

# Necessity, type and length are "not shown" in the contract. Both ids are required because the
# precondition says the Connecting Party supplies them; the type stays String (the loosest).
_NOT_SHOWN = (
    "Necessity, type and length: not shown in the contract. Required because the precondition "
    "says the Connecting Party supplies the orderid and client_orderid of the first payment."
)

FIELDS = (
    row(
        "client_orderid",
        "Required",
        FieldType.STRING,
        "not shown",
        "The Connecting Party's order id of the first payment.",
        section="order",
        note=_NOT_SHOWN,
    ),
    row(
        "orderid",
        "Required",
        FieldType.STRING,
        "not shown",
        "The order id assigned by the service to the first payment.",
        section="order",
        note=_NOT_SHOWN,
    ),
)

RESPONSE_FIELDS = (
    ResponseField(
        "type",
        "`create-card-ref-response`, `validation-error` or `error`. For the last two, "
        "`error-message` and `error-code` carry the details.",
    ),
    ResponseField("serial-number", "Per-request unique number."),
    ResponseField("card-ref-id", "Card reference id."),
    ResponseField("unq-card-ref-id", "Reference id unique per card number."),
    ResponseField("recurring-payment-id", "Recurring Payment ID."),
    ResponseField("dst-card-ref-id", "Receiver's card reference id."),
    ResponseField("dst-unq-card-ref-id", "Receiver's unique reference id."),
    ResponseField("dst-recurring-payment-id", "Receiver's Recurring Payment ID."),
    ResponseField("error-message", "Reason for a decline or error."),
    ResponseField("error-code", "Code for a declined or error result."),
    ResponseField("status", "Result status, for example `approved`."),
)

NOTES = (
    "The Connecting Party supplies the `orderid` and `client_orderid` of the first payment "
    "transaction. The first payment is mandatory before recurring payments. Its card "
    "information must be sufficient to authorize the card, and it must be in a final status.",
    "`login` is the Connecting Party's login name. It is carried as the OAuth consumer key and "
    "is not sent as a body parameter.",
)

CREATE_CARD_REF = Command(
    name="create-card-ref",
    title="Create card reference",
    purpose="Create a card reference id and a Recurring Payment ID.",
    fields=FIELDS,
    response_fields=RESPONSE_FIELDS,
    success_type="create-card-ref-response",
    path_templates=v4_paths("create-card-ref"),
    notes=NOTES,
)
