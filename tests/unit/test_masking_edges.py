"""Card data masking at its edges: a mistyped card number in its own field, card data written
as a parameter in a sentence, an answer's own fields, broken escapes and blank values.

Each test names what a person would see if the rule were narrowed (``make mutate`` found these
unguarded: docs/developing.md).
"""

from __future__ import annotations

import pytest

from console.core.masking import (
    CVV_MASK,
    mask_answer,
    mask_text,
    mask_value,
    named_parameter,
    replace_value,
)

# fails the Luhn check: only the field's name (or the request's own value) says it is a card
MISTYPED = "4111111111111112"
MISTYPED_SHOWN = "411111******1112"


def test_a_mistyped_card_number_is_masked_in_its_own_field() -> None:
    # the digit scanner leaves numbers failing the Luhn check alone; the field's name does not
    assert mask_value("credit_card_number", MISTYPED) == MISTYPED_SHOWN


def test_a_card_number_typed_into_a_description_is_masked() -> None:
    assert mask_value("order_desc", "refund to 4111111111111111") == "refund to 411111******1111"


def test_a_thirteen_digit_card_number_in_text_is_masked() -> None:
    assert mask_text("card 4222222222222 declined") == "card 422222***2222 declined"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # JSON echoes: the value in quotes, masked inside them
        ('{"cvv2": "123"}', f'{{"cvv2": "{CVV_MASK}"}}'),
        (
            f'{{"credit_card_number": "{MISTYPED}"}}',
            f'{{"credit_card_number": "{MISTYPED_SHOWN}"}}',
        ),
        # a bare value after = is masked whatever it holds
        ("cvv2=12a&x=1", f"cvv2={CVV_MASK}&x=1"),
        # after a colon: masked when it starts with a digit, however it is grouped
        ("cvv2: 123", f"cvv2: {CVV_MASK}"),
        ("credit_card_number: 4-111111111111112", "credit_card_number: 411111******1112"),
    ],
)
def test_card_data_written_as_a_parameter_is_masked(text: str, shown: str) -> None:
    assert mask_text(text) == shown


def test_field_names_in_a_sentence_are_left_readable() -> None:
    # "credit_card_number, card_printed_name and cvv2: ..." names fields; no value follows
    text = "Check credit_card_number, card_printed_name and cvv2: each is required."
    assert mask_text(text) == text


def test_a_parameter_pattern_finds_the_name_in_any_case() -> None:
    found = named_parameter("private_key").sub(
        lambda m: replace_value(m, lambda _: "[hidden]"), "Private_Key=abc; PRIVATE_KEY: 1x"
    )
    assert found == "Private_Key=[hidden]; PRIVATE_KEY: [hidden]"


def test_a_broken_escape_among_digits_is_shown_not_a_crash() -> None:
    # %C0%80 is not UTF-8: garbage from the network, shown as it came
    text = "ref 411111%C0%8011111111 end"
    assert mask_text(text) == text


def test_an_answer_masks_its_card_fields_and_keeps_its_ids() -> None:
    answer = [
        ("cvv2", "123"),
        ("credit_card_number", MISTYPED),
        ("gateway-order-id", "4111111111111111"),  # an id that passes the Luhn check
        ("error-message", f"order 4111111111111111 for card {MISTYPED} failed"),
    ]
    secrets = [("credit_card_number", MISTYPED)]
    assert mask_answer(answer, secrets) == [
        ("cvv2", CVV_MASK),
        ("credit_card_number", MISTYPED_SHOWN),
        ("gateway-order-id", "4111111111111111"),
        ("error-message", f"order 4111111111111111 for card {MISTYPED_SHOWN} failed"),
    ]


def test_a_card_number_typed_with_slashes_is_masked_when_echoed_encoded_twice() -> None:
    typed = "4111/1111/1111/1112"
    echoed = "back: 4111%252F1111%252F1111%252F1112."
    assert mask_text(echoed, [("credit_card_number", typed)]) == "back: 411111******1112."


def test_a_blank_card_number_leaves_the_answer_readable() -> None:
    text = "Invalid card data"
    assert mask_text(text, [("credit_card_number", "  ")]) == text


def test_a_card_number_an_answer_repeats_in_its_message_is_masked() -> None:
    answer = [("error-message", "card 4111111111111111"), ("serial-number", "s-1")]
    assert mask_answer(answer) == [
        ("error-message", "card 411111******1111"),
        ("serial-number", "s-1"),
    ]
