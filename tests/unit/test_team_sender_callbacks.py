"""The team sender receives the gateway's callbacks itself, against a real PostgreSQL server,
as real processes: a maker with no key sends a payout through the sender; the gateway's
callback to the sender's listener settles it for every console (the database verifies its
``control`` with the secret of ``team callback-secret``); a forged one changes nothing; slow
connections never keep a genuine one out."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest
import requests

from console.cli.failures import EXIT_OK, EXIT_USAGE
from console.core.callbacks import MAX_CONNECTIONS, control_code
from console.core.history import CheckResult, History
from console.core.paths import resolve
from console.core.team import Approvals, TeamJournal, connect
from console.core.team.storage.live import TeamListener
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import (
    Profile,
    SenderTeam,
    kill9,
    send_args,
    serving,
    stop,
    wait_for,
)
from tests.helpers.slow_clients import Tricklers

psycopg = pytest.importorskip("psycopg")

SECRET = "merchant-control-secret"
OTHER_SECRET = "the sender's own idea of the secret"
CONTROL_VARIABLE = "GATEWAY_CONSOLE_MERCHANT_CONTROL"
LISTENS = re.compile(r"listens for live's callbacks at (http://\S+/callback)")


def _callback(status: str, orderid: str, order: str, secret: str = SECRET) -> dict[str, str]:
    """A callback as the gateway sends it (field notes), ``control`` made with ``secret``."""
    return {
        "type": "payout",
        "status": status,
        "orderid": orderid,
        "client_orderid": order,
        "merchant_order": order,
        "amount": "10.00",
        "control": control_code(status, orderid, order, secret),
    }


def _start(team: SenderTeam, secret: str) -> tuple[subprocess.Popen[str], str]:
    """The sender, listening for callbacks on a free loopback port with ``secret``."""
    sender = team.start_sender(
        "--callback-listen", "127.0.0.1:0", variables={CONTROL_VARIABLE: secret}
    )

    def said() -> str:
        return team.sender.logs(sender)

    assert wait_for(lambda: "waiting for submissions" in said(), 60), said()
    assert serving(team.db)
    found = LISTENS.search(said())
    assert found, team.sender.logs(sender)
    return sender, found.group(1)


@pytest.fixture
def made(team_db: TeamDatabase, idle_team: SenderTeam) -> SenderTeam:
    """:func:`idle_team`; the admin stored the merchant control secret the database checks
    callbacks with."""
    team = idle_team
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        Approvals(admin).set_callback_secret("live", SECRET)
    return team


@pytest.fixture
def listening(made: SenderTeam) -> Iterator[tuple[SenderTeam, str]]:
    """The team, its sender running with the merchant control secret; the listener's URL."""
    sender, url = _start(made, SECRET)
    yield made, url
    stop(sender)
    assert sender.returncode == 0, made.sender.logs(sender)


def _finals(profile: Profile) -> dict[str, tuple[str | None, str | None]]:
    """Each payout's final status and its source, as ``history --json`` shows them."""
    shown = profile.run("history", "--json")
    assert shown.returncode == EXIT_OK, shown.stderr
    return {
        row["client_orderid"]: (row["final_status"], row["final_status_source"])
        for row in json.loads(shown.stdout)
        if row["command"] == "payout-check"
    }


def _senders_callbacks(team: SenderTeam) -> list[tuple[str | None, CheckResult]]:
    """The callbacks the sender recorded in its own journal: (client_orderid, check)."""
    with History(resolve(team.sender.home).history_db) as own:
        return [(e.client_orderid, e.check) for e in own.recent_callbacks()]


def test_a_genuine_callback_to_the_sender_settles_the_makers_payout_for_every_console(
    listening: tuple[SenderTeam, str],
) -> None:
    team, url = listening
    for order in ("p-1", "p-2"):
        sent = team.alice.run(*send_args(order))  # her profile holds no key
        assert sent.returncode == EXIT_OK, sent.stderr
    assert _finals(team.alice) == {"p-1": (None, None), "p-2": (None, None)}
    heard: list[tuple[str, int]] = []
    consoles = TeamListener(team.db.dsn("bob"), lambda _k, event, i: heard.append((event, i)))
    consoles.start()
    try:
        got = requests.get(url, params=_callback("approved", "9001", "p-1"), timeout=10)
        assert (got.status_code, got.text) == (200, "OK\n")
        posted = requests.post(url, data=_callback("declined", "9002", "p-2"), timeout=10)
        assert posted.status_code == 200
        assert wait_for(lambda: len(heard) >= 2, 10)  # every console hears it at once
    finally:
        consoles.stop()
    assert _finals(team.alice) == {"p-1": ("approved", "callback"), "p-2": ("declined", "callback")}
    assert _finals(team.bob) == _finals(team.alice)
    assert _senders_callbacks(team) == [("p-1", CheckResult.OK), ("p-2", CheckResult.OK)]
    with connect(team.db.dsn()) as sql:  # audited with the database's own evidence
        evidence = sql.execute(
            "SELECT detail FROM gateway.audit WHERE detail LIKE '%callback verified by the"
            " database%' ORDER BY id"
        ).fetchall()
    assert len(evidence) == 2


def test_a_forged_callback_to_the_sender_changes_nothing_and_is_recorded_as_forged(
    listening: tuple[SenderTeam, str],
) -> None:
    team, url = listening
    assert team.alice.run(*send_args("p-1")).returncode == EXIT_OK
    forged = _callback("declined", "9001", "p-1", secret="a guess")
    assert requests.get(url, params=forged, timeout=10).status_code == 200  # recorded
    no_control = {k: v for k, v in _callback("declined", "9001", "p-1").items() if k != "control"}
    assert requests.post(url, data=no_control, timeout=10).status_code == 200
    assert _finals(team.alice) == {"p-1": (None, None)}
    assert _senders_callbacks(team) == [("p-1", CheckResult.MISMATCH), ("p-1", CheckResult.MISSING)]
    assert "callback live p-1 declined from 127.0.0.1: mismatch; recorded, nothing changed" in (
        team.sender.logs()
    )
    genuine = requests.get(url, params=_callback("approved", "9001", "p-1"), timeout=10)
    assert genuine.status_code == 200
    assert _finals(team.alice) == {"p-1": ("approved", "callback")}


def test_the_databases_secret_decides_not_the_senders(made: SenderTeam) -> None:
    """A sender holding another secret than the one an admin stored settles nothing with a
    callback it found genuine: the database verifies it again, refuses and audits it."""
    sender, url = _start(made, OTHER_SECRET)
    try:
        assert made.alice.run(*send_args("p-1")).returncode == EXIT_OK
        callback = _callback("declined", "9001", "p-1", secret=OTHER_SECRET)
        assert requests.get(url, params=callback, timeout=10).status_code == 200
        assert _finals(made.alice) == {"p-1": (None, None)}
        assert "the team database settled nothing" in made.sender.logs(sender)
    finally:
        stop(sender)
    with connect(made.db.dsn()) as sql:
        refused = sql.execute(
            "SELECT detail FROM gateway.audit WHERE action = 'refused' ORDER BY id"
        ).fetchall()
    assert any("callback to the team sender" in r[0] for r in refused)


def test_slow_or_idle_connections_never_keep_a_genuine_callback_out_of_the_sender(
    listening: tuple[SenderTeam, str],
) -> None:
    team, url = listening
    assert team.alice.run(*send_args("p-1")).returncode == EXIT_OK
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    with Tricklers(port, MAX_CONNECTIONS):
        time.sleep(0.5)  # every slot holds a request still arriving
        started = time.perf_counter()
        answers = []
        for _ in range(20):  # the gateway's first call, then its repeats
            try:
                got = requests.get(url, params=_callback("approved", "9001", "p-1"), timeout=3)
                answers.append(got.status_code)
            except requests.ConnectionError:
                answers.append(0)
        took = time.perf_counter() - started
    assert answers == [200] * 20
    assert took < 10.0
    assert _finals(team.alice) == {"p-1": ("approved", "callback")}
    assert len(_senders_callbacks(team)) == 20  # the first applied, the others repeats

    idle = [
        socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(MAX_CONNECTIONS)
    ]
    try:  # connected, then silent: the oldest makes room for the callback
        time.sleep(0.2)
        again = requests.get(url, params=_callback("approved", "9001", "p-1"), timeout=3)
        assert again.status_code == 200
    finally:
        for conn in idle:
            conn.close()
    assert len(_senders_callbacks(team)) == 21


def test_a_listener_reachable_from_other_computers_needs_a_secret(made: SenderTeam) -> None:
    sender = made.start_sender("--callback-listen", "0.0.0.0:0")
    assert sender.wait(timeout=60) == EXIT_USAGE
    said = made.sender.logs(sender)
    assert "Will not listen for callbacks on 0.0.0.0 without the merchant control secret" in said
    assert "Traceback" not in said


def test_the_sender_stops_listening_when_it_stops(made: SenderTeam) -> None:
    sender, url = _start(made, SECRET)
    sender.terminate()
    assert sender.wait(timeout=30) == 0
    assert "team sender: stopped." in made.sender.logs(sender)
    with pytest.raises(requests.ConnectionError):
        requests.get(url, params=_callback("approved", "9001", "p-1"), timeout=3)


def test_a_sender_killed_while_settling_a_callback_leaves_nothing_half_done(
    made: SenderTeam,
) -> None:
    """kill -9 while the team journal is taking the callback's status: the sender has
    recorded nothing and answered nothing, so the gateway's next call (to the restarted
    sender) settles the order, and is no repeat of a recorded callback."""
    sender, url = _start(made, SECRET)
    assert made.alice.run(*send_args("p-1")).returncode == EXIT_OK
    answers: list[int] = []

    def gateway_calls() -> None:
        try:
            got = requests.get(url, params=_callback("approved", "9001", "p-1"), timeout=30)
            answers.append(got.status_code)
        except requests.ConnectionError:
            answers.append(0)

    with connect(made.db.dsn()) as owner, owner.transaction():
        owner.execute("SELECT id FROM gateway.requests WHERE client_orderid = 'p-1' FOR UPDATE")
        call = threading.Thread(target=gateway_calls)
        call.start()
        assert wait_for(lambda: _waiting_for_the_row(made.db), 30)  # settling: blocked here
        kill9(sender)
    call.join(30)
    assert answers == [0]  # no answer: the gateway calls again later
    assert _senders_callbacks(made) == []
    assert _finals(made.alice) == {"p-1": (None, None)}

    again, url = _start(made, SECRET)
    try:
        assert requests.get(url, params=_callback("approved", "9001", "p-1"), timeout=10).ok
        assert _finals(made.alice) == {"p-1": ("approved", "callback")}
        assert _senders_callbacks(made) == [("p-1", CheckResult.OK)]
    finally:
        stop(again)


def _waiting_for_the_row(db: TeamDatabase) -> bool:
    """Whether a session waits for a row lock (the sender's set_final_status)."""
    with connect(db.dsn()) as sql:
        return bool(
            sql.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND query ILIKE '%set_final_status%'"
            ).fetchone()[0]
        )


def test_the_sender_listens_where_the_environments_saved_settings_say(made: SenderTeam) -> None:
    """No --callback-listen: the environment's own callback listener settings (the window's)
    tell the sender where to listen."""
    with socket.socket() as probe:  # a free port, for the saved settings
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    edited = made.sender.run(
        "env", "edit", "live", "--callback-listener", "on", "--callback-host", "127.0.0.1",
        "--callback-port", str(port), "--yes",
    )  # fmt: skip
    assert edited.returncode == EXIT_OK, edited.stderr
    sender = made.start_sender(variables={CONTROL_VARIABLE: SECRET})
    try:
        assert wait_for(lambda: "waiting for submissions" in made.sender.logs(sender), 60)
        url = f"http://127.0.0.1:{port}/callback"
        assert f"listens for live's callbacks at {url}" in made.sender.logs(sender)
        assert made.alice.run(*send_args("p-1")).returncode == EXIT_OK
        assert requests.post(url, data=_callback("approved", "9001", "p-1"), timeout=10).ok
        assert _finals(made.alice) == {"p-1": ("approved", "callback")}
    finally:
        stop(sender)
