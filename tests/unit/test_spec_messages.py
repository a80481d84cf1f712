"""What a person reads and what is sent: problem messages and the body parameters."""

from __future__ import annotations

import pytest

from console.core.spec import request_fields, validate
from console.core.spec.model import Severity
from tests.unit.test_spec_rules import NO_AMOUNT, C, P, R, run


@pytest.mark.parametrize(
    ("command", "changes", "fix"),
    [
        (P, {"amount": "10,50"}, "10.50"),
        (P, {"amount": "1,000.50"}, "1000.50"),
        (R, {"start-date": "2026-12-01"}, "01.12.2026"),
        (R, {"birthday": "1.2.1980"}, "01.02.1980"),
        (R, {"currency": "usd"}, "USD"),
        (P, {"receiver_country_code": "de"}, "DE"),
        (R, {"rp_card_type": "dst"}, "DST"),
        (R, {**NO_AMOUNT, "amount-sequence": "1.00, 2.00"}, "1.00,2.00"),
        (P, {"cvv2": "12"}, "at least 3"),
        (P, {"order_desc": "x" * 70}, "at most 64"),
    ],
)
def test_messages_show_the_fix(command: str, changes: dict[str, str | None], fix: str) -> None:
    assert any(fix in p.message for p in run(command, changes))


def test_card_numbers_never_appear_in_messages() -> None:
    problems = run(P, {"credit_card_number": "4444-4444-4444-4448", "cvv2": "1x3"})
    assert problems
    for p in problems:
        assert "4444" not in p.message
        assert "1x3" not in p.message


def test_messages_use_the_name_the_user_typed() -> None:
    problems = run(P, {"receiver_email": None, "email": "nobody"})
    (p,) = [p for p in problems if p.code == "email"]
    assert p.fields == ("receiver_email",)
    assert p.message.startswith("email ")


def test_unknown_command() -> None:
    with pytest.raises(KeyError, match="payout-check"):
        validate("payout", {})


def test_to_json_shape() -> None:
    (p,) = validate(C, {"client_orderid": "a"})
    assert p.to_json() == {
        "fields": ["orderid"],
        "severity": "error",
        "message": p.message,
        "code": "required",
    }


def test_request_fields_follow_the_contract_order() -> None:
    values = {
        "unknown_extra": "x",
        "currency": "USD",
        "first_name": " Jon ",
        "login": "merchant",
        "oauth_nonce": "n",
        "amount": "10.00",
        "order_desc": "   ",
        "client_orderid": "po-1",
    }
    assert request_fields(P, values) == [
        ("client_orderid", "po-1"),
        ("amount", "10.00"),
        ("currency", "USD"),
        ("first_name", " Jon "),
        ("unknown_extra", "x"),
    ]


def test_values_are_sent_exactly_as_given_and_surrounding_space_earns_a_warning() -> None:
    values = {"client_orderid": "po-1", "amount": "10.00 ", "order_desc": "\tgift", "x": "  "}
    assert request_fields(P, values) == [
        ("client_orderid", "po-1"),
        ("amount", "10.00 "),
        ("order_desc", "\tgift"),
    ]
    problems = validate(P, values)
    spaced = [p for p in problems if p.code == "surrounding-space"]
    assert [(p.fields, p.severity) for p in spaced] == [
        (("amount",), Severity.WARNING),
        (("order_desc",), Severity.WARNING),
        (("x",), Severity.WARNING),
    ]
    assert "sent exactly as given" in spaced[0].message
    assert "only white space" in spaced[2].message
    # checked without the spaces: "10.00" is a good amount, so no error about it
    assert not [p for p in problems if "amount" in p.fields and p.severity is Severity.ERROR]


def test_request_fields_keep_the_sample_spelling() -> None:
    pairs = request_fields(R, {"notify-url": "https://m.example/n", "rp_card_type": "SRC"})
    assert pairs == [("rp_card_type", "SRC"), ("notify-url", "https://m.example/n")]


def test_request_fields_of_card_ref_never_carry_the_login() -> None:
    pairs = request_fields(C, {"login": "m", "orderid": "7", "client_orderid": "c"})
    assert pairs == [("client_orderid", "c"), ("orderid", "7")]
