"""``batch validate`` reads a large file as a stream: the same words as a file read whole
(problems, repeated ids, the journal's verdicts looked up a chunk of ids at a time, totals),
in a bounded amount of memory. And a batch's sends share the journal's commits without
losing the rule: each pending row is on disk before its send, one send per order id."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli.batch_output import print_validation
from console.core import batch as core
from console.core.history import History
from console.core.pipeline import Decision, RefusedError, Seen, Verdict
from console.core.prepared import prepare
from tests.helpers.batch_files import card_row, write_csv
from tests.helpers.history_data import answered, lost
from tests.helpers.http_server import Received, Reply, serve
from tests.helpers.pipeline import batch_pipeline
from tests.helpers.team import FORM, accepted

ROOT = Path(__file__).resolve().parents[2]
BAD_PAN = "4444444444444449"  # fails its check digit


def _conn(url: str, key: rsa.RSAPrivateKey) -> dict[str, object]:
    return {"base_url": url, "login": "merchant", "private_key": key, "endpoint_id": "1"}


def _journalled(history: History, conn: dict[str, object], order_id: str, sent: str) -> None:
    """``order_id`` sent before from this environment: accepted, or its answer lost."""
    values = dict(zip(_HEADER, card_row(order_id), strict=True))
    req = prepare(core.COMMAND, values, **conn)  # type: ignore[arg-type]
    hooks = history.journal("test")
    row = hooks.before_send(req)
    hooks.after_answer(
        row, answered(req, "type=async-response&paynet-order-id=77") if sent else lost(req)
    )


_HEADER = (
    "client_orderid", "amount", "currency", "credit_card_number", "card_printed_name",
    "expire_month", "expire_year", "cvv2", "ipaddress",
)  # fmt: skip


def _shown(plan: core.Plan) -> str:
    out = io.StringIO()
    print_validation(plan, warnings=True, out=out)
    return out.getvalue()


@pytest.mark.parametrize("confirm", [False, True])
def test_a_file_read_as_a_stream_is_checked_as_when_read_whole(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey, confirm: bool
) -> None:
    rows = [card_row(f"s-{i}", f"{10 + i}.00") for i in range(12)]
    rows[1] = card_row("s-dup", "30.00")
    rows[8] = card_row("s-dup", "31.00")  # a repeated id, across the chunks of 3 ids
    rows[3] = card_row("s-3", "ten")  # an error
    rows[4][3] = BAD_PAN  # a card number to decide on
    rows[5] = card_row("s-5", "99.00", "USD")
    rows[9][3] = BAD_PAN
    rows[9][1] = "21.00"  # as large as the ready row 12 (s-11 ... 21.00): the first one is named
    path = write_csv(tmp_path / "b.csv", rows)
    with path.open("a", encoding="utf-8") as fh:
        fh.write("only,three,cells\n\ns-last,12.00,EUR," + ",".join(card_row("x")[3:]) + "\n")
    with History(tmp_path / "j.sqlite3") as history:
        conn = _conn("https://gw.example/paynet", rsa_key)
        _journalled(history, conn, "s-6", sent="accepted")  # accepted before: skipped
        _journalled(history, conn, "s-7", sent="")  # unknown outcome: asked
        pipeline = batch_pipeline(history, conn)
        whole = core.check_batch(
            core.read_batch(path),
            pipeline.verdicts(core.COMMAND, (r.client_orderid for r in core.read_batch(path).rows)),
        )
        asked: list[list[str]] = []

        def verdicts(ids: Iterable[str]) -> Callable[[str], Verdict]:
            asked.append(list(ids))
            return pipeline.verdicts(core.COMMAND, asked[-1])

        batch, read = core.stream_batch(path)
        streamed = core.check_stream(batch, read, verdicts, chunk=3)
    limits = core.BatchLimits(100)
    plans = [
        core.Plan(v, "test", False, limits, confirm_card_numbers=confirm) for v in (whole, streamed)
    ]
    assert _shown(plans[1]) == _shown(plans[0])
    assert "s-dup is also on row 10" in _shown(plans[1])
    assert streamed.problems == whole.problems
    assert streamed.error_rows == whole.error_rows
    for state in core.RowState:
        if state is not core.RowState.READY:
            assert streamed.rows_in(state) == whole.rows_in(state)
    assert [r.row.number for r in streamed.rows_in(core.RowState.ACCEPTED)] == [8]
    assert [r.row.number for r in streamed.rows_in(core.RowState.UNKNOWN)] == [9]
    assert streamed.counted == len(whole.rows_in(core.RowState.READY))
    assert plans[1].totals == plans[0].totals
    assert plans[1].send_count == len(plans[0].to_send)
    refused = [plan.refusal() for plan in plans]
    assert refused[0] is not None
    assert refused[1] is not None
    assert str(refused[1]) == str(refused[0])
    assert all(len(ids) <= 3 for ids in asked)
    # read once up to the chunk where the repeated id shows, then again whole: 2 + 5 chunks
    assert len(asked) == 7
    with pytest.raises(ValueError, match="never run"):
        _ = plans[1].to_run


def test_a_file_without_repeated_ids_is_read_once_and_says_what_it_says_read_whole(
    tmp_path: Path,
) -> None:
    rows = [card_row(f"o-{i}", f"{10 + i}.00") for i in range(7)]
    rows[2] = card_row("o-2", "ten")  # an error: still one reading
    path = write_csv(tmp_path / "b.csv", rows)
    never_sent = Verdict(Seen.NEW, "")
    batch, read = core.stream_batch(path)
    readings: list[bool] = []

    def counted(into: core.BatchFile, ids_only: bool = False) -> Iterator[core.Row]:
        readings.append(ids_only)
        return read(into, ids_only=ids_only)

    streamed = core.check_stream(batch, counted, lambda _ids: lambda _id: never_sent, chunk=3)
    whole = core.check_batch(core.read_batch(path), lambda _id: never_sent)
    assert readings == [False]  # the rows only: no first reading of the ids
    assert streamed.problems == whole.problems
    assert streamed.rows == whole.rows_in(core.RowState.INVALID)
    assert streamed.counted == 6


_PEAK = r"""
import atexit, runpy, sys

def peak(path=sys.argv[1]):
    with open("/proc/self/status") as status, open(path, "w") as out:
        out.write(next(l for l in status if l.startswith("VmHWM:")).split()[1])

atexit.register(peak)
sys.argv = ["console", *sys.argv[2:]]
runpy.run_module("console", run_name="__main__", alter_sys=True)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak from /proc")
def test_validate_of_a_large_file_stays_within_a_memory_bound(tmp_path: Path) -> None:
    rows = 60_000
    path = write_csv(
        tmp_path / "big.csv", [card_row(f"m-{i}", f"{i % 900 + 1}.00") for i in range(rows)]
    )
    peak = tmp_path / "peak"
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(peak), "batch", "validate", str(path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"{rows} rows: {rows} ready, 0 with errors" in done.stdout
    megabytes = int(peak.read_text()) / 1024
    assert megabytes < 90, f"peak {megabytes:.0f} MB"  # read whole, the rows alone took more


def test_each_pending_row_is_on_disk_before_its_send_while_threads_share_commits(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    journal = tmp_path / "j.sqlite3"
    unseen: list[str] = []

    def answer(request: Received) -> Reply:
        order = dict(p.split("=", 1) for p in request.body.decode().split("&"))["client_orderid"]
        with sqlite3.connect(journal) as other:  # another connection: committed rows only
            found = other.execute(
                "SELECT outcome FROM requests WHERE client_orderid = ?", (order,)
            ).fetchall()
        other.close()
        if found != [("pending",)]:
            unseen.append(order)
        return Reply(200, accepted(order), FORM)

    path = write_csv(tmp_path / "b.csv", [card_row(f"d-{i}") for i in range(40)])
    with serve(answer) as server, History(journal) as history:
        conn = _conn(server.url, rsa_key)
        pipeline = batch_pipeline(history, conn)
        batch = core.read_batch(path)
        validation = core.check_batch(batch, lambda oid: pipeline.verdict(core.COMMAND, oid))
        plan = core.Plan(validation, "test", False, core.BatchLimits(100))
        report = core.BatchRunner(pipeline, conn, plan, core.BatchDecision(), concurrency=4).run()
        assert report.count("accepted") == 40
        assert len(server.received) == 40
    assert unseen == []


def test_threads_sending_one_order_id_at_once_send_it_once(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    values = dict(zip(_HEADER, card_row("once"), strict=True))
    with (
        serve(lambda r: Reply(200, accepted("once"), FORM, delay=0.5)) as server,
        History(tmp_path / "j.sqlite3") as history,
    ):
        conn = _conn(server.url, rsa_key)
        pipeline = batch_pipeline(history, conn)
        sent: list[str] = []
        refused: list[str] = []
        start = threading.Barrier(8)

        def send() -> None:
            req = prepare(core.COMMAND, values, **conn)  # type: ignore[arg-type]
            start.wait()
            try:
                sent.append(str(pipeline.send(req, Decision()).result))
            except RefusedError as exc:
                refused.append(exc.code)

        threads = [threading.Thread(target=send) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rows = history.sent_before(None, core.COMMAND, "once", "test")
    assert sent == ["accepted"]
    assert refused == ["in-flight"] * 7
    assert len(server.received) == 1
    assert [r.outcome for r in rows] == ["accepted"]
