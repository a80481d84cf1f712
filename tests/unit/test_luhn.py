"""The console's one Luhn check agrees with python-stdnum's on every input tried."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from stdnum import luhn

from console.core.spec.formats import luhn_valid

CARDS = ("4444444444444448", "4111111111111111", "5555555555554444", "378282246310005")


@given(st.text(alphabet="0123456789", max_size=40))
def test_digit_runs_agree_with_python_stdnum(digits: str) -> None:
    assert luhn_valid(digits) == luhn.is_valid(digits)


@given(st.text(max_size=25))
def test_any_text_agrees_with_python_stdnum(text: str) -> None:
    # other scripts' digits, signs, spaces, the empty string: never a valid card number
    assert luhn_valid(text) == luhn.is_valid(text)


def test_test_cards_pass_and_one_changed_digit_fails() -> None:
    for card in CARDS:
        assert luhn_valid(card)
        for i, digit in enumerate(card):
            changed = card[:i] + str((int(digit) + 1) % 10) + card[i + 1 :]
            assert not luhn_valid(changed), changed
