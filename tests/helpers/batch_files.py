"""Batch files for tests: card payouts the local sandbox approves (CVV2 123), and payouts to
a bank account (no card data)."""

from __future__ import annotations

import csv
from pathlib import Path

PAN = "4444444444444448"
HEADER = (
    "client_orderid", "amount", "currency", "credit_card_number", "card_printed_name",
    "expire_month", "expire_year", "cvv2", "ipaddress",
)  # fmt: skip


ACCOUNT_HEADER = (
    "client_orderid", "amount", "currency", "order_desc", "ipaddress", "account_number",
    "account_name", "bank_name", "bank_bic", "receiver_first_name", "receiver_last_name",
    "receiver_email", "receiver_country_code",
)  # fmt: skip


def account_row(order_id: str, amount: str = "25.00") -> list[str]:
    """A payout to a bank account (write it with ``header=ACCOUNT_HEADER``)."""
    return [
        order_id, amount, "USD", "Payout", "203.0.113.10", "DE89370400440532013000",
        "John Smith", "Example Bank", "COBADEFFXXX", "John", "Smith", "john.smith@example.com",
        "GB",
    ]  # fmt: skip


def card_row(
    order_id: str, amount: str = "10.00", currency: str = "EUR", cvv2: str = "123"
) -> list[str]:
    return [order_id, amount, currency, PAN, "JOHN SMITH", "12", "2030", cvv2, "203.0.113.10"]


def write_csv(
    path: Path, rows: list[list[str]], sep: str = ",", header: tuple[str, ...] = HEADER
) -> Path:
    lines = [sep.join(header), *(sep.join(r) for r in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def card_file(path: Path, count: int, prefix: str = "b", *, cards: bool = False) -> Path:
    """``count`` valid card payouts with ids ``prefix-0`` ... (amounts 10.00, 11.00 ...);
    ``cards``: each to a card number of its own (valid, as in a real payroll file)."""
    rows = [card_row(f"{prefix}-{i}", f"{10 + i}.00") for i in range(count)]
    if cards:
        for i, row in enumerate(rows):
            row[3] = card_number(i)
    return write_csv(path, rows)


def card_number(n: int) -> str:
    """The ``n``-th of many valid 16-digit card numbers (its Luhn check digit added)."""
    body = f"4{n:014d}"
    total = 0
    for i, ch in enumerate(reversed(body)):  # the digits doubled are those at even places
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return body + str(-total % 10)


def results(path: Path) -> dict[str, dict[str, str]]:
    """A results CSV by client_orderid."""
    with path.open(encoding="utf-8") as fh:
        return {row["client_orderid"]: row for row in csv.DictReader(fh)}
