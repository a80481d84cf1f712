"""Searching, filtering, paging and exporting the journal, as the pane and the CLI do."""

from __future__ import annotations

import csv
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history import History, HistoryFilter, export
from console.core.history.query import last_four
from tests.helpers.history_data import answered, env_base_url, env_gateway, lost, prepared


@pytest.fixture
def journal(rsa_key: rsa.RSAPrivateKey) -> History:
    """Six requests in two environments, oldest first."""
    history = History()
    sb, live = history.journal("acme-sb"), history.journal("acme-live")
    plan = [
        (sb, "payout-check", {"client_orderid": "po-1", "credit_card_number": "4444444444444448"},
         "type=async-response&serial-number=sn-1&gateway-order-id=1001"),
        (sb, "payout-check", {"client_orderid": "po-2", "credit_card_number": "5555555555554444"},
         "type=validation-error&serial-number=sn-2&error-message=bad&error-code=1"),
        (live, "payout-check", {"client_orderid": "po-3", "credit_card_number": "4111111111111111"},
         None),
        (sb, "create-card-ref", {"client_orderid": "first-9", "orderid": "1001"},
         "type=create-card-ref-response&status=approved&card-ref-id=cr-5&recurring-payment-id=77"),
        (live, "create-recurring-payment", {"client__orderid": "sub-1"},
         "type=create-recurring-payment-response&status=approved&recurring-payment-id=88"),
        (sb, "payout-check", {"client_orderid": "po-10", "credit_card_number": "4444333322221111"},
         "type=async-response&serial-number=sn-10&gateway-order-id=1010"),
    ]  # fmt: skip
    for hooks, command, values, body in plan:
        req = prepared(rsa_key, command, base_url=env_base_url(hooks.environment), **values)
        row_id = hooks.before_send(req)
        hooks.after_answer(row_id, answered(req, body) if body else lost(req))
        time.sleep(0.002)  # distinct times, newest last
    return history


def _ids(history: History, f: HistoryFilter) -> list[str | None]:
    rows = history.fetch(f)
    assert history.count(f) == len(rows)
    return [r.client_orderid for r in rows]


def test_newest_first_with_lazy_pages(journal: History) -> None:
    assert journal.count() == 6
    first = journal.fetch(offset=0, limit=4)
    second = journal.fetch(offset=4, limit=4)
    assert [r.client_orderid for r in first + second] == [
        "po-10", "sub-1", "first-9", "po-3", "po-2", "po-1"
    ]  # fmt: skip
    assert journal.fetch_after(None, first[-1], 4) == second
    assert [r.client_orderid for r in journal.iter_rows(batch=2)][-1] == "po-1"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("po-1", ["po-1"]),  # an id
        ("po-1*", ["po-10", "po-1"]),  # the start of one
        ("po-10", ["po-10"]),
        ("po-", ["po-10", "po-3", "po-2", "po-1"]),  # no whole id: the ids containing it
        ("o-1", ["po-10", "po-1"]),  # a part of a client_orderid
        ("001", ["first-9", "po-1"]),  # the last digits of a gateway order id
        ("-9", []),  # too short a part: every row would match
        ("sn-2", ["po-2"]),  # serial number
        ("1001", ["first-9", "po-1"]),  # gateway order id (and the order a card ref names)
        ("cr-5", ["first-9"]),  # card reference id
        ("88", ["sub-1"]),  # recurring payment id
        ("4448", ["sub-1", "po-1"]),  # last four digits (the recurring profile's card too)
        ("1111", ["po-10", "po-3"]),
        ("444444******4448", ["sub-1", "po-1"]),  # a masked card number as shown in the pane
        ("nothing-like-this", []),
    ],
)
def test_search_by_any_id_or_last_four(journal: History, text: str, expected: list[str]) -> None:
    assert _ids(journal, HistoryFilter(search=text)) == expected


def test_filters(journal: History) -> None:
    live = HistoryFilter(environments=frozenset({"acme-live"}))
    assert _ids(journal, live) == ["sub-1", "po-3"]
    payouts = HistoryFilter(commands=frozenset({"payout-check"}))
    assert _ids(journal, payouts) == ["po-10", "po-3", "po-2", "po-1"]
    unknown = HistoryFilter(outcomes=frozenset({"unknown"}))
    assert _ids(journal, unknown) == ["po-3"]
    both = HistoryFilter(commands=frozenset({"payout-check"}), search="4448")
    assert _ids(journal, both) == ["po-1"]
    rows = journal.fetch()
    window = HistoryFilter(since=rows[3].created, until=rows[1].created)
    assert _ids(journal, window) == ["first-9", "po-3"]
    future = HistoryFilter(since=datetime.now(UTC) + timedelta(days=1))
    assert _ids(journal, future) == []


def test_values_for_filter_menus(journal: History) -> None:
    assert journal.distinct("environment") == ["acme-live", "acme-sb"]
    assert journal.distinct("outcome") == ["accepted", "rejected", "unknown"]
    with pytest.raises(ValueError, match="filter column"):
        journal.distinct("summary; drop table requests")


def test_last_four_reading() -> None:
    assert last_four("4448") == "4448"
    assert last_four(" 4444 4444 4444 4448 ") == "4448"
    assert last_four("444444******4448") == "4448"
    assert last_four("po-1") is None
    assert last_four("44481") is None


def test_export_selection_to_csv(journal: History, tmp_path: Path) -> None:
    rows = journal.fetch(HistoryFilter(search="po-1*"))
    out = tmp_path / "selection.csv"
    assert export(journal, out, ids=[r.id for r in rows]) == 2
    with out.open(encoding="utf-8", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert [r["client_orderid"] for r in table] == ["po-10", "po-1"]
    assert table[1]["receiver"] == "card 444444******4448"
    assert table[1]["outcome_text"] == "accepted"
    assert "4444444444444448" not in out.read_text(encoding="utf-8")


def test_export_by_filter_and_refuses_unknown_formats(journal: History, tmp_path: Path) -> None:
    f = HistoryFilter(environments=frozenset({"acme-live"}))
    assert export(journal, tmp_path / "live.json", filter=f) == 2
    with pytest.raises(ValueError, match=r"\.csv or \.json"):
        export(journal, tmp_path / "live.xlsx")
    assert not (tmp_path / "live.xlsx").exists()


def test_csv_cells_never_start_a_formula(rsa_key: rsa.RSAPrivateKey, tmp_path: Path) -> None:
    history = History()
    hooks = history.journal("sb")
    req = prepared(rsa_key, client_orderid="=HYPERLINK(1)")
    hooks.after_answer(hooks.before_send(req), lost(req))
    out = tmp_path / "x.csv"
    export(history, out)
    with out.open(encoding="utf-8", newline="") as fh:
        row = next(csv.DictReader(fh))
    assert row["client_orderid"] == "'=HYPERLINK(1)"


def test_broad_searches_page_the_same_way(
    journal: History, monkeypatch: pytest.MonkeyPatch
) -> None:
    narrow = {text: journal.fetch(HistoryFilter(search=text)) for text in ("po*", "1*", "4448*")}
    assert [len(rows) for rows in narrow.values()] == [4, 3, 2]
    monkeypatch.setattr("console.core.history.reading._DENSE_AT", 0)  # every search counts as broad
    journal._counts.clear()
    for text, rows in narrow.items():
        assert journal.fetch(HistoryFilter(search=text)) == rows
        assert journal.fetch(HistoryFilter(search=text), 1, 2) == rows[1:3]


def test_counts_follow_writes_from_elsewhere(journal: History, rsa_key: rsa.RSAPrivateKey) -> None:
    assert journal.count() == 6
    with History() as other:  # another process (or connection) writes
        other.journal("acme-sb").before_send(prepared(rsa_key, client_orderid="po-99"))
    assert journal.count() == 7
    assert journal.count(HistoryFilter(search="po-99")) == 1


def test_sent_before_finds_one_order_id_in_one_environment_and_command(
    journal: History, rsa_key: rsa.RSAPrivateKey
) -> None:
    assert [
        r.outcome
        for r in journal.sent_before(env_gateway("acme-sb", "payout-check"), "payout-check", "po-1")
    ] == ["accepted"]
    assert (
        journal.sent_before(env_gateway("acme-sb", "payout-check"), "payout-check", " po-1 ")[
            0
        ].gateway_order_id
        == "1001"
    )
    # the same id elsewhere, or under another command, is another order
    assert (
        journal.sent_before(env_gateway("acme-live", "payout-check"), "payout-check", "po-1") == []
    )
    assert (
        journal.sent_before(env_gateway("acme-sb", "create-card-ref"), "create-card-ref", "po-1")
        == []
    )
    assert (
        journal.sent_before(env_gateway("acme-sb", "payout-check"), "payout-check", "po-") == []
    )  # exact, not a prefix
    assert (
        journal.sent_before(env_gateway("acme-live", "payout-check"), "payout-check", "po-3")[
            0
        ].outcome
        == "unknown"
    )
    # the recurring command spells it client-orderid; the journal keeps one column
    profile = journal.sent_before(
        env_gateway("acme-live", "create-recurring-payment"), "create-recurring-payment", "sub-1"
    )
    assert [r.client_orderid for r in profile] == ["sub-1"]
    # a resend adds a row; the newest comes first
    hooks = journal.journal("acme-sb")
    req = prepared(rsa_key, base_url=env_base_url("acme-sb"), client_orderid="po-2")
    row_id = hooks.before_send(req)
    rows = journal.sent_before(env_gateway("acme-sb", "payout-check"), "payout-check", "po-2")
    assert [r.outcome for r in rows] == ["pending", "rejected"]
    assert rows[0].id == row_id


def test_sent_before_uses_the_client_orderid_index(journal: History) -> None:
    from console.core.history.reading import _SENT_BEFORE_SQL

    with journal.reading() as db:
        plan = db.execute(
            f"EXPLAIN QUERY PLAN {_SENT_BEFORE_SQL}", ("po-1", "payout-check", "gw", "acme-sb")
        )
        details = " ".join(str(row[-1]) for row in plan)
    assert "ix_requests_client_orderid" in details
