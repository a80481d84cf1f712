"""Outcome rules: the field notes' CVV2 convention and the sandbox's amount rule."""

from __future__ import annotations

import pytest

from console.sandbox import codes
from console.sandbox.outcomes import by_amount, payout_outcome, receiver_kind

CARD = {"credit_card_number": "4444444444444448", "amount": "10.13"}


@pytest.mark.parametrize(
    ("cvv2", "status", "code"),
    [
        ("123", "approved", None),
        ("1234", "approved", None),
        ("111", "approved", None),
        ("217", "unknown", codes.OUTCOME_UNKNOWN),
        ("101", "declined", codes.EXPIRED_CARD),
        ("116", "declined", codes.INSUFFICIENT_FUNDS),
        ("119", "declined", codes.NOT_PERMITTED),
        ("209", "declined", codes.STOLEN_CARD),
        ("999", "declined", codes.DECLINED_OTHER_CVV2),
    ],
)
def test_card_payouts_follow_the_cvv2(cvv2: str, status: str, code: int | None) -> None:
    outcome = payout_outcome({**CARD, "cvv2": cvv2})  # the amount rule does not apply
    assert (outcome.status, outcome.code) == (status, code)
    assert bool(outcome.message) == (status != "approved")


@pytest.mark.parametrize(
    ("amount", "status"),
    [
        ("10.13", "declined"),
        ("0.13", "declined"),
        ("7.17", "unknown"),
        ("5.19", "filtered"),
        ("10.00", "approved"),
        ("10.1", "approved"),
        ("13", "approved"),
        ("10.131", "declined"),
    ],
)
def test_everything_without_cvv2_follows_the_cents(amount: str, status: str) -> None:
    assert by_amount(amount).status == status
    for receiver in (
        {"card_recurring_payment_id": "7"},
        {"recurring-payment-id": "7"},
        {"account_number": "DE1"},
        {"ewallet_wallet": "w"},
        {"crypto_wallet_address": "bc1"},
        {"credit_card_number": "4444"},
    ):
        assert payout_outcome({**receiver, "amount": amount}).status == status


def test_receiver_kinds() -> None:
    assert receiver_kind({"credit_card_number": "4"}) == "card"
    assert receiver_kind({"card_recurring_payment_id": "7", "credit_card_number": "4"}) == (
        "stored-card"
    )
    assert receiver_kind({"account_number": "1"}) == "bank"
    assert receiver_kind({"ewallet_wallet": "w"}) == "ewallet"
    assert receiver_kind({"crypto_wallet_address": "a"}) == "crypto"
    assert receiver_kind({"credit_card_number": "  "}) == "other"
