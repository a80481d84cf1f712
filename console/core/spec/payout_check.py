"""payout-check (contract section 4.2): the request table, response table and paths."""

from __future__ import annotations

from .build import row, v4_paths
from .model import Command, FieldType, ResponseField

_S = FieldType.STRING
_N = FieldType.NUMERIC
_I = FieldType.INT
_L = FieldType.LONG
_V = FieldType.VARCHAR

_REQ, _OPT, _CON = "Required", "Optional", "Conditional"

FIELDS = (
    row("client_orderid", _REQ, _S, "128", "Connecting Party order id.", section="order"),
    row(
        "amount",
        _REQ,
        _N,
        "10",
        "Amount in the highest currency units with `.` as the delimiter "
        "(10.5 means 10 units and 50 subunits).",
        section="order",
    ),
    row("currency", _REQ, _S, "3", "Three-letter currency code.", section="order"),
    row("order_desc", _OPT, _S, "64", "Brief order description.", section="order"),
    row("ipaddress", _CON, _S, "7-45", "Receiver's IP address (IPv4 or IPv6).", section="customer"),
    row("purpose", _CON, _S, "128", "Purpose of the payout check.", section="order"),
    row(
        "server_callback_url",
        _OPT,
        _S,
        "128",
        "Address that receives the callback when the order reaches a final status.",
        section="callbacks",
    ),
    row(
        "notify_url",
        _OPT,
        _S,
        "128",
        "Address that receives the callback at the final status and on every later update "
        "(reversal, chargeback and so on).",
        section="callbacks",
    ),
    row(
        "redirect_url",
        _OPT,
        _S,
        "128",
        "Where the receiver is redirected when the transaction completes.",
        section="redirects",
    ),
    row(
        "redirect_success_url",
        _OPT,
        _S,
        "1024",
        "Redirect target when the status is approved.",
        section="redirects",
    ),
    row(
        "redirect_fail_url",
        _OPT,
        _S,
        "1024",
        "Redirect target when the status is not approved.",
        section="redirects",
    ),
    row(
        "credit_card_number",
        _CON,
        _N,
        "20",
        "Card number. For a payment to a card inside the system, the card counts as a source "
        "card. Processing limits, lists and fraud scoring apply to it as such.",
        section="card",
    ),
    row("card_printed_name", _CON, _S, "128", "Name printed on the card.", section="card"),
    row("expire_month", _CON, _N, "2", "Card expiry month.", section="card"),
    row("expire_year", _CON, _N, "4", "Card expiry year.", section="card"),
    row(
        "cvv2",
        _CON,
        _N,
        "3-4",
        "Receiver's card verification code.",
        section="card",
    ),
    row("account_number", _CON, _S, "32", "Account number.", section="bank"),
    row("account_name", _OPT, _S, "128", "Bank account name.", section="bank"),
    row("ewallet_type", _CON, _S, "64", "E-wallet type.", section="ewallet"),
    row("ewallet_wallet", _CON, _S, "128", "E-wallet id.", section="ewallet"),
    row("crypto_wallet_address", _CON, _S, "64", "Crypto wallet address.", section="crypto"),
    row("bank_name", _CON, _S, "255", "Bank name.", section="bank"),
    row("bank_branch", _CON, _S, "255", "Bank branch name.", section="bank"),
    row("bank_code", _CON, _S, "32", "Bank code.", section="bank"),
    row("bank_city", _CON, _S, "128", "Bank city.", section="bank"),
    row("bank_address1", _CON, _S, "255", "Bank address.", section="bank"),
    row("bank_zip_code", _CON, _S, "255", "Bank postal code.", section="bank"),
    row("bank_province", _CON, _S, "255", "Bank province.", section="bank"),
    row("bank_area", _CON, _S, "255", "Bank area.", section="bank"),
    row(
        "routing_number",
        _CON,
        _S,
        "16",
        "Routing number identifying bank branches in China.",
        section="bank",
    ),
    row("legal_person_name", _CON, _S, "128", "Name on the legal document.", section="receiver"),
    row(
        "legal_person_document_number",
        _CON,
        _S,
        "128",
        "Legal document number.",
        section="receiver",
    ),
    row(
        "receiver_first_name",
        _CON,
        _S,
        "128",
        "Alias: `first_name`.",
        alias="first_name",
        section="receiver",
    ),
    row(
        "receiver_last_name",
        _CON,
        _S,
        "128",
        "Alias: `last_name`.",
        alias="last_name",
        section="receiver",
    ),
    row(
        "receiver_middle_name",
        _CON,
        _S,
        "128",
        "Alias: `middle_name`.",
        alias="middle_name",
        section="receiver",
    ),
    row(
        "receiver_birthday",
        _CON,
        _N,
        "30",
        "Alias: `birthday`.",
        alias="birthday",
        section="receiver",
    ),
    row(
        "receiver_country_code",
        _CON,
        _S,
        "3",
        "Alias: `country`.",
        alias="country",
        section="customer",
    ),
    row(
        "receiver_state",
        _CON,
        _S,
        "4",
        "Alias: `state`. Should be given for countries that have states (USA, Canada, Australia).",
        alias="state",
        section="customer",
    ),
    row("receiver_city", _CON, _S, "128", "Alias: `city`.", alias="city", section="customer"),
    row(
        "receiver_zip_code",
        _CON,
        _N,
        "32",
        "Alias: `zip_code`.",
        alias="zip_code",
        section="customer",
    ),
    row(
        "receiver_address1",
        _CON,
        _S,
        "256",
        "Alias: `address1`.",
        alias="address1",
        section="customer",
    ),
    row("receiver_phone", _CON, _N, "128", "Alias: `phone`.", alias="phone", section="customer"),
    row("receiver_email", _CON, _S, "128", "Alias: `email`.", alias="email", section="customer"),
    row(
        "receiver_identity_document_id",
        _CON,
        _S,
        "128",
        "Alias: `identity_document_id`.",
        alias="identity_document_id",
        section="receiver",
    ),
    row(
        "receiver_identity_document_number",
        _CON,
        _S,
        "128",
        "Alias: `identity_document_number`.",
        alias="identity_document_number",
        section="receiver",
    ),
    row(
        "merchant_data",
        _OPT,
        _S,
        "64k",
        "Free additional information. It is returned in the status response and in callbacks.",
        section="extra",
    ),
    row("bank_bic", _OPT, _S, "128", "BIC of the receiver's bank.", section="bank"),
    row("receiver_inn", _OPT, _S, "128", "Receiver's INN.", section="receiver"),
    row("customer_level", _OPT, _V, "32", "Customer level in the CMS system.", section="cms"),
    row(
        "customer_id",
        _OPT,
        _I,
        "10",
        "Customer id in the CMS system. Required when the transaction goes via the CMS in "
        "Payment Gateway mode.",
        section="cms",
    ),
    row(
        "merchant_customer_identifier",
        _OPT,
        _V,
        "64",
        "Merchant customer id in the CMS system. Required when the transaction goes via the CMS "
        "in CRM mode.",
        section="cms",
    ),
    row(
        "card_recurring_payment_id",
        _CON,
        _L,
        "-",
        "Recurring Payment ID of the payer's stored card data. It is created with "
        "create-card-ref. For a payment to a card inside the system, the card counts as a "
        "source card.",
        section="stored-card",
    ),
    row(
        "recurring-payment-id",
        _CON,
        _L,
        "-",
        "Recurring Payment ID that can be sent instead of cardholder data.",
        section="stored-card",
    ),
)

RESPONSE_FIELDS = (
    ResponseField(
        "type",
        "`async-response`, `validation-error` or `error`. For the last two, `error-message` "
        "and `error-code` carry the details.",
    ),
    ResponseField("gateway-order-id", "Order id assigned by the service."),
    ResponseField("merchant-order-id", "The Connecting Party's order id."),
    ResponseField("serial-number", "Per-request unique number."),
    ResponseField("end-point-id", "Endpoint id (present in the success response)."),
    ResponseField(
        "error-message", "Reason for a decline or error details when the status is error."
    ),
    ResponseField("error-code", "Error code when the status is error."),
)

NOTES = (
    "Send either `card_recurring_payment_id`, or the combination `credit_card_number`, "
    "`card_printed_name`, `expire_month`, `expire_year`. Do not send both.",
    "`recurring-payment-id` can replace cardholder data.",
    "Send either `server_callback_url` or `notify_url`. With `server_callback_url` the "
    "callback is sent only at the final status. With `notify_url` it is also sent on every "
    "later update.",
    "Use either `redirect_url`, or the pair `redirect_success_url` and `redirect_fail_url`. "
    "Do not use both forms.",
    "Redirection happens whatever the final status is. A client must not derive the "
    "transaction status from redirect parameters. It uses the callback or the status command "
    "instead.",
    "When no redirect is wanted, a designated placeholder address ({doc_url}) is passed in "
    "the redirect parameters.",
    "Which conditional fields are required for a given integration: not shown.",
)

PAYOUT_CHECK = Command(
    name="payout-check",
    title="Payout check",
    purpose="Submit a payout check order. It is asynchronous.",
    fields=FIELDS,
    response_fields=RESPONSE_FIELDS,
    success_type="async-response",
    path_templates=v4_paths("payout-check"),
    asynchronous=True,
    notes=NOTES,
)
