"""A batch's results file never says "not sent yet" of a row whose request may be at the
gateway: each row is "sent, outcome unknown" on disk before its request leaves, so a
process killed at any moment leaves a truthful file. Rows are told so a block at a time
(the file is not rewritten once a row), a block twice as long while rows go quicker than one
block a second, and back to one row per worker when they do not (so a kill leaves few rows
wrongly said to be on their way). Rows told so that the run then does not send (it
stopped) are "not sent yet" again.

``batch run`` runs in this test's own process against a real HTTP server on 127.0.0.1,
which reads the results file as each request arrives.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import EXIT_GATEWAY_FAILED
from console.core import batch as core
from console.core.batch import runner
from tests.helpers.batch_files import card_file, results
from tests.helpers.http_server import Received, Reply, serve
from tests.helpers.team import FORM, accepted

MAY_HAVE_LEFT = "Sent, outcome unknown: the batch was sending it when this file was written"


def _order(request: Received) -> str:
    return dict(p.split("=", 1) for p in request.body.decode().split("&"))["client_orderid"]


def _run(path: Path, url: str, key_file: Path, concurrency: int = 1) -> int:
    return main(
        ["batch", "run", str(path), "--base-url", url, "--login", "demo",
         "--endpoint-id", "1001", "--key-file", str(key_file),
         "--concurrency", str(concurrency)]
    )  # fmt: skip


def _watching(
    path: Path, answer: Callable[[str], Reply]
) -> tuple[Callable[[Received], Reply], dict[str, dict[str, dict[str, str]]]]:
    """A gateway answering each row with ``answer(order id)``, and what the results file
    held as each row's request arrived (order id -> the file's lines by order id)."""
    seen: dict[str, dict[str, dict[str, str]]] = {}
    out = core.results_path(path)

    def gateway(request: Received) -> Reply:
        order = _order(request)
        seen[order] = results(out)
        return answer(order)

    return gateway, seen


@pytest.mark.parametrize("concurrency", [1, 4])
def test_each_row_is_sent_outcome_unknown_in_the_results_file_before_its_request_leaves(
    concurrency: int, tmp_path: Path, key_file: Path
) -> None:
    path = card_file(tmp_path / "pay.csv", 12)
    gateway, seen = _watching(path, lambda order: Reply(200, accepted(order), FORM))
    with serve(gateway) as server:
        assert _run(path, server.url, key_file, concurrency) == 0
    assert sorted(seen) == sorted(f"b-{n}" for n in range(12))  # each row sent
    for order, lines in seen.items():
        assert lines[order]["outcome"] == "unknown", order
        assert lines[order]["error"].startswith(MAY_HAVE_LEFT), order
    done = results(core.results_path(path))
    assert {line["outcome"] for line in done.values()} == {"accepted"}
    assert {line["error"] for line in done.values()} == {""}


class _Clock:
    """The runner's clock, standing still but where a test moves it on: what is quick and
    what is slow does not depend on how busy the machine is."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    perf_counter = staticmethod(time.perf_counter)


def test_rows_are_told_as_leaving_a_block_at_a_time_doubled_while_quick_one_after_a_slow_one(
    tmp_path: Path, key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One row at a time, b-3's answer taking longer than a second: the rows said to be on
    their way when each request arrives (the one arriving, and those told with it that
    have not left yet)."""
    path = card_file(tmp_path / "pay.csv", 10)
    clock = _Clock()
    monkeypatch.setattr(runner, "time", clock)

    def answer(order: str) -> Reply:
        if order == "b-3":  # its answer takes 1.3 s
            clock.now += 1.3
        return Reply(200, accepted(order), FORM)

    gateway, seen = _watching(path, answer)
    with serve(gateway) as server:
        assert _run(path, server.url, key_file) == 0
    ids = [f"b-{n}" for n in range(10)]

    def on_their_way(n: int) -> list[str]:
        lines = seen[ids[n]]
        return [i for i in ids[n:] if lines[i]["error"].startswith(MAY_HAVE_LEFT)]

    told = [on_their_way(n) for n in range(10)]
    assert told == [
        ["b-0"],  # the first block: one row per worker
        ["b-1", "b-2"],  # told again within a second: twice as many
        ["b-2"],
        ["b-3", "b-4", "b-5", "b-6"],  # twice again; b-3 then takes 1.3 s
        ["b-4", "b-5", "b-6"],
        ["b-5", "b-6"],
        ["b-6"],
        ["b-7"],  # more than a second since the last block: one row again
        ["b-8", "b-9"],
        ["b-9"],
    ]


def test_rows_told_as_leaving_that_a_stopped_run_never_sent_are_not_sent_yet_again(
    tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """b-1's answer is a 500 (its outcome is unknown): the run stops there; b-2, told as leaving
    with b-1, never left, and the file says so."""
    path = card_file(tmp_path / "pay.csv", 5)

    def answer(order: str) -> Reply:
        return Reply(500, b"oops") if order == "b-1" else Reply(200, accepted(order), FORM)

    gateway, seen = _watching(path, answer)
    with serve(gateway) as server:
        assert _run(path, server.url, key_file) == EXIT_GATEWAY_FAILED
    assert sorted(seen) == ["b-0", "b-1"]
    assert (
        "Stopped at row 3: the gateway failed (500 or an unreadable answer), so the outcome is "
        "unknown: check its status before anything else is sent." in capsys.readouterr().out
    )
    assert seen["b-1"]["b-2"]["error"].startswith(MAY_HAVE_LEFT)  # told with b-1
    done = results(core.results_path(path))
    assert [done[f"b-{n}"]["outcome"] for n in range(5)] == [
        "accepted", "gateway-failed", "not sent yet", "not sent yet", "not sent yet"
    ]  # fmt: skip
    assert [done[f"b-{n}"]["error"] for n in (2, 3, 4)] == ["", "", ""]
