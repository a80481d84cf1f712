"""Card data masking: at most first six and last four digits, never a CVV2."""

from __future__ import annotations

import re
from urllib.parse import quote, quote_plus, unquote, unquote_plus

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from console.core.masking import (
    CVV_MASK,
    is_sensitive,
    mask_pan,
    mask_params,
    mask_text,
    mask_value,
)

PAN = "4444444444444448"


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("4444444444444448", "444444******4448"),  # 16 digits
        ("4444 4444 4444 4448", "444444******4448"),  # as printed on the card
        ("4444-4444-4444-4448", "444444******4448"),
        ("6759649826438453127", "675964*********3127"),  # 19 digits
        ("4222222222222", "422222***2222"),  # 13 digits
        ("123456789012", "********9012"),  # too short to keep the first six safely
        ("12345", "*2345"),
        ("1234", "****"),
        ("", ""),
        ("no digits", "*********"),
    ],
)
def test_mask_pan_shapes(typed: str, shown: str) -> None:
    assert mask_pan(typed) == shown


@settings(max_examples=150)
@given(st.text(alphabet="0123456789 -", max_size=30))
def test_mask_pan_never_shows_more_than_six_plus_four_digits(typed: str) -> None:
    digits = re.sub(r"\D", "", typed)
    masked = mask_pan(typed)
    visible = re.sub(r"\D", "", masked)
    assert len(visible) <= min(10, max(0, len(digits) - 1))
    assert digits.endswith(visible[-4:]) if visible else True


def test_cvv_is_never_visible() -> None:
    assert mask_value("cvv2", "123") == CVV_MASK
    assert mask_value("cvv2", "1234") == CVV_MASK  # the mask does not tell the length
    assert mask_value("cvv2", "") == ""
    assert "1" not in CVV_MASK


def test_sensitive_names_follow_both_spellings_of_the_contract() -> None:
    assert mask_value("credit_card_number", PAN) == "444444******4448"  # payout-check
    assert mask_value("credit-card-number", PAN) == "444444******4448"  # recurring payment
    assert mask_value("client_orderid", PAN) == PAN  # not a card field: left alone
    assert is_sensitive("cvv2")
    assert is_sensitive("credit-card-number")
    assert not is_sensitive("amount")


def test_mask_params_keeps_order_and_other_values() -> None:
    params = [("amount", "10.00"), ("credit_card_number", PAN), ("cvv2", "123"), ("x", "1")]
    assert mask_params(params) == [
        ("amount", "10.00"),
        ("credit_card_number", "444444******4448"),
        ("cvv2", CVV_MASK),
        ("x", "1"),
    ]


SECRETS = [("credit_card_number", "4444 4444 4444 4448"), ("cvv2", "123")]


@pytest.mark.parametrize(
    "text",
    [
        # a body as sent (RFC 3986 encoding, %20 for space)
        "amount=10.00&credit_card_number=4444%204444%204444%204448&cvv2=123&expire_year=2030",
        # the same body form-encoded (+ for space)
        "amount=10.00&credit_card_number=4444+4444+4444+4448&cvv2=123&expire_year=2030",
        # a signature base string: the body parameters encoded once more
        "POST&https%3A%2F%2Fgw.example%2Fpaynet&amount%3D10.00%26credit_card_number%3D4444"
        "%25204444%25204444%25204448%26cvv2%3D123%26expire_year%3D2030",
        # a log line with the number as typed
        "sending card 4444 4444 4444 4448 with cvv2=123 for 10.00",
    ],
    ids=["body", "form-body", "base-string", "log"],
)
def test_mask_text_hides_pan_and_cvv_in_any_encoding(text: str) -> None:
    masked = mask_text(text, SECRETS)
    plain = unquote_plus(unquote(masked))  # undo the encodings to see what is left
    assert PAN not in re.sub(r"\D", "", plain)
    assert "444444******4448" in plain.replace(" ", "")
    assert "cvv2=123" not in plain
    assert f"cvv2={CVV_MASK}" in plain
    assert "10.00" in masked  # other values stay readable


def test_mask_text_without_secrets_still_catches_card_shaped_numbers() -> None:
    text = (
        "POST&x&amount%3D1%26credit_card_number%3D4444444444444448%26oauth_timestamp%3D1700000000"
    )
    masked = mask_text(text)
    assert PAN not in masked
    assert "444444******4448" in masked
    assert "1700000000" in masked  # a ten-digit timestamp is not card shaped


def test_mask_text_leaves_a_cvv_alone_where_it_is_not_the_cvv() -> None:
    masked = mask_text("cvv2=123&amount=1234.00&client_orderid=A123", [("cvv2", "123")])
    assert masked == f"cvv2={CVV_MASK}&amount=1234.00&client_orderid=A123"


def test_mask_text_ignores_non_sensitive_secrets() -> None:
    assert mask_text("amount=10", [("amount", "10")]) == "amount=10"


@settings(max_examples=100)
@given(
    pan=st.from_regex(r"[2-6][0-9]{12,18}", fullmatch=True),
    cvv=st.from_regex(r"[0-9]{3,4}", fullmatch=True),
    grouping=st.sampled_from(["", " ", "-"]),
)
def test_mask_text_never_leaks_pan_or_cvv_in_body_or_base_string(
    pan: str, cvv: str, grouping: str
) -> None:
    typed = grouping.join(pan[i : i + 4] for i in range(0, len(pan), 4))
    body = f"credit_card_number={quote(typed, safe='')}&cvv2={cvv}&order_desc=x"
    base = "POST&u&" + quote(body, safe="")
    form = f"credit_card_number={quote_plus(typed)}&cvv2={cvv}"
    for text in (body, base, form, typed):
        masked = mask_text(text, [("credit_card_number", typed), ("cvv2", cvv)])
        plain = unquote_plus(unquote(masked))
        assert pan not in re.sub(r"\D", "", plain)
        assert f"cvv2={cvv}" not in plain


def test_the_sensitive_names_are_the_contracts() -> None:
    from console.core.masking import cvv_fields, pan_fields
    from console.core.spec import COMMANDS

    marked = {
        (name, f.sensitive)
        for c in COMMANDS.values()
        for f in c.fields
        if f.sensitive
        for name in (f.name, f.alias)
        if name
    }
    assert {(n, "pan") for n in pan_fields()} | {(n, "cvv") for n in cvv_fields()} == marked


def test_an_order_id_holding_a_cvv_like_run_stays_readable() -> None:
    from console.core.masking import mask_answer

    fields = [("gateway-order-id", "1231231231231234"), ("note", "order 9123400000000001 ok")]
    # 9123400000000001 fails the Luhn check: an id, not a card
    assert mask_answer(fields, [("cvv2", "123")]) == fields


def test_a_percent_encoded_echo_of_the_card_is_masked_without_knowing_the_request() -> None:
    assert mask_text("echo=4444%204444%204444%204448&x=1") == "echo=444444******4448&x=1"
    assert mask_text("echo=4444%2D4444%2D4444%2D4448") == "echo=444444******4448"
    assert mask_text("a 4444-4444-4444-4448 b") == "a 444444******4448 b"


def test_ids_named_in_the_answer_stay_readable_in_its_free_text() -> None:
    luhn_valid_id = "4111111111111111"
    text = f"profile {luhn_valid_id} created"
    assert mask_text(text) == "profile 411111******1111 created"
    assert mask_text(text, keep=[luhn_valid_id]) == text


def test_a_card_shaped_run_inside_a_named_id_stays_readable_and_elsewhere_is_masked() -> None:
    error_id = "9cfb17b79e9549299421914697326a73"  # 19 digits inside pass the Luhn check
    text = f"Internal error [{error_id}] for 9549299421914697326"
    assert mask_text(text) == (
        "Internal error [9cfb17b79e954929*********7326a73] for 954929*********7326"
    )
    assert mask_text(text, keep=[error_id]) == (
        f"Internal error [{error_id}] for 954929*********7326"
    )


@pytest.mark.parametrize("error_id", ["9549299421914697326ab7", "7ab9549299421914697326"])
def test_a_card_shaped_run_at_either_end_of_a_named_id_stays_readable(error_id: str) -> None:
    assert mask_text(f"error {error_id}.", keep=[error_id]) == f"error {error_id}."


FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


@pytest.mark.parametrize(
    "written",
    [
        "5555.5555.5555.4444",  # dotted, as some receipts print it
        "5555 5555 5555 4444",
        "5555-5555-5555-4444",
        "5555\u00a05555\u00a05555\u00a04444",  # no-break spaces (copied from a web page)
        "５５５５５５５５５５５５４４４４",  # full-width digits (a Japanese input method)
        "５５５５．５５５５．５５５５．４４４４",  # full-width digits and dots
        "５５５５ ５５５５ ５５５５ ４４４４",
        "٥٥٥٥٥٥٥٥٥٥٥٥٤٤٤٤",  # Arabic-Indic digits
        quote("５５５５５５５５５５５５４４４４"),  # percent-encoded in a form body
        quote("5555.5555.5555.4444", safe=""),
    ],
)
def test_card_numbers_in_other_spellings_are_masked_in_free_text(written: str) -> None:
    shown = mask_text(f"Card {written} refused")
    assert shown == "Card 555555******4444 refused"


def test_a_full_width_card_number_is_masked_to_ascii_digits() -> None:
    assert mask_pan("４４４４４４４４４４４４４４４８") == "444444******4448"
    assert mask_value("credit_card_number", PAN.translate(FULL_WIDTH)) == "444444******4448"


def test_dotted_numbers_that_are_no_card_stay_readable() -> None:
    text = "amount 1234.56, version 4.2.1, from 203.0.113.10, id 9123.4000.0000.0001"
    assert mask_text(text) == text  # too few digits, or the Luhn check fails


def test_percent_encoded_letters_are_not_taken_for_a_card_number() -> None:
    # sixteen encoded characters in a row look like a card's run until they are decoded
    text = "name=" + "%C3%A9" * 16 + "&x=1"
    assert mask_text(text) == text


@pytest.mark.parametrize("times", [1, 2, 3, 4, 5])
def test_a_card_number_parameter_encoded_any_number_of_times_keeps_first_six_and_last_four(
    times: int,
) -> None:
    space = " "
    for _ in range(times):
        space = quote(space)
    said = mask_text(f"credit_card_number=4444{space}4444{space}4444{space}4448&amount=1")
    assert said == "credit_card_number=444444******4448&amount=1"
