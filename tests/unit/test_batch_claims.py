"""A batch's next rows are claimed in the journal a block at a time (one transaction, one
sync), ahead of their turn: what a person sees when claimed rows are not sent after all.
The run stopped (an unknown outcome, the person's stop) or paused first: those rows are
"not sent" in the history, with the reason, and never reach the gateway; after a pause they
go once each. A row the journal cannot write stops the batch before any row of its block
leaves."""

from __future__ import annotations

import random
import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import batch as core
from console.core.errors import SendRefusedError
from console.core.history import History
from console.core.order_facts import client_orderid
from console.core.pipeline import Claimed, Decision, Pipeline, Ready, Refused, RefusedError
from tests.helpers.batch_files import card_file
from tests.helpers.http_server import Received, Reply, serve
from tests.helpers.pipeline import batch_pipeline
from tests.helpers.team import FORM, accepted, payout_values, prepare_values

STOPPED = "Not sent: the batch stopped before this row's turn."
PAUSED = "Not sent: held back when the batch was paused (sent later if the batch resumes)."
NOT_WRITTEN = "Not sent: the journal could not write every row of its block."


def _order(request: Received) -> str:
    return dict(p.split("=", 1) for p in request.body.decode().split("&"))["client_orderid"]


def _accepting(request: Received) -> Reply:
    return Reply(200, accepted(_order(request)), FORM)


def _plan(path: Path, pipeline: Pipeline) -> core.Plan:
    validation = core.check_batch(
        core.read_batch(path), lambda oid: pipeline.verdict(core.COMMAND, oid)
    )
    return core.Plan(validation, "test", False, core.BatchLimits(100))


def _journal(history: History) -> dict[str, list[tuple[str, str]]]:
    """Each order id's journal rows, oldest first: (outcome, summary)."""
    rows: dict[str, list[tuple[str, str]]] = {}
    for row in reversed(history.fetch(limit=1000)):
        rows.setdefault(row.client_orderid or "", []).append((row.outcome, row.summary or ""))
    return rows


def _sending() -> list[str]:
    """The batch's threads still running."""
    return [t.name for t in threading.enumerate() if t.name.startswith("batch")]


def _on_prepare(
    monkeypatch: pytest.MonkeyPatch, pipeline: Pipeline, act: Callable[[str], None]
) -> None:
    """``act(order id)`` as each row is prepared (in the thread that claims its block)."""
    prepare = pipeline.prepare

    def preparing(command: str, values: Any, **kw: Any) -> Any:
        act(values["client_orderid"])
        return prepare(command, values, **kw)

    monkeypatch.setattr(pipeline, "prepare", preparing)


def _runner(
    history: History, server_url: str, key: rsa.RSAPrivateKey, path: Path, **kw: Any
) -> tuple[core.BatchRunner, Pipeline]:
    conn = {"base_url": server_url, "login": "merchant", "private_key": key, "endpoint_id": "1"}
    pipeline = batch_pipeline(history, conn)
    return core.BatchRunner(pipeline, conn, _plan(path, pipeline), core.BatchDecision(), **kw), (
        pipeline
    )


def test_rows_claimed_ahead_of_a_stop_are_not_sent_in_the_history_and_never_leave(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    """b-0 fails (a 500: outcome unknown, the run stops) while b-1..b-3 are still at the
    gateway and the next block, b-4..b-7, is claimed: those four never leave."""
    path = card_file(tmp_path / "b.csv", 12)

    def gateway(request: Received) -> Reply:
        order = _order(request)
        time.sleep(0.3 if order == "b-0" else 0.8)
        return Reply(500, b"") if order == "b-0" else Reply(200, accepted(order), FORM)

    with serve(gateway) as server, History() as history:
        batch, _pipeline = _runner(history, server.url, rsa_key, path, concurrency=4)
        told: list[tuple[str, int]] = []
        history.subscribe(lambda event, row_id: told.append((event, row_id)))
        report = batch.run()
        received = sorted(_order(r) for r in server.received)
        journal = _journal(history)
        withdrawn = [r for r in history.fetch(limit=100) if r.outcome == "not-sent"]
    assert received == ["b-0", "b-1", "b-2", "b-3"]
    for row in withdrawn:  # the history pane is told, and shows when each was withdrawn
        assert told.count(("changed", row.id)) == 1
        assert row.finished is not None
        assert row.finished >= row.created
    assert report.stopped.startswith("Stopped at row 2: the gateway failed")
    assert [str(r.result) for r in report.results] == ["gateway-failed"] + ["accepted"] * 3
    assert {order: rows[-1][0] for order, rows in journal.items()} == {
        "b-0": "gateway-failed",
        **{f"b-{n}": "accepted" for n in (1, 2, 3)},
        **{f"b-{n}": "not-sent" for n in (4, 5, 6, 7)},
    }
    assert all(journal[f"b-{n}"] == [("not-sent", STOPPED)] for n in (4, 5, 6, 7))


def test_a_pause_withdraws_the_claimed_rows_and_the_resumed_run_sends_each_row_once(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = card_file(tmp_path / "b.csv", 8)
    paused = threading.Event()

    def gateway(request: Received) -> Reply:
        time.sleep(0.1)
        return Reply(200, accepted(_order(request)), FORM)

    def on_row(result: core.RowResult, progress: core.Progress) -> None:
        if not paused.is_set():  # the first answer: the person pauses for a moment
            paused.set()
            batch.pause()
            threading.Timer(0.5, batch.resume).start()

    with serve(gateway) as server, History() as history:
        batch, _pipeline = _runner(history, server.url, rsa_key, path, concurrency=2)
        batch.on_row = on_row
        report = batch.run()
        received = sorted(_order(r) for r in server.received)
        journal = _journal(history)
    ids = [f"b-{n}" for n in range(8)]
    assert received == ids  # each row once, the withdrawn ones after the pause
    assert [str(r.result) for r in report.results] == ["accepted"] * 8
    assert report.stopped == ""
    withdrawn = [order for order, rows in journal.items() if ("not-sent", PAUSED) in rows]
    assert withdrawn  # the rows claimed when the pause came
    for order in ids:  # withdrawn, then claimed again and accepted; none left pending
        assert journal[order][-1][0] == "accepted"
        assert all(outcome == "not-sent" for outcome, _summary in journal[order][:-1])


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_row_the_journal_cannot_write_stops_the_batch_before_its_block_leaves(
    concurrency: int, tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The journal refuses b-2's pending row (a trigger stands in for a full disk): at one
    row at a time b-0 and b-1 went before; in blocks of four none of b-0..b-3 leaves, and
    the first row of the block says why."""
    path = card_file(tmp_path / "b.csv", 8)
    with serve(_accepting) as server, History() as history:
        with sqlite3.connect(history.path) as other:
            other.execute(
                "CREATE TRIGGER full BEFORE INSERT ON requests WHEN NEW.client_orderid = 'b-2'"
                " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
            )
        batch, _pipeline = _runner(history, server.url, rsa_key, path, concurrency=concurrency)
        report = batch.run()
        received = sorted(_order(r) for r in server.received)
        journal = _journal(history)
    before = ["b-0", "b-1"] if concurrency == 1 else []
    assert received == before
    failed = [r for r in report.results if str(r.result) == "not-sent"]
    assert "disk is full" in failed[0].message
    assert report.stopped == f"Stopped at row {failed[0].number}: {failed[0].message}."
    assert [r.checked.row.values["client_orderid"] for r in failed] == (
        ["b-2"] if concurrency == 1 else ["b-0"]  # the rest of the block: not taken
    )
    if concurrency > 1:  # written with b-2's block, then withdrawn
        assert {o: journal[o] for o in ("b-0", "b-1", "b-3")} == {
            o: [("not-sent", NOT_WRITTEN)] for o in ("b-0", "b-1", "b-3")
        }
    assert "b-2" not in journal


def test_a_stop_while_the_next_row_is_claimed_sends_none_of_it(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = card_file(tmp_path / "b.csv", 4)
    with serve(_accepting) as server, History() as history:
        batch, pipeline = _runner(history, server.url, rsa_key, path)
        # the person stops while b-2 is claimed
        _on_prepare(monkeypatch, pipeline, lambda order: batch.stop() if order == "b-2" else None)
        report = batch.run()
        received = [_order(r) for r in server.received]
        journal = _journal(history)
    assert received == ["b-0", "b-1"]
    assert report.stopped == "Stopped: the rest was not sent."
    assert journal["b-2"] == [("not-sent", STOPPED)]
    assert "b-3" not in journal


def test_a_block_whose_claim_fails_unexpectedly_stops_the_run_with_the_error(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = card_file(tmp_path / "b.csv", 4)
    with serve(_accepting) as server, History() as history:
        batch, pipeline = _runner(history, server.url, rsa_key, path)

        def failing(order: str) -> None:
            if order == "b-1":
                raise RuntimeError("a fault while b-1 was prepared")

        _on_prepare(monkeypatch, pipeline, failing)
        with pytest.raises(RuntimeError, match="while b-1 was prepared"):
            batch.run()
        received = [_order(r) for r in server.received]
    assert received == ["b-0"]


def test_claiming_refuses_what_a_send_refuses_and_claims_the_rest(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    """On production, a request claimed without the person's confirmation is refused with
    the words a send gives, and writes nothing; the confirmed one beside it goes once."""
    with serve(_accepting) as server, History() as history:
        conn = {"base_url": server.url, "login": "merchant", "private_key": rsa_key}
        conn["endpoint_id"] = "1"
        live = batch_pipeline(history, conn, env="live", production=True)
        checks = [live.prepare(core.COMMAND, payout_values(f"p-{n}"), **conn) for n in (1, 2)]
        unconfirmed = Ready(checks[0], Decision())
        confirmed = Ready(checks[1], Decision(production_confirmed=True))
        refused, claimed = live.claim_each([unconfirmed, confirmed])
        with pytest.raises(RefusedError) as sending:
            live.send(checks[0].prepared, Decision())
        assert isinstance(refused, Refused)
        assert isinstance(claimed, Claimed)
        assert (refused.code, refused.message) == (sending.value.code, sending.value.message)
        assert str(live.send_claimed(claimed).result) == "accepted"
        live.withdraw([], STOPPED)  # nothing to withdraw: nothing written
        journal = _journal(history)
    assert [_order(r) for r in server.received] == ["p-2"]
    assert journal == {"p-2": [("accepted", journal["p-2"][0][1])]}


def test_a_pause_while_the_next_row_is_claimed_holds_it_back_until_the_run_resumes(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = card_file(tmp_path / "b.csv", 4)
    with serve(_accepting) as server, History() as history:
        batch, pipeline = _runner(history, server.url, rsa_key, path)
        arrived: list[tuple[str, bool]] = []

        def pausing(order: str) -> None:
            if order == "b-2" and ("b-2", True) not in arrived:  # paused while it is claimed
                batch.pause()
                threading.Timer(0.3, batch.resume).start()
            arrived.append((order, batch.paused))

        _on_prepare(monkeypatch, pipeline, pausing)
        report = batch.run()
        received = [_order(r) for r in server.received]
        journal = _journal(history)
    assert received == ["b-0", "b-1", "b-2", "b-3"]  # b-2 once, after the pause
    assert [str(r.result) for r in report.results] == ["accepted"] * 4
    assert journal["b-2"][0] == ("not-sent", PAUSED)
    assert journal["b-2"][1][0] == "accepted"
    assert arrived.count(("b-2", True)) == 1  # paused while it was claimed
    assert arrived[-2:] == [("b-2", False), ("b-3", False)]  # claimed again after the pause


def test_a_row_another_console_sent_meanwhile_is_skipped_and_the_rest_of_its_block_goes(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    """b-1 was new when the file was checked, then another console paid it: the journal's
    own check, in the block's transaction, refuses it; b-0, b-2 and b-3 go, once each, and
    b-4, the last row, in a block of one."""
    path = card_file(tmp_path / "b.csv", 5)
    with serve(_accepting) as server, History() as history:
        batch, _pipeline = _runner(history, server.url, rsa_key, path, concurrency=4)
        values = dict(batch.plan.to_send[1].row.values)
        other = batch_pipeline(history, batch.connection)
        assert str(other.send(prepare_values(server.url, rsa_key, values), Decision()).result) == (
            "accepted"
        )
        report = batch.run()
        received = sorted(_order(r) for r in server.received)
    assert received == ["b-0", "b-1", "b-2", "b-3", "b-4"]  # b-1 once: the other console's
    assert [(r.number, str(r.result), r.refusal) for r in report.results] == [
        (2, "accepted", ""),
        (3, "skipped", "accepted-before"),
        (4, "accepted", ""),
        (5, "accepted", ""),
        (6, "accepted", ""),
    ]
    assert "b-1" in report.results[1].message
    assert "accepted" in report.results[1].message
    assert report.stopped == ""


def test_ctrl_c_during_a_run_sends_no_further_row_and_withdraws_the_claimed_ones(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Ctrl+C reaches the thread that runs the batch while rows are at the gateway and the
    next ones are claimed: it stops there (before, the sending threads would have waited
    for a block forever); the rows at the gateway finish, the claimed ones are not sent."""
    path = card_file(tmp_path / "b.csv", 20)
    main = threading.main_thread().ident
    assert main == threading.get_ident()

    def interrupted(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    def gateway(request: Received) -> Reply:
        time.sleep(0.05 if _order(request) == "b-0" else 0.5)
        return Reply(200, accepted(_order(request)), FORM)

    def on_row(result: core.RowResult, progress: core.Progress) -> None:
        if result.number == 2:  # b-0 answered, b-1..b-3 at the gateway: Ctrl+C
            signal.pthread_kill(main, signal.SIGUSR1)

    previous = signal.signal(signal.SIGUSR1, interrupted)
    try:
        with serve(gateway) as server, History() as history:
            batch, _pipeline = _runner(
                history, server.url, rsa_key, path, concurrency=4, on_row=on_row
            )
            with pytest.raises(KeyboardInterrupt):
                batch.run()
            deadline = time.monotonic() + 10  # the rows at the gateway finish, then nothing
            while _sending() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not _sending()
            received = sorted(_order(r) for r in server.received)
            journal = _journal(history)
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert len(received) < 20
    assert {o: rows[-1][0] for o, rows in journal.items() if o in received} == dict.fromkeys(
        received, "accepted"
    )
    withdrawn = {o: rows for o, rows in journal.items() if o not in received}
    assert withdrawn  # claimed for the next turns when Ctrl+C came
    assert all(rows == [("not-sent", STOPPED)] for rows in withdrawn.values())


def test_one_row_at_a_time_claims_nothing_ahead(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> None:
    """At concurrency 1 (the default) the journal's pending row is written just before its
    own request leaves, never the next one's: when each request arrives, the only pending
    row is its own, so a crash leaves no other row unknown."""
    path = card_file(tmp_path / "b.csv", 5)
    with History() as history:
        pending: list[list[str]] = []

        def gateway(request: Received) -> Reply:
            with sqlite3.connect(history.path) as look:
                rows = look.execute(
                    "SELECT client_orderid FROM requests WHERE outcome = 'pending'"
                ).fetchall()
            pending.append([order for (order,) in rows])
            return Reply(200, accepted(_order(request)), FORM)

        with serve(gateway) as server:
            batch, _pipeline = _runner(history, server.url, rsa_key, path)
            report = batch.run()
    assert [str(r.result) for r in report.results] == ["accepted"] * 5
    assert pending == [[f"b-{n}"] for n in range(5)]


def test_stop_or_pause_pressed_at_any_moment_never_leaves_a_run_waiting(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    """150 short runs at one, two or four rows at a time, each stopped, or paused and
    resumed, at a random moment (seeded): every run ends. A stop that came while a thread
    waited for the next block used to leave it waiting for a block that never came."""
    rnd = random.Random(1)
    with serve(_accepting) as server, History() as history:
        for run in range(150):
            path = card_file(tmp_path / f"b{run}.csv", 30, f"r{run}")
            batch, _pipeline = _runner(
                history, server.url, rsa_key, path, concurrency=rnd.choice([1, 2, 4])
            )
            stop = rnd.random() < 0.5
            threading.Timer(rnd.uniform(0, 0.05), _press, (batch, stop)).start()
            reports: list[core.BatchReport] = []
            running = threading.Thread(target=_run_into, args=(batch, reports))
            running.start()
            running.join(timeout=10)
            assert reports, f"run {run} still waits after {'stop' if stop else 'pause'}"


def _press(batch: core.BatchRunner, stop: bool) -> None:
    """Stop, or pause and resume a moment later."""
    if stop:
        batch.stop()
    else:
        batch.pause()
        time.sleep(0.01)
        batch.resume()


def _run_into(batch: core.BatchRunner, reports: list[core.BatchReport]) -> None:
    reports.append(batch.run())


def test_where_a_rule_may_hold_rows_each_row_is_claimed_at_its_turn_and_a_refused_one_skipped(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    """A team's approval rule is asked of each row (here it refuses b-1 and holds nothing
    else): rows are then claimed one by one at their turn, never in blocks; the refused row
    is skipped in the rule's words and the others go once each."""
    path = card_file(tmp_path / "b.csv", 4)

    def rule(pipeline: Any, check: Any, *, approval: bool = True) -> None:
        if client_orderid(check.prepared.params) == "b-1":
            raise SendRefusedError("Not sent: the team has not registered this gateway.")

    with serve(_accepting) as server, History() as history:
        conn = {"base_url": server.url, "login": "merchant", "private_key": rsa_key}
        conn["endpoint_id"] = "1"
        held = batch_pipeline(history, conn, holds=rule)
        assert not held.claims_in_blocks
        plan = _plan(path, held)
        report = core.BatchRunner(held, conn, plan, core.BatchDecision(), concurrency=2).run()
        received = sorted(_order(r) for r in server.received)
    assert received == ["b-0", "b-2", "b-3"]
    assert [(r.number, str(r.result)) for r in report.results] == [
        (2, "accepted"),
        (3, "skipped"),
        (4, "accepted"),
        (5, "accepted"),
    ]
    assert report.results[1].message == "Not sent: the team has not registered this gateway."
