"""Words a support agent reads for each request field, beside the contract's wire name.

The contract names fields for machines (``credit_card_number``, ``client-orderid``); forms
show these plain labels first and the wire name beside them. Hyphen and underscore spellings
of the same field share one label. A field not listed here is labelled from its name.
"""

from __future__ import annotations

from collections.abc import Iterable

_LABELS = {
    "client_orderid": "Client order id",
    "orderid": "Gateway order id",
    "by_request_sn": "Serial number of the request",
    "amount": "Amount",
    "currency": "Currency",
    "order_desc": "Description",
    "ipaddress": "Receiver's IP address",
    "purpose": "Purpose",
    "server_callback_url": "Callback address (final status)",
    "notify_url": "Notification address (every update)",
    "redirect_url": "Redirect address",
    "redirect_success_url": "Redirect address if approved",
    "redirect_fail_url": "Redirect address if not approved",
    "credit_card_number": "Card number",
    "card_printed_name": "Name on card",
    "expire_month": "Expiry month",
    "expire_year": "Expiry year",
    "cvv2": "CVV2",
    "account_number": "Account number",
    "account_name": "Account holder",
    "ewallet_type": "E-wallet type",
    "ewallet_wallet": "E-wallet id",
    "crypto_wallet_address": "Crypto wallet address",
    "bank_name": "Bank name",
    "bank_branch": "Bank branch",
    "bank_code": "Bank code",
    "bank_city": "Bank city",
    "bank_address1": "Bank address",
    "bank_zip_code": "Bank postal code",
    "bank_province": "Bank province",
    "bank_area": "Bank area",
    "routing_number": "Routing number (China)",
    "legal_person_name": "Name on legal document",
    "legal_person_document_number": "Legal document number",
    "receiver_first_name": "First name",
    "receiver_last_name": "Last name",
    "receiver_middle_name": "Middle name",
    "receiver_birthday": "Date of birth",
    "receiver_country_code": "Country",
    "receiver_state": "State",
    "receiver_city": "City",
    "receiver_zip_code": "Postal code",
    "receiver_address1": "Address",
    "receiver_phone": "Phone",
    "receiver_email": "Email",
    "receiver_identity_document_id": "Identity document type",
    "receiver_identity_document_number": "Identity document number",
    "merchant_data": "Your notes (returned in callbacks)",
    "bank_bic": "Bank BIC",
    "receiver_inn": "Receiver's INN",
    "customer_level": "Customer level",
    "customer_id": "Customer id",
    "merchant_customer_identifier": "Your customer id",
    "card_recurring_payment_id": "Stored card (recurring payment id)",
    "recurring_payment_id": "Recurring payment id",
    "rp_card_type": "Card type",
    "first_name": "First name",
    "last_name": "Last name",
    "zip_code": "Postal code",
    "address1": "Address",
    "country": "Country",
    "city": "City",
    "email": "Email",
    "phone": "Phone",
    "state": "State",
    "birthday": "Date of birth",
    "ssn": "Social security number",
    "customer_ip": "Payer's IP address",
    "amount_from": "Lowest amount",
    "amount_to": "Highest amount",
    "amount_sequence": "Amounts in order",
    "period": "Every",
    "interval": "Interval (× period)",
    "start_date": "First charge",
    "finish_date": "Last charge",
    "max_repeats_number": "Most charges",
}

# Card details in the order they are printed and read off a card; where the contract
# lists them otherwise (expiry year before month, CVV2 before the name), forms show this order.
CARD_ORDER = ("credit_card_number", "card_printed_name", "expire_month", "expire_year", "cvv2")


def shown_order(names: Iterable[str]) -> tuple[str, ...]:
    """Contract order, except card details, which follow :data:`CARD_ORDER`."""
    out = list(names)
    rank = {
        name: CARD_ORDER.index(name.replace("-", "_"))
        for name in out
        if name.replace("-", "_") in CARD_ORDER
    }
    slots = [i for i, name in enumerate(out) if name in rank]
    for slot, name in zip(slots, sorted(rank, key=rank.__getitem__), strict=True):
        out[slot] = name
    return tuple(out)


def label_for(name: str) -> str:
    """The plain label of a wire name (either spelling)."""
    key = name.replace("-", "_")
    return _LABELS.get(key) or key.replace("_", " ").capitalize()
