"""The history pane: every send journalled, search, filters, details, actions, paging."""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication

from console.core.history import History
from console.core.paths import resolve
from console.ui.forms.payout_form import PayoutForm
from console.ui.history.model import KEEP_ROWS, LOADING
from console.ui.main_window import MainWindow
from tests.helpers import history_data
from tests.ui.journal_helpers import (
    PAN,
    bulk_rows,
    dead_pid,
    pane_of,
    send_form,
    send_payout,
    shown_rows,
)


def _search(pane: Any, text: str) -> None:
    pane.filters.search.setText(text)
    pane.filters.apply_now()


def test_each_send_is_journalled_masked_and_shown(qtbot: Any, window: MainWindow) -> None:
    pane = pane_of(window)
    send_payout(qtbot, window, "hist-1")
    rows = shown_rows(qtbot, pane, 1)
    row = rows[0]
    assert (row.environment, row.command, row.client_orderid) == (
        "local-sandbox",
        "payout-check",
        "hist-1",
    )
    assert row.outcome_text == "accepted"
    assert row.receiver == "card 444444******4448"
    assert row.gateway_order_id
    assert pane.count_label.text() == "1 request"
    assert PAN not in resolve().history_db.read_bytes().decode("latin-1")


def test_search_by_id_and_last_four_and_filters(
    qtbot: Any, make_window: Callable[..., MainWindow], rsa_key: Any
) -> None:
    with History(resolve().history_db) as history:
        for i, (env, card) in enumerate(
            (
                ("acme-sb", "4444444444444448"),
                ("acme-sb", "5555555555554444"),
                ("other", "4111111111111111"),
            )
        ):
            req = history_data.prepared(
                rsa_key, client_orderid=f"find-{i}", credit_card_number=card
            )
            row_id = history.begin(env, req, window=60)
            answer = (
                f"type=async-response&serial-number=sn-{i}&merchant-order-id=find-{i}"
                f"&gateway-order-id={7000 + i}"
            )
            history.finish(row_id, history_data.answered(req, answer))
        card_ref = history_data.prepared(
            rsa_key, "create-card-ref", client_orderid="first-1", orderid="9001"
        )
        history.finish(history.begin("acme-sb", card_ref, window=60), history_data.lost(card_ref))
    window = make_window()
    pane = pane_of(window)
    assert len(shown_rows(qtbot, pane, 4)) == 4

    _search(pane, "find-1")
    assert [r.client_orderid for r in shown_rows(qtbot, pane, 1)] == ["find-1"]
    _search(pane, "7002")  # gateway order id
    assert [r.client_orderid for r in shown_rows(qtbot, pane, 1)] == ["find-2"]
    _search(pane, "4444")  # last four of the Mastercard
    assert [r.client_orderid for r in shown_rows(qtbot, pane, 1)] == ["find-1"]
    _search(pane, "002")  # the last digits of a gateway order id
    assert [r.client_orderid for r in shown_rows(qtbot, pane, 1)] == ["find-2"]
    _search(pane, "nd-")  # a part of a client_orderid
    assert len(shown_rows(qtbot, pane, 3)) == 3
    _search(pane, "")
    shown_rows(qtbot, pane, 4)

    env = pane.filters.environment
    qtbot.waitUntil(lambda: env.findData("other") >= 0)
    env.setCurrentIndex(env.findData("other"))
    assert [r.client_orderid for r in shown_rows(qtbot, pane, 1)] == ["find-2"]
    env.setCurrentIndex(0)
    cmd = pane.filters.command
    cmd.setCurrentIndex(cmd.findData("create-card-ref"))
    rows = shown_rows(qtbot, pane, 1)
    assert rows[0].outcome_text == "outcome unknown"
    cmd.setCurrentIndex(0)
    outcome = pane.filters.outcome
    outcome.setCurrentIndex(outcome.findData("accepted"))
    assert len(shown_rows(qtbot, pane, 3)) == 3
    pane.filters.dates.setCurrentIndex(pane.filters.dates.findData("between"))
    pane.filters.since.setDate(pane.filters.since.date().addYears(-5))
    pane.filters.until.setDate(pane.filters.since.date())  # a day five years ago: nothing
    shown_rows(qtbot, pane, 0)
    pane.filters.dates.setCurrentIndex(pane.filters.dates.findData("today"))
    assert len(shown_rows(qtbot, pane, 3)) == 3


def test_details_show_the_masked_request_and_the_answer(qtbot: Any, window: MainWindow) -> None:
    pane = pane_of(window)
    send_payout(qtbot, window, "detail-1")
    shown_rows(qtbot, pane, 1)
    pane.select_position(0)
    qtbot.waitUntil(lambda: pane.details.detail is not None, timeout=5000)
    details = pane.details
    params = {
        details.params.item(r, 0).text(): details.params.item(r, 1).text()
        for r in range(details.params.rowCount())
    }
    assert params["credit_card_number"] == "444444******4448"
    assert params["client_orderid"] == "detail-1"
    assert "cvv2" not in params or params["cvv2"] != "123"
    fields = {details.fields.item(r, 0).text() for r in range(details.fields.rowCount())}
    assert {"type", "gateway-order-id", "merchant-order-id"} <= fields
    assert "HTTP 200" in details.answer_note.text()
    assert PAN not in details.base_string.value()


def test_use_card_reference_in_payout_and_repeat_as_new(qtbot: Any, window: MainWindow) -> None:
    pane = pane_of(window)
    window.show_command("create-card-ref")
    window.form.load({"client_orderid": "first-payment-1", "orderid": "9000001"}, clear=True)
    outcome = send_form(qtbot, window)
    rpi = outcome.response.get("recurring-payment-id")
    assert rpi
    send_payout(qtbot, window, "to-repeat-1")
    shown_rows(qtbot, pane, 2)

    pane.select_position(1)  # the card reference (older)
    assert pane.actions_by_name["use"].isEnabled()
    window.show_command("create-card-ref")
    pane.actions_by_name["use"].trigger()
    assert window.command == "payout-check"
    form = window.form
    assert isinstance(form, PayoutForm)
    assert form.receiver.key() == "card-ref"
    assert form.values()["card_recurring_payment_id"] == rpi

    pane.select_position(0)  # the payout: no RPI to use, but it can be repeated
    assert not pane.actions_by_name["use"].isEnabled()
    window.show_command("create-card-ref")
    pane.actions_by_name["repeat"].trigger()
    qtbot.waitUntil(lambda: window.command == "payout-check", timeout=5000)
    values = window.form.values()
    assert values["client_orderid"] not in ("to-repeat-1", "")
    assert values["amount"] == "10.50"
    assert "credit_card_number" not in values  # masked in the journal: typed again
    assert "cvv2" not in values
    assert "type them again" in window.panel.result.text()


def test_copy_ids_and_export_selection(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    pane = pane_of(window)
    send_payout(qtbot, window, "exp-1")
    send_payout(qtbot, window, "exp-2")
    rows = shown_rows(qtbot, pane, 2)
    pane.table.selectAll()
    text = pane.copy_ids()
    assert QApplication.clipboard().text() == text
    assert "client order id: exp-1" in text
    assert "client order id: exp-2" in text
    assert f"gateway order id: {rows[0].gateway_order_id}" in text

    pane.select_position(1)
    pane.export_selection(tmp_path / "one.csv")
    qtbot.waitUntil(lambda: (tmp_path / "one.csv").exists(), timeout=5000)
    with (tmp_path / "one.csv").open(encoding="utf-8") as fh:
        exported = list(csv.DictReader(fh))
    assert [r["client_orderid"] for r in exported] == ["exp-1"]
    pane.table.selectAll()
    pane.export_selection(tmp_path / "all.json")
    qtbot.waitUntil(lambda: "Exported 2" in pane.message.text(), timeout=5000)
    data = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert sorted(r["client_orderid"] for r in data["rows"]) == ["exp-1", "exp-2"]
    assert PAN not in (tmp_path / "all.json").read_text(encoding="utf-8")


def test_row_left_pending_by_a_crash_shows_outcome_unknown(
    qtbot: Any, make_window: Callable[..., MainWindow], rsa_key: Any
) -> None:
    db_path = resolve().history_db
    with History(db_path) as history:
        req = history_data.prepared(rsa_key, client_orderid="crashed-1")
        row_id = history.begin("acme-sb", req, window=60)
    with sqlite3.connect(db_path) as db:  # as if the console writing it had been killed
        db.execute("UPDATE requests SET writer_pid = ? WHERE id = ?", (dead_pid(), row_id))
    window = make_window()
    pane = pane_of(window)
    row = shown_rows(qtbot, pane, 1)[0]
    assert row.outcome_text == "outcome unknown"
    assert pane.model.data(pane.model.index(0, 6)) == "outcome unknown"
    pane.select_position(0)
    assert pane.actions_by_name["status"].isEnabled()  # the way to learn what happened


def test_hundred_thousand_rows_are_paged_lazily(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    History(resolve().history_db).close()
    bulk_rows(resolve().history_db, 100_000)
    window = make_window()
    pane = pane_of(window)
    model = pane.model
    qtbot.waitUntil(lambda: model.rowCount() == 100_000, timeout=10_000)
    assert pane.count_label.text() == "100,000 requests"
    # far rows are not read until they are shown; then they arrive
    assert model.row_at(99_999) is None
    assert model.data(model.index(99_999, 3)) == LOADING
    qtbot.waitUntil(lambda: model.row_at(99_999) is not None, timeout=10_000)
    assert model.row_at(99_999).client_orderid == "bulk-000000"  # the oldest is last
    pane.table.scrollToBottom()
    for position in range(50_000, 60_000, 200):  # a long scroll keeps memory bounded
        model.data(model.index(position, 0))
    qtbot.waitUntil(lambda: not model._wanted, timeout=20_000)
    assert len(model._rows) <= KEEP_ROWS + 200
