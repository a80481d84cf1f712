"""While other sends are open, an answer is written with the journal's next transaction (the
next pending row's) instead of one of its own: one transaction per row while a batch runs.
Readers of this journal see every answer at once; other processes with the next write, the
last open send's answer, or the close.

The journal is watched from a second SQLite connection, as another console would.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history import History
from tests.helpers.history_data import answered, prepared

ACCEPTED = "type=async-response&merchant-order-id={id}&paynet-order-id=77&serial-number=s1"


def _outcome(db: sqlite3.Connection, order: str) -> str:
    row = db.execute("SELECT outcome FROM requests WHERE client_orderid = ?", (order,)).fetchone()
    return str(row[0])


def test_an_answer_rides_with_the_next_pending_row_while_sends_are_open(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = tmp_path / "journal.sqlite3"
    with History(path) as journal:
        hooks = journal.journal("sb")
        sends = {o: prepared(rsa_key, client_orderid=o) for o in ("a-1", "a-2", "a-3")}
        other = sqlite3.connect(path)  # another console reading the same journal
        ids = {o: hooks.before_send(sends[o]) for o in ("a-1", "a-2")}

        hooks.after_answer(ids["a-1"], answered(sends["a-1"], ACCEPTED.format(id="a-1")))
        assert _outcome(other, "a-1") == "pending"  # no transaction of its own: a-2 is open
        ids["a-3"] = hooks.before_send(sends["a-3"])  # one transaction: a-1's answer, a-3
        assert _outcome(other, "a-1") == "accepted"
        assert _outcome(other, "a-3") == "pending"

        hooks.after_answer(ids["a-2"], answered(sends["a-2"], ACCEPTED.format(id="a-2")))
        assert journal.sent_before(None, "payout-check", "a-2", "sb")[0].outcome == "accepted"
        hooks.after_answer(ids["a-3"], answered(sends["a-3"], ACCEPTED.format(id="a-3")))
        # the last open send's answer is written at once, with whatever waited
        assert [_outcome(other, o) for o in ("a-2", "a-3")] == ["accepted", "accepted"]
        other.close()


def test_answers_waiting_when_the_journal_closes_are_written(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = History(path)
    hooks = journal.journal("sb")
    first, second = prepared(rsa_key, client_orderid="c-1"), prepared(rsa_key, client_orderid="c-2")
    one, _two = hooks.before_send(first), hooks.before_send(second)  # c-2 never answers
    hooks.after_answer(one, answered(first, ACCEPTED.format(id="c-1")))
    journal.close()
    with sqlite3.connect(path) as db:
        assert _outcome(db, "c-1") == "accepted"
