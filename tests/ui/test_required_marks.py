"""A field the chosen receiver or amount rule needs carries the * of a required field."""

from __future__ import annotations

from console.ui.main_window import MainWindow


def _starred(window: MainWindow, name: str) -> bool:
    return window.form.rows[name].label.text().endswith(" *")


def test_the_chosen_amount_rule_marks_its_fields_required(window: MainWindow) -> None:
    window.show_command("create-recurring-payment")
    window.form.load({"@amount-rule": "fixed"})
    assert _starred(window, "amount")
    window.form.load({"@amount-rule": "range"})
    assert _starred(window, "amount-from")
    assert _starred(window, "amount-to")


def test_the_chosen_receiver_marks_its_fields_required(window: MainWindow) -> None:
    window.show_command("payout-check")
    window.form.load({"@receiver": "card"})
    for name in ("credit_card_number", "card_printed_name", "expire_month", "expire_year"):
        assert _starred(window, name), name
    window.form.load({"@receiver": "bank"})
    assert _starred(window, "account_number")
    assert not _starred(window, "bank_name")  # the gateway decides the rest
