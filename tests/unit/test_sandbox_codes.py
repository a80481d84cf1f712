"""The error-code table is complete and unambiguous."""

from __future__ import annotations

from console.core.spec import PROBLEM_CODES
from console.sandbox import codes


def test_every_validation_problem_has_its_own_number() -> None:
    missing = [c for c in PROBLEM_CODES if c not in codes.VALIDATION_CODES]
    assert missing == [], "add these problem codes to console/sandbox/codes.py"


def test_numbers_are_unique_and_grouped() -> None:
    numbers = list(codes.VALIDATION_CODES.values())
    assert len(numbers) == len(set(numbers))
    assert all(100 < n < 200 for n in numbers)
    errors = [v for k, v in vars(codes).items() if k.isupper() and isinstance(v, int)]
    assert len(errors) == len(set(errors))


def test_unknown_problem_codes_get_the_catch_all_number() -> None:
    assert codes.validation_code("something-new") == codes.OTHER_VALIDATION == 199
    assert codes.validation_code("required") == 101
