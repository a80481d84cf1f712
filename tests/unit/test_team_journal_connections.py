"""The team journal of a process sending several requests at once (the team sender,
``batch run --concurrency N``): each sending thread's rows go through a connection of its
own, so one row's transaction never waits for another's, and a send on its way is never
taken for an interrupted one while the process that sends it runs.
"""

from __future__ import annotations

import threading

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.team import TeamJournal
from tests.helpers.history_data import answered, env_base_url, prepared
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import wait_for
from tests.helpers.team import register_policy


def _registered(team_db: TeamDatabase) -> None:
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(
            admin, "acme-sb", "none", base_url=env_base_url("acme-sb"), login="acme",
            endpoint_id="1234",
        )  # fmt: skip


def _send(journal: TeamJournal, key: rsa.RSAPrivateKey, order: str) -> None:
    hooks = journal.journal("acme-sb")
    req = prepared(key, "payout-check", base_url=env_base_url("acme-sb"), client_orderid=order)
    hooks.after_answer(hooks.before_send(req), answered(req, "type=async-response"))


def test_a_send_goes_on_while_another_threads_transaction_is_open(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _registered(team_db)
    with TeamJournal(team_db.dsn("alice"), connections=2) as journal:
        inside, leave = threading.Event(), threading.Event()

        def slow() -> None:  # a row's transaction that takes its time (a slow server)
            with journal.writing():
                inside.set()
                leave.wait(30)

        other = threading.Thread(target=slow)
        other.start()
        try:
            assert inside.wait(10)
            sent = threading.Thread(target=_send, args=(journal, rsa_key, "po-1"))
            sent.start()
            sent.join(10)
            assert not sent.is_alive(), "the send waited for another row's transaction"
        finally:
            leave.set()
            other.join()
        assert [row.client_orderid for row in journal.fetch()] == ["po-1"]


def test_a_send_on_its_way_from_any_thread_is_not_taken_for_an_interrupted_one(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _registered(team_db)
    journal = TeamJournal(team_db.dsn("alice"), connections=3)
    rows: list[int] = []

    def begin(order: str) -> None:  # the pending row, committed; the answer not yet here
        hooks = journal.journal("acme-sb")
        req = prepared(
            rsa_key, "payout-check", base_url=env_base_url("acme-sb"), client_orderid=order
        )
        rows.append(hooks.before_send(req))

    threads = [threading.Thread(target=begin, args=(f"po-{n}",)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(rows) == 3
    with TeamJournal(team_db.dsn("dave")) as other_console:
        assert other_console.recover_interrupted() == []  # alice's process still sends
        journal.close()  # her process stops: its sessions end
        lost: list[int] = []

        def all_taken() -> bool:  # a session's server process ends a moment after it closes
            lost.extend(other_console.recover_interrupted())
            return sorted(lost) == sorted(rows)

        wait_for(all_taken, timeout=10, every=0.05)
        assert sorted(lost) == sorted(rows)


def test_its_own_rows_are_told_to_its_listeners_once(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _registered(team_db)
    heard: list[tuple[str, int]] = []
    with TeamJournal(team_db.dsn("alice"), connections=2) as journal:
        journal.subscribe(lambda event, row: heard.append((event, row)))
        threads = [
            threading.Thread(target=_send, args=(journal, rsa_key, f"po-{n}")) for n in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with TeamJournal(team_db.dsn("dave")) as dave:  # someone else's row: heard once too
            _send(dave, rsa_key, "dave-1")
        threading.Event().wait(1.0)  # the listener's turn (it looks every 0.2 s)
    added = [row for event, row in heard if event == "added"]
    assert len(added) == len(set(added)) == 5
