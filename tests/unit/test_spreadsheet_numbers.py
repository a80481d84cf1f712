"""A workbook's number is read as stored, whatever its format shows; the format's showing of
it is worked out as Excel and LibreOffice round (half away from zero, after scaling)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from console.core.batch.number_formats import shown_number
from console.core.batch.spreadsheet import cell_text, shown_otherwise

FORMATS = ["General", "0", "0.0", "0.00", "0.000", "#,##0", "#,##0.0", "#,##0.00", "00", "@"]
amounts = st.decimals(min_value=0, max_value=10**9, places=4, allow_nan=False).map(
    lambda d: float(d)
)


@settings(max_examples=300, deadline=None)
@given(amounts, st.sampled_from(FORMATS))
def test_the_text_read_is_the_stored_number_whatever_the_format(
    value: float, number_format: str
) -> None:
    assert Decimal(cell_text(value, number_format)) == Decimal(repr(value))


@settings(max_examples=300, deadline=None)
@given(amounts, st.integers(min_value=0, max_value=3), st.booleans())
def test_a_format_showing_fewer_decimals_than_stored_shows_another_value(
    value: float, places: int, grouped: bool
) -> None:
    number = Decimal(repr(value))
    number_format = ("#,##0" if grouped else "0") + ("." + "0" * places if places else "")
    rounded = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    found = shown_number(number, number_format)
    if rounded == number:
        assert found is None
    else:
        assert found is not None
        assert found[0] == rounded


@pytest.mark.parametrize(
    ("value", "number_format", "shown"),
    [
        (1234.56, "0.0", "1234.6"),
        (1234.56, "#,##0.0", "1234.6"),
        (10.04, "0.0", "10.0"),
        (1234.56, "#,##0", "1235"),
        (0.1234, "0.0%", "12.3%"),
        (1234567, "#,##0,", "1235000"),
        (1234.56, "[$€-407]#,##0.0;[RED]-#,##0.0", "1234.6"),
        (10.5, "0.00", None),
        (0.125, "0.0%", None),
        (1234.56, "General", None),
        (4444444444444448, "0", None),
    ],
)
def test_what_a_format_shows(value: float, number_format: str, shown: str | None) -> None:
    assert shown_otherwise(value, number_format) == shown
