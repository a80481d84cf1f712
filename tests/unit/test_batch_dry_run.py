"""A batch's dry run says what the run would do, row by row, and nothing leaves: each row
signed, or skipped with the pipeline's refusal and its words; on production the batch's one
confirmation answers each row; a team's rows are not held one by one (the batch was approved
as a whole). And the time a batch spent paused is left out of its rows per second."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import batch
from console.core.history import History
from console.core.pipeline import Check, Refusal
from tests.helpers.batch_files import card_file
from tests.helpers.http_server import Reply, serve
from tests.helpers.pipeline import planned_batch
from tests.helpers.team import FORM, accepted

NOWHERE = "https://gw.example/paynet"  # never reached: a dry run sends nothing


def _conn(key: rsa.RSAPrivateKey, url: str = NOWHERE) -> dict[str, Any]:
    return {"base_url": url, "login": "m", "private_key": key, "endpoint_id": "1"}


class HoldsEveryRow:
    """A team's approval rule that holds every request it may hold for a checker."""

    def __call__(self, pipeline: Any, check: Check, *, approval: bool = True) -> Any:
        if not approval:
            return None
        raise AssertionError("a row of a batch is never held on its own")


def _dry_run(
    tmp_path: Path, conn: dict[str, Any], *, production: bool = False, holds: Any = None
) -> batch.BatchReport:
    path = card_file(tmp_path / "b.csv", 2)
    with History() as history:
        pipeline, plan = planned_batch(history, path, conn, production=production, holds=holds)
        return batch.sign_rows(pipeline, conn, plan)


@pytest.mark.parametrize("production", [False, True], ids=["sandbox", "production"])
def test_a_dry_run_signs_every_row_and_says_so(
    production: bool, tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    report = _dry_run(tmp_path, _conn(rsa_key), production=production)
    assert [(r.number, r.result, r.message) for r in report.results] == [
        (2, batch.SIGNED, "signed, not sent"),
        (3, batch.SIGNED, "signed, not sent"),
    ]
    assert report.count(batch.SIGNED) == 2
    assert report.count(batch.SKIPPED) == 0
    assert 0 <= report.elapsed < 60


def test_a_dry_run_skips_rows_the_pipeline_refuses_with_its_words(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    report = _dry_run(tmp_path, _conn(rsa_key, "http://gw.example/paynet"))
    assert [(r.number, r.result, r.refusal) for r in report.results] == [
        (2, batch.SKIPPED, Refusal.PLAIN_HTTP),
        (3, batch.SKIPPED, Refusal.PLAIN_HTTP),
    ]
    assert report.results[0].message.startswith("Not sent: http://gw.example/paynet/")
    assert report.count(batch.SKIPPED) == 2


def test_a_teams_dry_run_does_not_hold_rows_one_by_one(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    report = _dry_run(tmp_path, _conn(rsa_key), holds=HoldsEveryRow())
    assert report.count(batch.SIGNED) == 2


def test_the_time_paused_is_left_out_of_the_rows_per_second(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = iter([100.0, 110.0, 130.0, 140.0, 150.0, 160.0, 170.0, 170.0])
    monkeypatch.setattr("console.core.batch.runner.time.perf_counter", lambda: next(clock))
    path = card_file(tmp_path / "b.csv", 1)
    conn = _conn(rsa_key)
    with History() as history:
        pipeline, plan = planned_batch(history, path, conn)
        runner = batch.BatchRunner(pipeline, conn, plan, batch.BatchDecision())
        runner.pause()  # at 100
        runner.resume()  # at 110: 10 s paused
        runner.pause()  # at 130
        runner.resume()  # at 140: 20 s paused in all
        progress = runner.progress(1, 4)  # at 150, started at 0: 150 s, 130 s running
        runner.pause()  # at 160
        while_paused = runner.progress(1, 4)  # at 170, paused since 160: 140 s running
    assert (progress.elapsed, progress.done, progress.total) == (130.0, 1, 4)
    assert not progress.paused
    assert while_paused.elapsed == 140.0
    assert while_paused.paused


def test_a_confirmed_production_batch_sends_each_row_and_tells_its_progress(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = card_file(tmp_path / "b.csv", 3)
    told: list[tuple[int, int, int]] = []
    running: list[float] = []  # the seconds running each progress line shows
    with serve(lambda r: Reply(200, accepted(), FORM)) as server, History() as history:
        conn = _conn(rsa_key, server.url)
        pipeline, plan = planned_batch(history, path, conn, env="live", production=True)
        runner = batch.BatchRunner(
            pipeline, conn, plan, batch.BatchDecision(confirmed=plan.summary)
        )

        def on_row(row: batch.RowResult, progress: batch.Progress) -> None:
            told.append((row.number, progress.done, progress.total))
            running.append(progress.elapsed)
            if progress.done == 2:
                runner.stop()  # the person stops it after the second row

        runner.on_row = on_row
        report = runner.run()
    assert [(r.number, str(r.result)) for r in report.results] == [(2, "accepted"), (3, "accepted")]
    assert told == [(2, 1, 3), (3, 2, 3)]
    assert report.stopped == "Stopped: the rest was not sent."
    assert 0 <= report.elapsed < 60
    assert 0 <= running[0] <= running[1] <= report.elapsed  # counted from the run's start
    assert len(server.received) == 2


def test_a_run_skips_rows_the_pipeline_refuses_and_sends_nothing(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = card_file(tmp_path / "b.csv", 2)
    conn = _conn(rsa_key, "http://gw.example/paynet")  # plain http beyond this computer
    with History() as history:
        pipeline, plan = planned_batch(history, path, conn)
        report = batch.BatchRunner(pipeline, conn, plan, batch.BatchDecision()).run()
    assert [(r.number, r.result, r.refusal) for r in report.results] == [
        (2, batch.SKIPPED, Refusal.PLAIN_HTTP),
        (3, batch.SKIPPED, Refusal.PLAIN_HTTP),
    ]


class _Counted:
    """A transport stand-in that says whether it was closed."""

    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_a_worker_keeps_one_transport_and_all_are_closed_at_the_end() -> None:
    made: list[_Counted] = []

    def make() -> Any:
        made.append(_Counted())
        return made[-1]

    pool = batch.TransportPool(make)
    first = pool()
    assert pool() is first  # one connection kept alive per worker thread
    pool.close()
    assert len(made) == 1
    assert first.closed
