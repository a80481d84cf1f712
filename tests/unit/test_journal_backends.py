"""The journal's contract, run against both implementations: the embedded SQLite journal
(one person) and the team's PostgreSQL journal. What the pipeline, the history pane and the
command line do with the history works the same on both."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import keys, paths
from console.core.history import CallbackEvent, CheckResult, History, HistoryFilter
from console.core.history.interrupted import INTERRUPTED_SUMMARY
from console.core.pipeline import Decision, Refusal, RefusedError
from console.core.pipeline.guard import Seen
from tests.helpers.history_data import (
    BASE_URL,
    answered,
    env_base_url,
    env_gateway,
    lost,
    prepared,
)
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, PAN, accepted, pipeline, prepared_payout, register_policy

# the gateways env_base_url names, besides the default BASE_URL
_GATEWAYS = ("acme-sb", "acme-live", "gw", "sb", "live")


@dataclass
class Backend:
    """One journal implementation: how to open another console on the same journal and
    read what it stores (to look for card data)."""

    name: str
    team_db: TeamDatabase | None = None

    def __post_init__(self) -> None:
        """The team registers the gateways these tests send to (no approval needed)."""
        if self.team_db is None:
            return
        from console.core.team import TeamJournal

        where = {"gateway": BASE_URL} | {env: env_base_url(env) for env in _GATEWAYS}
        with TeamJournal(self.team_db.dsn("root_admin")) as admin:
            for name, url in where.items():
                register_policy(admin, name, "none", base_url=url, login="acme",
                                endpoint_id="1234")  # fmt: skip

    def open(self, person: str = "alice") -> Any:
        """Another console on the same journal (another process, or another team member)."""
        if self.team_db is None:
            return History()
        from console.core.team import TeamJournal

        return TeamJournal(self.team_db.dsn(person))

    def child_args(self) -> list[str]:
        """What a child process needs to open the same journal."""
        return [] if self.team_db is None else [self.team_db.dsn("alice")]

    def stored(self) -> str:
        """Everything the journal holds, as text (masked data only, we hope)."""
        if self.team_db is None:
            db = paths.resolve().history_db
            files = (db, db.with_name(db.name + "-wal"))
            return b"".join(p.read_bytes() for p in files if p.exists()).decode("latin-1")
        from console.core.team import connect

        with connect(self.team_db.dsn()) as owner:
            return "\n".join(
                str(row[0])
                for table in ("requests", "request_details", "submissions", "audit")
                for row in owner.execute(f"SELECT t::text FROM gateway.{table} t").fetchall()
            )


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite")
    return Backend("postgresql", request.getfixturevalue("team_db"))


@pytest.fixture
def journal(backend: Backend) -> Iterator[Any]:
    with backend.open() as opened:
        yield opened


def _write(journal: Any, key: rsa.RSAPrivateKey, env: str, command: str, body: str | None,
           **values: str) -> int:  # fmt: skip
    """Journal one send the way the client does: pending row, then the answer (or a lost
    one when ``body`` is None)."""
    hooks = journal.journal(env)
    req = prepared(key, command, base_url=env_base_url(env), **values)
    row_id = hooks.before_send(req)
    hooks.after_answer(row_id, answered(req, body) if body else lost(req))
    time.sleep(0.002)  # distinct times, newest last
    return int(row_id)


# Six requests in two environments, oldest first (the history pane's tests use the same).
_PLAN = [
    ("acme-sb", "payout-check",
     {"client_orderid": "po-1", "credit_card_number": "4444444444444448"},
     "type=async-response&serial-number=sn-1&gateway-order-id=1001"),
    ("acme-sb", "payout-check",
     {"client_orderid": "po-2", "credit_card_number": "5555555555554444"},
     "type=validation-error&serial-number=sn-2&error-message=bad&error-code=1"),
    ("acme-live", "payout-check",
     {"client_orderid": "po-3", "credit_card_number": "4111111111111111"}, None),
    ("acme-sb", "create-card-ref", {"client_orderid": "first-9", "orderid": "1001"},
     "type=create-card-ref-response&status=approved&card-ref-id=cr-5&recurring-payment-id=77"),
    ("acme-live", "create-recurring-payment", {"client__orderid": "sub-1"},
     "type=create-recurring-payment-response&status=approved&recurring-payment-id=88"),
    ("acme-sb", "payout-check",
     {"client_orderid": "po-10", "credit_card_number": "4444333322221111"},
     "type=async-response&serial-number=sn-10&gateway-order-id=1010"),
]  # fmt: skip


@pytest.fixture
def seeded(journal: Any, rsa_key: rsa.RSAPrivateKey) -> Any:
    for env, command, values, body in _PLAN:
        _write(journal, rsa_key, env, command, body, **values)
    return journal


def _ids(journal: Any, f: HistoryFilter) -> list[str | None]:
    rows = journal.fetch(f)
    assert journal.count(f) == len(rows), f
    assert list(journal.iter_rows(f, batch=2)) == rows, f
    return [r.client_orderid for r in rows]


def _callback(env: str, status: str, orderid: str | None, client_orderid: str | None) -> Any:
    return CallbackEvent(
        id=0, received=datetime.now(UTC), environment=env, method="GET", remote="127.0.0.1",
        params=(("status", status),), status=status, type="payout", orderid=orderid,
        client_orderid=client_orderid, check=CheckResult.OK, duplicate_of=None, request_id=None,
    )  # fmt: skip


def _record_callback(journal: Any, event: CallbackEvent) -> CallbackEvent:
    """As the callback listener does: recorded in this console's own journal, applied to the
    journal holding the sends (the same one, or in team mode the shared one)."""
    if isinstance(journal, History):
        return journal.record_callback(event)
    with History() as own:
        return own.record_callback(event, orders=journal)


def _until(predicate: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def _send(journal: Any, url: str, key: rsa.RSAPrivateKey, order: str, *, card: bool = False) -> str:
    prepared = prepared_payout(url, key, order=order, card=card)
    sent = pipeline(journal, "gw", production=False).send(prepared, Decision())
    return str(sent.result)


def test_a_send_is_journalled_pending_first_then_answered(
    journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    seen: list[str] = []

    def gateway(_r: object) -> Reply:
        seen.extend(row.outcome for row in journal.fetch())
        return Reply(200, accepted("o-1"), FORM)

    with serve(gateway) as server:
        assert _send(journal, server.url, rsa_key, "o-1", card=True) == "accepted"
    assert seen == ["pending"]
    row = journal.fetch()[0]
    assert (row.outcome, row.client_orderid, row.gateway_order_id) == ("accepted", "o-1", "9001")
    assert row.receiver == "card 444444******4448"
    details = journal.details(row.id)
    assert PAN not in str(details.request)
    assert PAN not in str(details.response)


def test_the_guard_sees_an_accepted_order_id_and_searches_find_it(
    journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        for n in range(3):
            _send(journal, server.url, rsa_key, f"o-{n}", card=True)
        with pytest.raises(RefusedError) as refused:
            _send(journal, server.url, rsa_key, "o-1", card=True)
        assert refused.value.code == Refusal.ACCEPTED_BEFORE
        assert len(server.received) == 3
    assert journal.count() == 3
    assert [r.client_orderid for r in journal.fetch(HistoryFilter(search="o-1"))] == ["o-1"]
    assert journal.count(HistoryFilter(search="4448")) == 3
    assert journal.count(HistoryFilter(search="o-*")) == 3
    first = journal.fetch(limit=2)
    rest = journal.fetch_after(None, first[-1], 10)
    assert [r.client_orderid for r in first + rest] == ["o-2", "o-1", "o-0"]
    assert journal.distinct("command") == ["payout-check"]
    assert journal.get(first[0].id).client_orderid == "o-2"


def test_a_final_status_lands_on_the_rows_that_made_the_order(
    journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    with serve(lambda r: Reply(200, accepted(), FORM)) as server:
        _send(journal, server.url, rsa_key, "o-9")
    ids = journal.set_final_status("gw", "o-9", "approved", orderid="9001", source="callback")
    assert len(ids) == 1
    row = journal.get(ids[0])
    assert (row.final_status, row.final_status_source) == ("approved", "callback")
    assert journal.count(HistoryFilter(environments=frozenset({"elsewhere"}))) == 0


# -- one send: pending first, then the answer ----------------------------------------------


def test_the_pane_columns_of_a_pending_then_answered_row(
    journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    req = prepared(rsa_key, client_orderid="order-7", amount="12.30", currency="EUR")
    hooks = journal.journal("acme-sb")
    row_id = hooks.before_send(req)
    pending = journal.get(row_id)
    assert (pending.outcome, pending.outcome_text, pending.finished) == (
        "pending", "sending…", None
    )  # fmt: skip
    assert journal.sent_before(req.gateway, "payout-check", "order-7")[0].outcome == "pending"
    hooks.after_answer(
        row_id, answered(req, "type=async-response&serial-number=9&gateway-order-id=55")
    )
    row = journal.get(row_id)
    assert (row.environment, row.command, row.client_orderid) == (
        "acme-sb", "payout-check", "order-7"
    )  # fmt: skip
    assert (row.amount_text, row.receiver, row.last4) == (
        "12.30 EUR", "card 444444******4448", "4448"
    )  # fmt: skip
    assert (row.outcome_text, row.gateway_order_id, row.serial_number) == ("accepted", "55", "9")
    assert (row.http_status, row.interrupted, row.final_status) == (200, False, None)
    assert row.finished is not None
    assert row.finished >= row.created
    assert row.elapsed == 0.25


def test_a_lost_answer_is_outcome_unknown(journal: Any, rsa_key: rsa.RSAPrivateKey) -> None:
    row_id = _write(journal, rsa_key, "sb", "payout-check", None)
    row = journal.get(row_id)
    assert (row.outcome_unknown, row.outcome_text) == (True, "outcome unknown")
    assert journal.details(row_id).response == {
        "error": "No answer within 60 s; the request may have arrived.",
        "error_class": "OutcomeUnknownError",
    }
    assert journal.interrupted_count() == 0  # an unknown answer, not a stopped console


# -- the double-payout guard's look-up -------------------------------------------------------


def test_sent_before_finds_one_order_id_in_one_environment_and_command(
    seeded: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    journal = seeded
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
    assert (
        journal.sent_before(env_gateway("acme-sb", "payout-check"), "payout-check", "po-2")[
            0
        ].outcome
        == "rejected"
    )
    assert (
        journal.sent_before(env_gateway("acme-live", "payout-check"), "payout-check", "po-3")[
            0
        ].outcome
        == "unknown"
    )
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
    assert journal.sent_before(env_gateway("acme-sb", "payout-check"), "payout-check", "PO-1") == []
    profile = journal.sent_before(
        env_gateway("acme-live", "create-recurring-payment"), "create-recurring-payment", "sub-1"
    )
    assert [r.client_orderid for r in profile] == ["sub-1"]
    row_id = journal.journal("acme-sb").before_send(
        prepared(rsa_key, base_url=env_base_url("acme-sb"), client_orderid="po-2")
    )
    rows = journal.sent_before(env_gateway("acme-sb", "payout-check"), "payout-check", "po-2")
    assert [r.outcome for r in rows] == ["pending", "rejected"]  # newest first
    assert rows[0].id == row_id


def test_a_batch_files_order_ids_are_looked_up_together_as_one_by_one(
    seeded: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    """What a batch file's check asks of the journal for all of its ids at once (a few
    queries, not one per row) is what the guard finds for each of them."""
    journal = seeded
    journal.journal("acme-sb").before_send(
        prepared(rsa_key, base_url=env_base_url("acme-sb"), client_orderid="po-2")
    )
    ids = [f"po-{n}" for n in range(1, 1200)] + [" po-1 ", "PO-1", ""]
    for env in ("acme-sb", "acme-live"):
        for gateway in (env_gateway(env, "payout-check"), None):
            each = journal.sent_before_each(gateway, "payout-check", ids, env)
            for order_id in ids:
                one = journal.sent_before(gateway, "payout-check", order_id, env)
                assert each.get(order_id.strip(), []) == one, (env, gateway, order_id)
    sb = journal.sent_before_each(env_gateway("acme-sb", "payout-check"), "payout-check", ids)
    assert {k: [r.outcome for r in v] for k, v in sb.items()} == {
        "po-1": ["accepted"], "po-2": ["pending", "rejected"], "po-10": ["accepted"],
    }  # fmt: skip


def test_the_guard_reads_accepted_rejected_and_unknown_sends_alike(seeded: Any) -> None:
    def seen(env: str, order: str) -> Seen:
        gateway = env_gateway(env)
        return (
            pipeline(seeded, env, production=False, gateway=gateway)
            .verdict("payout-check", order)
            .seen
        )

    assert seen("acme-sb", "po-1") is Seen.ACCEPTED
    assert seen("acme-sb", "po-2") is Seen.REJECTED
    assert seen("acme-live", "po-3") is Seen.UNKNOWN
    assert seen("acme-live", "po-1") is Seen.NEW
    assert seen("acme-sb", "po-10") is Seen.ACCEPTED
    # a status check or a callback settles an unknown outcome either way
    seeded.set_final_status("acme-live", "po-3", "declined", source="status")
    assert seen("acme-live", "po-3") is Seen.SETTLED  # declined: the id is spent
    seeded.set_final_status("acme-sb", "po-2", "processing", source="callback")
    assert seen("acme-sb", "po-2") is Seen.ACCEPTED


def test_the_guard_sees_a_send_by_another_console_on_the_same_journal(
    backend: Backend, journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    with backend.open("dave") as other:
        _write(other, rsa_key, "gw", "payout-check", None, client_orderid="o-5")
    with pytest.raises(RefusedError) as refused:
        pipeline(journal, "gw", production=False).send(
            prepared(rsa_key, base_url=env_base_url("gw"), client_orderid="o-5"), Decision()
        )
    assert refused.value.code == Refusal.UNKNOWN_OUTCOME


# -- final statuses ---------------------------------------------------------------------------


def test_a_status_answer_sets_the_final_status_of_the_order(
    journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    payout = _write(journal, rsa_key, "sb", "payout-check",
                    "type=async-response&gateway-order-id=777", client_orderid="p-1")  # fmt: skip
    with serve(
        lambda r: Reply(200, b"type=status-response\n&status=approved\n&orderid=777\n", FORM)
    ) as gateway:
        asked = prepared(rsa_key, "status", client_orderid="p-1", orderid="777")
        from console.core.prepared import prepare

        asked = prepare(
            "status", dict(asked.params), base_url=gateway.url, login="acme",
            private_key=rsa_key, endpoint_id="1234",
        )  # fmt: skip
        pipeline(journal, "sb", production=False).send(asked, Decision())
    status_row = journal.fetch(HistoryFilter(commands=frozenset({"status"})))[0]
    assert (status_row.final_status, status_row.final_status_source) == ("approved", "status")
    row = journal.get(payout)
    assert (row.final_status, row.final_status_source) == ("approved", "status")
    assert row.final_status_at is not None
    assert row.final_status_at >= row.created
    # the status look-up is not an order the callback or a later status can name
    assert journal.order_row("sb", "client_orderid", "p-1") == (payout, "p-1", "777")


def test_set_final_status_returns_the_rows_it_changed(
    journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    first = _write(journal, rsa_key, "sb", "payout-check", None, client_orderid="p-1")
    again = _write(journal, rsa_key, "sb", "payout-check",
                   "type=async-response&gateway-order-id=777", client_orderid="p-1")  # fmt: skip
    _write(journal, rsa_key, "sb", "payout-check",
           "type=async-response&gateway-order-id=778", client_orderid="p-2")  # fmt: skip
    _write(journal, rsa_key, "live", "payout-check", None, client_orderid="p-1")
    # every send of the order id in that environment (a resend reuses it); another
    # gateway order with the same client_orderid is another order
    assert sorted(journal.set_final_status("sb", "p-1", "declined", source="status")) == [
        first, again
    ]  # fmt: skip
    assert journal.set_final_status("sb", "p-1", "approved", orderid="999", source="status") == [
        first
    ]
    assert journal.get(first).final_status == "approved"  # its answer never named an order
    assert journal.get(again).final_status == "declined"
    assert journal.get(first).gateway_order_id == "999"  # learnt from the status
    assert journal.set_final_status("elsewhere", "p-1", "approved", source="status") == []
    assert journal.set_final_status("sb", "nobody", "approved", source="status") == []


def test_a_callback_sets_the_final_status_once(journal: Any, rsa_key: rsa.RSAPrivateKey) -> None:
    row_id = _write(journal, rsa_key, "gw", "payout-check",
                    "type=async-response&gateway-order-id=9001", client_orderid="p-1")  # fmt: skip
    event = _record_callback(journal, _callback("gw", "approved", "9001", "p-1"))
    assert (event.check, event.request_id, event.updated) == ("ok", row_id, (row_id,))
    row = journal.get(row_id)
    assert (row.final_status, row.final_status_source) == ("approved", "callback")
    again = _record_callback(journal, _callback("gw", "approved", "9001", "p-1"))
    assert again.updated == ()  # the gateway's retry of the same callback changes nothing
    # a callback whose two ids name different orders is never applied
    other = _write(journal, rsa_key, "gw", "payout-check",
                   "type=async-response&gateway-order-id=9002", client_orderid="p-2")  # fmt: skip
    crossed = _record_callback(journal, _callback("gw", "declined", "9001", "p-2"))
    assert (crossed.check, crossed.updated) == ("unmatched", ())
    assert journal.get(other).final_status is None
    assert journal.get(row_id).final_status == "approved"


def test_a_settled_status_is_not_undone_by_a_later_processing_or_unknown(
    journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    """A status answer still on its way when the callback arrived says "processing": the
    order stays approved (and the double-payout guard keeps refusing it)."""
    row_id = _write(journal, rsa_key, "sb", "payout-check", None, client_orderid="p-1")
    assert journal.set_final_status("sb", "p-1", "unknown", source="status") == [row_id]
    assert journal.set_final_status("sb", "p-1", "processing", source="status") == [row_id]
    assert journal.set_final_status("sb", "p-1", "approved", source="callback") == [row_id]
    assert journal.set_final_status("sb", "p-1", "processing", source="status") == []
    assert journal.set_final_status("sb", "p-1", "unknown", source="status") == []
    row = journal.get(row_id)
    assert (row.final_status, row.final_status_source) == ("approved", "callback")
    # later updates through notify_url (a chargeback) are the latest word, and stay so
    assert journal.set_final_status("sb", "p-1", "chargeback", source="callback") == [row_id]
    assert journal.set_final_status("sb", "p-1", "processing", source="status") == []
    assert journal.set_final_status("sb", "p-1", "declined", source="status") == [row_id]
    assert journal.get(row_id).final_status == "declined"


def test_order_row_is_the_newest_send_of_an_order(journal: Any, rsa_key: rsa.RSAPrivateKey) -> None:
    _write(journal, rsa_key, "sb", "payout-check", None, client_orderid="p-1")
    newest = _write(journal, rsa_key, "sb", "payout-check",
                    "type=async-response&gateway-order-id=777", client_orderid="p-1")  # fmt: skip
    _write(journal, rsa_key, "sb", "status", "type=status-response&status=approved",
           client_orderid="p-1", orderid="777")  # fmt: skip
    assert journal.order_row("sb", "client_orderid", "p-1") == (newest, "p-1", "777")
    assert journal.order_row("sb", "gateway_order_id", "777") == (newest, "p-1", "777")
    assert journal.order_row("other", "client_orderid", "p-1") is None
    assert journal.order_row("sb", "client_orderid", "p-") is None
    with pytest.raises(ValueError, match="order column"):
        journal.order_row("sb", "summary", "x")


# -- the history pane and the command line ---------------------------------------------------


def test_newest_first_with_pages_by_offset_and_after_a_row(seeded: Any) -> None:
    journal = seeded
    assert journal.count() == 6
    first = journal.fetch(offset=0, limit=4)
    second = journal.fetch(offset=4, limit=4)
    assert [r.client_orderid for r in first + second] == [
        "po-10", "sub-1", "first-9", "po-3", "po-2", "po-1"
    ]  # fmt: skip
    assert journal.fetch_after(None, first[-1], 4) == second
    assert journal.fetch_after(None, None, 2) == first[:2]
    assert journal.fetch_after(None, second[-1], 4) == []
    assert list(journal.iter_rows(batch=4)) == first + second
    live = HistoryFilter(environments=frozenset({"acme-live"}))
    assert journal.fetch_after(live, journal.fetch(live)[0], 10)[0].client_orderid == "po-3"


_SEARCHES = [
    ("po-1", ["po-1"]),  # an id
    ("po-1*", ["po-10", "po-1"]),  # the start of one
    ("po-10", ["po-10"]),
    ("po-", ["po-10", "po-3", "po-2", "po-1"]),  # no whole id: the ids containing it
    ("o-1", ["po-10", "po-1"]),  # a part of a client_orderid
    ("001", ["first-9", "po-1"]),  # the last digits of a gateway order id
    ("-9", []),  # too short a part: every row would match
    ("PO-1", []),  # ids keep their case
    ("sn-2", ["po-2"]),  # serial number
    ("1001", ["first-9", "po-1"]),  # gateway order id (and the order a card ref names)
    ("cr-5", ["first-9"]),  # card reference id
    ("88", ["sub-1"]),  # recurring payment id
    ("4448", ["sub-1", "po-1"]),  # last four digits (the recurring profile's card too)
    ("1111", ["po-10", "po-3"]),
    ("444444******4448", ["sub-1", "po-1"]),  # a masked card number as the pane shows it
    ("4444 4444 4444 4448", ["sub-1", "po-1"]),  # a whole card number: its last four
    ("nothing-like-this", []),
]


def test_search_by_any_id_or_the_last_four_digits(seeded: Any) -> None:
    found = {text: _ids(seeded, HistoryFilter(search=text)) for text, _ in _SEARCHES}
    assert found == dict(_SEARCHES)


def test_filters_by_command_outcome_environment_and_time(seeded: Any) -> None:
    journal = seeded
    assert _ids(journal, HistoryFilter(environments=frozenset({"acme-live"}))) == [
        "sub-1", "po-3"
    ]  # fmt: skip
    payouts = HistoryFilter(commands=frozenset({"payout-check"}))
    assert _ids(journal, payouts) == ["po-10", "po-3", "po-2", "po-1"]
    assert _ids(journal, HistoryFilter(outcomes=frozenset({"unknown"}))) == ["po-3"]
    either = HistoryFilter(outcomes=frozenset({"rejected", "unknown"}))
    assert _ids(journal, either) == ["po-3", "po-2"]
    both = HistoryFilter(commands=frozenset({"payout-check"}), search="4448")
    assert _ids(journal, both) == ["po-1"]
    rows = journal.fetch()
    window = HistoryFilter(since=rows[3].created, until=rows[1].created)  # since in, until out
    assert _ids(journal, window) == ["first-9", "po-3"]
    assert _ids(journal, HistoryFilter(since=rows[0].created)) == ["po-10"]
    assert _ids(journal, HistoryFilter(until=rows[4].created)) == ["po-1"]
    future = HistoryFilter(since=datetime.now(UTC) + timedelta(days=1))
    assert _ids(journal, future) == []
    assert journal.count(HistoryFilter(environments=frozenset({"elsewhere"}))) == 0


def test_get_rows_and_distinct_values(seeded: Any) -> None:
    journal = seeded
    rows = journal.fetch()
    assert journal.get(rows[2].id) == rows[2]
    assert journal.rows([rows[4].id, rows[1].id, rows[4].id]) == [rows[1], rows[4]]
    assert journal.rows([]) == []
    with pytest.raises(KeyError):
        journal.get(10_000)
    assert journal.distinct("environment") == ["acme-live", "acme-sb"]
    assert journal.distinct("outcome") == ["accepted", "rejected", "unknown"]
    assert journal.distinct("command") == [
        "create-card-ref", "create-recurring-payment", "payout-check"
    ]  # fmt: skip
    with pytest.raises(ValueError, match="filter column"):
        journal.distinct("summary; drop table requests")


def test_rows_and_details_keep_no_card_number_and_no_cvv2(
    backend: Backend, journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    cvv = "9173"
    pan = "4111111111111111"
    echo = f"Card {pan} with cvv2={cvv} was refused"
    accepted_id = _write(journal, rsa_key, "sb", "payout-check",
                         "type=async-response&serial-number=1&gateway-order-id=31",
                         client_orderid="ok-1", credit_card_number=pan, cvv2=cvv)  # fmt: skip
    refused_id = _write(journal, rsa_key, "sb", "payout-check",
                        f"type=validation-error&error-message={echo}&error-code=2",
                        client_orderid="echo-1", credit_card_number=pan, cvv2=cvv)  # fmt: skip
    for row_id in (accepted_id, refused_id):
        row = journal.get(row_id)
        assert (row.receiver, row.last4) == ("card 411111******1111", "1111")
        details = journal.details(row_id)
        assert details.row == row
        shown = f"{row} {details.request} {details.response}"
        assert pan not in shown
        assert cvv not in shown
        assert ["credit_card_number", "411111******1111"] in details.request["params"]
        assert "(not kept: the request carried card data)" in details.request["signature_hex"]
    assert journal.details(refused_id).response["fields"]["error-code"] == "2"
    stored = backend.stored()
    assert "411111******1111" in stored  # the masked form is there: the look is at real data
    assert pan not in stored
    assert f"cvv2={cvv}" not in stored
    assert f'"cvv2", "{cvv}"' not in stored


# -- listeners ----------------------------------------------------------------------------------


def test_listeners_hear_of_new_and_changed_rows(
    backend: Backend, journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    settle = 0.3 if backend.team_db else 0.0  # what the team channel might still bring
    heard: list[tuple[str, int]] = []
    stop = journal.subscribe(lambda event, row_id: heard.append((event, row_id)))
    hooks = journal.journal("sb")
    req = prepared(rsa_key, client_orderid="p-1")
    row_id = hooks.before_send(req)
    hooks.after_answer(row_id, answered(req, "type=async-response&gateway-order-id=5"))
    journal.set_final_status("sb", "p-1", "approved", source="status")
    time.sleep(settle)  # nothing more arrives (a team console hears its own writes once)
    stop()
    hooks.before_send(req)
    time.sleep(settle)
    assert heard == [("added", row_id), ("changed", row_id), ("changed", row_id)]


def test_a_team_console_hears_another_consoles_writes_within_a_second(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    backend = Backend("postgresql", team_db)
    heard: list[tuple[str, int, float]] = []
    arrived = threading.Event()

    def listener(event: str, row_id: int) -> None:
        heard.append((event, row_id, time.monotonic()))
        arrived.set()

    with backend.open("bob") as bob, backend.open("alice") as alice:
        bob.subscribe(listener)
        time.sleep(0.2)  # the listening connection is up
        started = time.monotonic()
        hooks = alice.journal("sb")
        req = prepared(rsa_key, client_orderid="p-1")
        row_id = hooks.before_send(req)
        assert arrived.wait(1.0)
        hooks.after_answer(row_id, lost(req))
        alice.set_final_status("sb", "p-1", "declined", source="callback")
        assert _until(lambda: len(heard) == 3, 1.0), heard
    assert [(e, i) for e, i, _ in heard] == [
        ("added", row_id), ("changed", row_id), ("changed", row_id)
    ]  # fmt: skip
    assert all(at - started < 1.0 for _, _, at in heard)


# -- a console that stopped mid-send ----------------------------------------------------------

_KILLED_SENDER = """
import os, signal, sys
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from console.core.history import History
from tests.helpers.history_data import prepared
from tests.helpers.pipeline import journalled_send

class DiesWhileSending:
    def post(self, url, *, headers, body):
        print("sending", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

key = load_pem_private_key(sys.stdin.buffer.read(), None)
if len(sys.argv) > 1:
    from console.core.team import TeamJournal
    journal = TeamJournal(sys.argv[1])
else:
    journal = History()
journalled_send(journal, "sb", prepared(key, client_orderid="crash-1"), DiesWhileSending())
print("never reached", flush=True)
"""


def _crash_gateway(key: rsa.RSAPrivateKey) -> str:
    return prepared(key, client_orderid="crash-1").gateway


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kills a process with SIGKILL")
def test_a_console_killed_mid_send_leaves_outcome_unknown(
    backend: Backend, journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    root = Path(__file__).resolve().parents[2]
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_KILLED_SENDER), *backend.child_args()],
        input=keys.private_key_pem(rsa_key),
        capture_output=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=60,
        check=False,
    )
    assert child.stdout == b"sending\n", child.stderr
    (left,) = journal.fetch()
    recovered: list[int] = []
    assert _until(lambda: bool(recovered.extend(journal.recover_interrupted()) or recovered), 5)
    assert recovered == [left.id]
    assert journal.recover_interrupted() == []  # once
    row = journal.get(left.id)
    assert (row.client_orderid, row.outcome_text, row.interrupted) == (
        "crash-1", "outcome unknown", True
    )  # fmt: skip
    assert row.summary == INTERRUPTED_SUMMARY
    assert journal.interrupted_count() == 1
    with backend.open("bob") as other:  # anyone opening the journal later sees it so
        assert other.recovered == []
        assert other.interrupted_count() == 1
        assert other.get(left.id).outcome_unknown
        assert pipeline(other, "sb", production=False, gateway=_crash_gateway(rsa_key)).verdict(
            "payout-check", "crash-1"
        ).seen is Seen.UNKNOWN  # fmt: skip
    assert journal.set_final_status("sb", "crash-1", "declined", source="status") == [left.id]
    assert journal.interrupted_count() == 0  # settled by a status check


def test_a_pending_row_of_a_running_console_is_left_alone(
    backend: Backend, journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    row_id = journal.journal("sb").before_send(prepared(rsa_key, client_orderid="p-1"))
    with backend.open("bob") as other:  # e.g. the command line while the window sends
        assert other.recovered == []
        assert other.recover_interrupted() == []
        assert other.get(row_id).outcome == "pending"
        assert other.interrupted_count() == 0
    assert journal.recover_interrupted() == []


def test_a_late_answer_lands_on_a_row_taken_for_interrupted(
    backend: Backend, journal: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Past its deadline a pending row is "outcome unknown" for everyone; when the answer
    arrives after all, it is stored (an accepted payout must not stay "unknown")."""
    hooks = journal.journal("sb", connect_timeout=-100.0, read_timeout=0.0)  # deadline passed
    req = prepared(rsa_key, client_orderid="p-1")
    row_id = hooks.before_send(req)
    with backend.open("bob") as other:  # the next console to open the journal
        assert other.recovered == [row_id]
        assert other.get(row_id).outcome_unknown
    hooks.after_answer(row_id, answered(req, "type=async-response&gateway-order-id=777"))
    assert hooks.last_error is None
    row = journal.get(row_id)
    assert (row.outcome, row.gateway_order_id) == ("accepted", "777")
    assert journal.interrupted_count() == 0
    assert pipeline(journal, "sb", production=False, gateway=req.gateway).verdict(
        "payout-check", "p-1"
    ).seen is Seen.ACCEPTED  # fmt: skip


# -- a team database made with a linguistic locale --------------------------------------------


def test_a_team_database_in_a_linguistic_locale_searches_and_sorts_like_sqlite(
    pg_cluster: Any, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Many servers create databases in the system's locale (en_US.UTF-8 and the like),
    whose collation ignores case and punctuation at first: ids still compare exactly."""
    import psycopg

    from console.core.team import TeamJournal, connect, initialise

    with connect(pg_cluster.dsn()) as admin:
        try:
            admin.execute(
                "CREATE DATABASE team_linguistic TEMPLATE template0 LOCALE_PROVIDER icu"
                " ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"
            )
        except psycopg.Error as exc:  # a server built without ICU
            pytest.skip(f"no ICU collations on this server: {exc}")
    dsn = pg_cluster.dsn(db="team_linguistic")
    with connect(dsn) as owner:
        initialise(owner)
    extra = [
        ("Acme-SB", "payout-check", {"client_orderid": "PO-1x"}, None),
        ("acme_sb", "payout-check", {"client_orderid": "po1-x"}, None),
    ]
    answers: dict[str, list[Any]] = {}
    with TeamJournal(dsn) as team, History() as history:
        for env in ("acme-sb", "acme-live", "acme_sb"):  # the team's gateways
            register_policy(team, env, "none", base_url=env_base_url(env), login="acme",
                            endpoint_id="1234")  # fmt: skip
        for journal in (team, history):
            for env, command, values, body in [*_PLAN, *extra]:
                _write(journal, rsa_key, env, command, body, **values)
            answers[type(journal).__name__] = [
                *(_ids(journal, HistoryFilter(search=t)) for t in ("po-1*", "PO*", "po-1x")),
                journal.distinct("environment"),
                journal.count(HistoryFilter(environments=frozenset({"acme-sb"}))),
            ]
    assert answers["History"][:2] == [["po-10", "po-1"], ["PO-1x"]]
    assert answers["History"][3] == ["Acme-SB", "acme-live", "acme-sb", "acme_sb"]
    assert answers["TeamJournal"] == answers["History"]


def test_an_answer_the_team_journal_cannot_store_is_reported_not_lost(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    backend = Backend("postgresql", team_db)
    with backend.open("alice") as alice, backend.open("bob") as bob:
        req = prepared(rsa_key, client_orderid="p-1")
        row_id = alice.journal("sb").before_send(req)
        heard: list[tuple[str, int]] = []
        bob.subscribe(lambda event, row: heard.append((event, row)))
        hooks = bob.journal("sb")  # only the sender may finish a row
        hooks.after_answer(row_id, answered(req, "type=async-response&gateway-order-id=7"))
        assert hooks.last_error is not None
        assert "could not be stored" in str(hooks.last_error)
        assert ("journal-failed", row_id) in heard
        assert alice.get(row_id).outcome == "pending"


# -- check and claim in one step --------------------------------------------------------------


def test_consoles_sending_one_id_at_once_put_it_on_the_wire_once(
    backend: Backend, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Eight consoles, each with its own connection to the journal, press Send on the same
    client_orderid at the same moment; the gateway is slow and accepts duplicates."""
    ok = b"type=async-response\n&merchant-order-id=same-1\n&gateway-order-id=5\n"
    people = ["alice", "dave"] * 4  # makers: each team console its own database session
    start = threading.Barrier(len(people))
    results: list[str] = []
    with serve(lambda r: Reply(200, ok, FORM, delay=0.3)) as server:

        def press_send(person: str) -> None:
            with backend.open(person) as journal:
                req = prepared(rsa_key, base_url=server.url, client_orderid="same-1")
                start.wait()
                try:
                    sent = pipeline(journal, "gw", production=False).send(req, Decision())
                    results.append(str(sent.result))
                except RefusedError as exc:
                    results.append(exc.code)

        threads = [threading.Thread(target=press_send, args=(p,)) for p in people]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(server.received) == 1
    assert sorted(results) == sorted(
        ["accepted"] + [r for r in results if r in (Refusal.IN_FLIGHT, Refusal.ACCEPTED_BEFORE)]
    )
    assert len(results) == len(people)
    assert results.count("accepted") == 1
