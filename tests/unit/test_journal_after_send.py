"""The SQLite journal after the send: the final status an order shows (a settled one is never
undone by a status that says the order is still undecided), when a status look-up learnt it,
sends of stopped consoles taken for interrupted (from what moment, and who is told), the
disk syncs a send costs (its pending row on disk before the request leaves), a row's time
as the pane reads and filters it, and the order look-up of the callbacks."""

from __future__ import annotations

import os
import sqlite3
import time
from datetime import UTC, datetime, timedelta

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history import History, HistoryFilter
from console.core.history.interrupted import INTERRUPTED_SUMMARY
from console.core.spec.status import FINAL_STATUSES, IN_PROGRESS_STATUSES
from console.core.transport import RawResponse
from tests.helpers.history_data import answered, lost, prepared
from tests.helpers.pipeline import journalled_send

ACCEPTED = "type=async-response&serial-number=s-1&gateway-order-id=777"
FORM = {"Content-Type": "text/html;charset=utf-8"}


def _payout(history: History, key: rsa.RSAPrivateKey, answer: str | None = ACCEPTED) -> int:
    """One payout of order p-1 in environment sb, answered with ``answer`` (None: lost)."""
    hooks = history.journal("sb")
    req = prepared(key, client_orderid="p-1")
    row_id = hooks.before_send(req)
    hooks.after_answer(row_id, answered(req, answer) if answer else lost(req))
    return row_id


def _heard(history: History) -> list[tuple[str, int]]:
    heard: list[tuple[str, int]] = []
    history.subscribe(lambda event, row_id: heard.append((event, row_id)))
    return heard


# -- the final status an order shows ---------------------------------------------------------


@pytest.mark.parametrize("waiting", sorted(IN_PROGRESS_STATUSES))
@pytest.mark.parametrize("settled", [*sorted(FINAL_STATUSES), "chargeback"])
def test_a_settled_order_keeps_its_status_when_a_later_answer_says_undecided(
    rsa_key: rsa.RSAPrivateKey, settled: str, waiting: str
) -> None:
    """A status answer overtaken by the callback says "processing" too late: the history
    keeps showing the order as settled (and the double-payout guard reads it so)."""
    with History() as history:
        row_id = _payout(history, rsa_key)
        assert history.set_final_status("sb", "p-1", settled, orderid="777", source="callback")
        heard = _heard(history)
        assert history.set_final_status("sb", "p-1", waiting, source="status") == []
        row = history.get(row_id)
        assert (row.final_status, row.final_status_source) == (settled, "callback")
        assert heard == []  # nothing changed: the pane is not told of a change


def test_an_undecided_order_shows_its_latest_word_on_every_send_of_it(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        first = _payout(history, rsa_key, answer=None)  # its answer never came: resent
        again = _payout(history, rsa_key)
        heard = _heard(history)
        for status, source in [
            ("unknown", "status"),
            ("processing", "status"),  # not decided yet replaces not decided yet
            ("approved", "callback"),
            ("declined", "status"),  # a later final word (a reversal) is the latest word
        ]:
            changed = history.set_final_status("sb", "p-1", status, orderid="777", source=source)
            assert sorted(changed) == [first, again], status
            rows = [history.get(row_id) for row_id in (first, again)]
            assert {(r.final_status, r.final_status_source) for r in rows} == {(status, source)}
            assert sorted(heard) == [("changed", first), ("changed", again)], status
            heard.clear()


def test_a_status_look_up_tells_when_it_learnt_the_final_status(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        hooks = history.journal("sb")
        plain = _payout(history, rsa_key)
        check = prepared(rsa_key, "status", client_orderid="p-1", orderid="777")
        row_id = hooks.before_send(check)
        before = datetime.now(UTC)
        hooks.after_answer(row_id, answered(check, "type=status-response&status=approved"))
        after = datetime.now(UTC)
        row = history.get(row_id)
        assert (row.final_status, row.final_status_source) == ("approved", "status")
        assert row.final_status_at is not None
        slack = timedelta(milliseconds=1)  # the stored time is rounded to the microsecond
        assert before - slack <= row.final_status_at <= after + slack
        assert history.get(plain).final_status_at is None  # a payout's answer learns none


# -- sends of stopped consoles ---------------------------------------------------------------


def test_a_send_of_a_stopped_console_is_taken_for_interrupted_and_the_pane_is_told(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as sending, History() as other:
        row_id = sending.begin("sb", prepared(rsa_key, client_orderid="p-1"), window=60.0)
        with sending.writing() as db:  # its console is gone (killed mid-send)
            db.execute("UPDATE requests SET writer_pid = 0 WHERE id = ?", (row_id,))
        heard = _heard(other)
        assert other.recover_interrupted() == [row_id]
        assert heard == [("changed", row_id)]
        row = other.get(row_id)
        assert (row.outcome_text, row.interrupted, row.summary) == (
            "outcome unknown",
            True,
            INTERRUPTED_SUMMARY,
        )
        assert other.interrupted_count() == 1
        assert other.recover_interrupted() == []  # taken once


def test_a_send_counts_as_on_its_way_until_its_deadline_has_passed(
    rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its console still runs: another console leaves it pending up to its deadline, and
    takes it for interrupted only after."""
    now = 1_700_000_000.5
    monkeypatch.setattr(time, "time", lambda: now)
    with History() as sending, History() as other:
        row_id = sending.begin("sb", prepared(rsa_key), window=30.0)
        now += 30.0  # the deadline itself
        assert other.recover_interrupted() == []
        assert other.get(row_id).outcome == "pending"
        now += 0.000_001
        assert other.recover_interrupted() == [row_id]


# -- the disk syncs a send costs -------------------------------------------------------------


class _Gateway:
    """A transport that looks at the journal as the request leaves: the syncs made by then,
    and the rows another console (a second connection) sees."""

    def __init__(self, history: History, syncs: list[str]) -> None:
        self.history = history
        self.syncs = syncs
        self.seen: list[tuple[list[str], list[tuple[int, str]]]] = []

    def post(self, url: str, *, headers: object, body: bytes) -> RawResponse:
        with sqlite3.connect(self.history.path) as other:
            rows = other.execute("SELECT id, outcome FROM requests ORDER BY id").fetchall()
        self.seen.append((list(self.syncs), rows))
        raw = "".join(f"{line}\n&" for line in ACCEPTED.split("&")).rstrip("&").encode()
        return RawResponse(200, FORM, raw, 0.01)


@pytest.fixture
def syncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each file sync asked of the system in this process: "data" (fdatasync: the file's
    data, as SQLite syncs it) or "all" (fsync: its times as well, a second disk write)."""
    made: list[str] = []
    real = os.fsync

    def data(fd: int) -> None:
        made.append("data")
        real(fd)

    def everything(fd: int) -> None:
        made.append("all")
        real(fd)

    monkeypatch.setattr(os, "fdatasync", data, raising=False)
    monkeypatch.setattr(os, "fsync", everything)
    return made


def test_a_send_costs_one_sync_made_before_the_request_leaves(
    rsa_key: rsa.RSAPrivateKey, syncs: list[str]
) -> None:
    """The pending row is on disk before the request leaves (a power cut then still shows
    the send); its answer is not synced on its own but with the next send's row, or when
    the journal closes: one disk sync per send, so a batch is not held up by two."""
    history = History()
    gateway = _Gateway(history, syncs)
    for order in ("p-1", "p-2"):
        journalled_send(history, "sb", prepared(rsa_key, client_orderid=order), gateway)
    assert gateway.seen == [
        (["data"], [(1, "pending")]),
        (["data", "data"], [(1, "accepted"), (2, "pending")]),
    ]
    assert syncs == ["data", "data"]  # the second answer is in the log, not yet synced
    history.close()
    assert syncs == ["data", "data", "data"]


def test_where_the_system_has_no_data_sync_the_journal_syncs_the_whole_file(
    rsa_key: rsa.RSAPrivateKey, syncs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(os, "fdatasync")  # as on Windows and macOS
    with History() as history:
        history.journal("sb").before_send(prepared(rsa_key))
        assert syncs == ["all"]


# -- a row's time, as the pane reads and filters it ------------------------------------------


def test_a_rows_time_is_kept_to_the_microsecond_the_pane_shows_and_filters_by(
    rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A time finer than a microsecond would be kept apart from the time the pane shows:
    filtering from a row's own time would then leave the row out."""
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.123_456_7)
    with History() as history:
        row_id = history.journal("sb").before_send(prepared(rsa_key))
        row = history.get(row_id)
        shown = datetime(2023, 11, 14, 22, 13, 20, 123_457, UTC)
        assert row.created == shown
        assert [r.id for r in history.fetch(HistoryFilter(since=row.created))] == [row_id]
        assert history.fetch(HistoryFilter(until=row.created)) == []


# -- the order look-up of the callbacks ------------------------------------------------------


def test_the_order_look_up_takes_an_order_column_only(rsa_key: rsa.RSAPrivateKey) -> None:
    with History() as history:
        row_id = _payout(history, rsa_key)
        assert history.order_row("sb", "client_orderid", "p-1") == (row_id, "p-1", "777")
        assert history.order_row("sb", "gateway_order_id", "777") == (row_id, "p-1", "777")
        with pytest.raises(ValueError) as refused:
            history.order_row("sb", "summary", "x")
    assert str(refused.value) == "Not an order column: summary"
