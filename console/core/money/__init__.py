"""Money facts, each read one way by every entrance (window forms, command line, batch files
of every kind, team inputs and thresholds, the schedule, totals): taken exactly, or refused
with a message naming the field, the value and the fix.

Public API:
    read_amount, amount_or_none, is_amount, amount_places, meant_amount, AMOUNT: amounts in
        the contract's writing, as exact Decimals.
    contract_amount, decimal_comma, thousands_reading: a local writing of an amount
        (``1.234,50``), whether it has a decimal comma, and the contract's writing of it.
    read_currency, currency_codes, minor_units: ISO 4217 codes; amount_text: an amount
        written exactly with at least its currency's decimals (totals, thresholds).
    card_number_digits, NUMBER_CELL_FIX, TEXT_NUMBER_FIELDS: card numbers, account numbers
        and ids, strings never numbers.
    MoneyFactError: what the readers raise.
"""

from __future__ import annotations

from .amount import AMOUNT, amount_or_none, amount_places, is_amount, meant_amount, read_amount
from .amount_writing import contract_amount, decimal_comma, thousands_reading
from .currency import amount_text, currency_codes, minor_units, read_currency
from .errors import MoneyFactError
from .numbers import NUMBER_CELL_FIX, TEXT_NUMBER_FIELDS, card_number_digits

__all__ = [
    "AMOUNT",
    "NUMBER_CELL_FIX",
    "TEXT_NUMBER_FIELDS",
    "MoneyFactError",
    "amount_or_none",
    "amount_places",
    "amount_text",
    "card_number_digits",
    "contract_amount",
    "currency_codes",
    "decimal_comma",
    "is_amount",
    "meant_amount",
    "minor_units",
    "read_amount",
    "read_currency",
    "thousands_reading",
]
