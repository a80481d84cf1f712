"""The facts of an order, read one way everywhere: the journal, the guard, the confirmation
and team approvals agree on which order a request is and what it moves."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history.rows import answer_columns, request_columns
from console.core.order_facts import (
    OrderRef,
    amount,
    answer_order_id,
    client_orderid,
    receiver,
    requested_order_id,
)
from console.core.pipeline import SendSummary
from console.core.team.approvals.approval import approved_row
from tests.helpers.history_data import answered, prepared


def test_the_order_id_is_found_under_either_spelling_and_without_white_space() -> None:
    assert client_orderid({"client_orderid": " pay-1 "}) == "pay-1"
    assert client_orderid([("client-orderid", "rec-1\t")]) == "rec-1"
    assert client_orderid({"client_orderid": "  ", "client-orderid": "rec-2"}) == "rec-2"
    assert client_orderid({"orderid": "77"}) == ""


def test_the_gateways_order_id_of_an_answer_falls_back_to_orderid() -> None:
    assert answer_order_id([("gateway-order-id", "901"), ("orderid", "5")]) == "901"
    assert answer_order_id([("type", "status-response"), ("orderid", "902")]) == "902"
    assert answer_order_id([("gateway-order-id", ""), ("orderid", "")]) is None
    assert requested_order_id({"orderid": " 903 "}) == "903"


def test_receiver_and_amount_cover_every_kind_of_request() -> None:
    assert receiver({"credit_card_number": "4444 4444 4444 4448"}) == (
        "card 444444******4448",
        "4448",
    )
    assert receiver({"account_number": "DE89370400440532013000"})[0] == (
        "bank account DE89370400440532013000"
    )
    assert receiver({"ewallet_wallet": "w-1"})[0] == "e-wallet w-1"
    assert amount({"amount-from": "1.00", "amount-to": "5.00"}) == "1.00-5.00"
    assert amount({"amount-sequence": "1.00,2.00"}) == "1.00,2.00"


def test_the_journal_the_confirmation_and_an_approval_name_the_same_order(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    # a recurring profile spells its id with a dash; typed with a space after it
    req = prepared(rsa_key, "create-recurring-payment", client__orderid="rec-7 ")
    columns = request_columns("local", req)
    summary = SendSummary.of("local", True, req.command, req.params)
    approved = approved_row("local", req, "team-key")
    assert columns["client_orderid"] == summary.client_orderid == "rec-7"
    assert approved["client_orderid"] == "rec-7"
    assert columns["amount"] == summary.amount == approved["amount"]
    assert columns["receiver"] == summary.receiver == approved["receiver"]


def test_a_status_answer_names_the_gateway_order_in_the_journal(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    req = prepared(rsa_key, "status", client_orderid="pay-9", orderid="904")
    assert request_columns("local", req)["gateway_order_id"] == "904"
    body = "type=status-response&status=approved&orderid=904&serial-number=s"
    columns, _ = answer_columns(answered(req, body))
    assert columns["gateway_order_id"] == "904"


def test_an_order_belongs_to_the_environment_it_was_sent_in_only() -> None:
    order = OrderRef("local-sandbox", "po-1", "9001")
    assert order.belongs_to("local-sandbox")
    assert not order.belongs_to("live")
    assert not order.belongs_to(None)
