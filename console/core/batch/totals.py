"""Count, sum and largest payout per currency of the rows a batch would send: exact sums of
the amounts as the core reads them (:mod:`console.core.money`), written with each
currency's decimals."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import MAX_PREC, Context, Decimal

from console.core.batch.source import Row
from console.core.money import amount_or_none, amount_text

# Sums of money are exact, however many digits they take (the default context keeps 28).
_EXACT = Context(prec=MAX_PREC)


@dataclass(slots=True)
class Total:
    """Count, sum and largest payout of one currency."""

    currency: str
    count: int = 0
    total: Decimal = Decimal(0)
    largest: Decimal = Decimal(0)
    largest_row: int = 0

    @property
    def total_text(self) -> str:
        """The total written exactly, with the currency's decimals (BHD 1000.005)."""
        return amount_text(self.total, self.currency)

    @property
    def largest_text(self) -> str:
        """The largest payout written exactly, with the currency's decimals."""
        return amount_text(self.largest, self.currency)

    def add(self, amount: Decimal, row: int) -> None:
        """Count ``row``'s payout; of equal largest payouts, the first in the file is named
        (whatever order rows are added in)."""
        self.count += 1
        self.total = _EXACT.add(self.total, amount)  # never rounded to 28 digits
        if (
            self.count == 1
            or amount > self.largest
            or (amount == self.largest and row < self.largest_row)
        ):
            self.largest, self.largest_row = amount, row


def count_row(totals: dict[str, Total], row: Row) -> None:
    """Add ``row``'s payout to its currency's total (a row without a readable amount adds
    nothing)."""
    values = row.values
    amount = amount_or_none(values.get("amount", ""))
    if amount is None:
        return
    currency = values.get("currency", "").strip().upper()
    total = totals.get(currency)
    if total is None:
        total = totals[currency] = Total(currency)
    total.add(amount, row.number)
