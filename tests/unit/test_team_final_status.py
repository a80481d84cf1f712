"""Final statuses in team mode, against a real PostgreSQL server: a callback received by one
console's listener, or a status answer one console asked for, sets the order's final status
in the shared journal, and every other console hears of it within a second."""

from __future__ import annotations

import time
import urllib.request
from urllib.parse import urlencode

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.callbacks import CallbackListener, CallbackRecorder, control_code
from console.core.history import History
from console.core.pipeline import Decision
from console.core.prepared import prepare
from console.core.team import Approvals, TeamJournal
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, accepted, pipeline, prepared_payout

pytest.importorskip("psycopg")

SECRET = "merchant-secret"


class Heard:
    """A console's history subscription: the rows it was told changed, and when."""

    def __init__(self, journal: TeamJournal) -> None:
        self.changed: dict[int, float] = {}
        journal.subscribe(self._heard)
        time.sleep(0.2)  # the listening connection is up

    def _heard(self, event: str, row_id: int) -> None:
        if event == "changed":
            self.changed.setdefault(row_id, time.monotonic())

    def within(self, row_id: int, started: float, seconds: float) -> bool:
        """Whether this console heard ``row_id`` change within ``seconds`` of ``started``."""
        while row_id not in self.changed and time.monotonic() < started + seconds + 0.5:
            time.sleep(0.01)
        return self.changed.get(row_id, float("inf")) - started < seconds


def _sent_by_alice(alice: TeamJournal, url: str, key: rsa.RSAPrivateKey) -> int:
    sent = pipeline(alice, "gw", production=False).send(prepared_payout(url, key), Decision())
    assert sent.result == "accepted"
    return alice.fetch()[0].id


def test_a_callback_to_one_console_sets_the_final_status_for_every_console(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    with TeamJournal(team_db.dsn("root_admin")) as admin:  # the database checks callbacks
        Approvals(admin).set_callback_secret("gw", SECRET)
    with (
        serve(lambda r: Reply(200, accepted("p-1", "9001"), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
        History() as bobs_own,
    ):
        row_id = _sent_by_alice(alice, server.url, rsa_key)
        heard = Heard(alice)
        recorder = CallbackRecorder(bobs_own, "gw", SECRET, journal=bob)
        recorded: list[object] = []
        recorder.subscribe(recorded.append)
        with CallbackListener(recorder) as listener:  # bob's console listens
            query = urlencode(
                {
                    "status": "approved",
                    "orderid": "9001",
                    "client_orderid": "p-1",
                    "type": "payout",
                    "control": control_code("approved", "9001", "p-1", SECRET),
                }
            )
            started = time.monotonic()
            with urllib.request.urlopen(f"{listener.url}?{query}", timeout=10) as answer:
                assert answer.status == 200
        assert heard.within(row_id, started, 1.0)
        (event,) = recorded  # bob's callbacks list shows it, applied to alice's row
        assert (event.check, event.request_id, event.updated) == ("ok", row_id, (row_id,))  # type: ignore[attr-defined]
        assert [e.status for e in bobs_own.recent_callbacks()] == ["approved"]
    with TeamJournal(team_db.dsn("carol")) as carol:  # any console, later
        row = carol.get(row_id)
        assert (row.final_status, row.final_status_source) == ("approved", "callback")


def test_a_status_answer_of_the_team_sender_sets_the_final_status_for_every_console(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The team sender's status answer settles anyone's row (a maker's own answer settles
    only the maker's rows: a "status" row a maker journals is no evidence)."""
    status = b"type=status-response\n&status=declined\n&gateway-order-id=9001\n"
    with TeamJournal(team_db.dsn()) as owner:
        Approvals(owner).add_user("sendbot", "sender")
    with (
        serve(lambda r: Reply(200, accepted("p-1", "9001"), FORM)) as gateway,
        serve(lambda r: Reply(200, status, FORM)) as status_gateway,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
        TeamJournal(team_db.dsn("sendbot")) as sender,
    ):
        row_id = _sent_by_alice(alice, gateway.url, rsa_key)
        heard = Heard(alice)
        asked = prepare(
            "status",
            {"client_orderid": "p-1", "orderid": "9001"},
            base_url=status_gateway.url,
            login="merchant",
            private_key=rsa_key,
            endpoint_id="1",
        )
        pipeline(bob, "gw", production=False).send(asked, Decision())  # a maker's: no effect
        assert alice.get(row_id).final_status is None
        started = time.monotonic()
        pipeline(sender, "gw", production=False).send(asked, Decision())  # declined
        assert heard.within(row_id, started, 1.0)
    with TeamJournal(team_db.dsn("carol")) as carol:
        row = carol.get(row_id)
        assert (row.final_status, row.final_status_source) == ("declined", "status")
