"""The journal's contract, run against both implementations: the embedded SQLite journal
(one person) and the team's PostgreSQL journal. What the pipeline, the history pane and the
command line do with the history works the same on both."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history import History, HistoryFilter
from console.core.pipeline import Decision, Refusal, RefusedError
from tests.helpers.http_server import Reply, serve
from tests.helpers.team import FORM, PAN, accepted, pipeline, prepared_payout


@pytest.fixture(params=["sqlite", "postgresql"])
def journal(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "sqlite":
        with History() as history:
            yield history
        return
    from console.core.team import TeamJournal

    team_db = request.getfixturevalue("team_db")
    with TeamJournal(team_db.dsn("alice")) as shared:
        yield shared


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
