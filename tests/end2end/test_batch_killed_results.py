"""A batch killed with SIGKILL leaves a results file that tells the truth: a row the gateway
holds an order for never says "not sent yet" (a person paying "unsent" rows by hand would
pay it twice); compared row by row with the sandbox's orders."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core import batch as core
from console.core.history import History
from console.sandbox import SandboxHandle
from tests.helpers.batch_files import card_file, results
from tests.helpers.sandbox_client import demo_pipeline, kill_9_after_payouts, payouts

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("concurrency", ["1", "3"])
def test_after_kill_9_no_row_the_gateway_holds_says_not_sent_yet(
    sandbox: SandboxHandle,
    conn: list[str],
    tmp_path: Path,
    concurrency: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = card_file(tmp_path / "p.csv", 60, "k")
    # every answer takes 0.3 s: a kill lands while requests are at the gateway
    sandbox.set_faults("latency=0.3")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "console", "batch", "run", str(path), *conn]
    proc = subprocess.Popen(
        [*cmd, "--concurrency", concurrency],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    kill_9_after_payouts(proc, sandbox, 5, poll=0.01)
    time.sleep(0.5)  # the requests in flight reach the sandbox's books
    held = payouts(sandbox)
    assert 5 <= sum(held.values()) < 60
    written = results(tmp_path / "p.results.csv")
    assert len(written) == 60
    for order_id, row in written.items():
        if held[order_id]:  # the gateway holds it: never "not sent yet"
            assert row["outcome"] in ("accepted", "unknown"), (order_id, row)
        if row["outcome"] == "unknown":
            assert "outcome unknown" in row["error"].lower() or row["error"], row
    said_unsent = {oid for oid, row in written.items() if row["outcome"] == "not sent yet"}
    assert said_unsent, "the kill came after the last row: nothing was tested"
    assert not said_unsent & set(held)

    # rebuilt from the journal alone (its pending rows): still no held row "not sent yet"
    main(["batch", "status", str(path)])
    rebuilt = results(tmp_path / "p.results.csv")
    for order_id, row in rebuilt.items():
        if held[order_id]:
            assert row["outcome"] in ("accepted", "unknown"), (order_id, row)
        if row["outcome"] == "unknown":
            assert "outcome unknown" in row["error"].lower() or "may have" in row["error"], row

    # a status check settles each row as the sandbox's books say
    sandbox.set_faults(None)
    capsys.readouterr()
    main(["batch", "status", str(path), *conn, "--check"])
    said = capsys.readouterr().out
    checked = results(tmp_path / "p.results.csv")
    for order_id, row in checked.items():
        if held[order_id]:
            assert row["outcome"] == "accepted", (order_id, row)
        elif row["outcome"] == "unknown":
            # journalled, then killed before it left (its sync to disk came first): the
            # check says it never arrived and how to send it again
            assert f"{order_id}: the gateway holds no order for it: it never arrived" in said
        else:
            assert row["outcome"] == "not sent yet", (order_id, row)


def test_rows_told_as_leaving_that_a_stopped_run_never_sent_say_not_sent_yet(
    sandbox: SandboxHandle, tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The file is written ahead of the rows (a block at a time); a run that stops by itself
    at an unknown outcome puts the rows it did not send back to "not sent yet"."""
    path = card_file(tmp_path / "p.csv", 40, "s")
    with History() as journal:
        pipeline, connection = demo_pipeline(sandbox, rsa_key, journal)
        v = core.check_batch(core.read_batch(path), lambda o: pipeline.verdict(core.COMMAND, o))
        plan = core.Plan(v, "sandbox", False, core.BatchLimits(100))
        out = tmp_path / "p.results.csv"
        results_file = core.ResultsFile(out, core.result_lines(v, pipeline))
        written: list[dict[str, dict[str, str]]] = []

        def on_row(result: core.RowResult, progress: core.Progress) -> None:
            results_file.update(result)
            if progress.done == 12:  # from the 13th payout on, the answer is lost
                written.append(results(out))
                sandbox.set_faults("payout-check:drop")

        runner = core.BatchRunner(
            pipeline, connection, plan, core.BatchDecision(), on_row=on_row, leaving=results_file
        )
        report = runner.run()
        results_file.flush()
    assert report.stopped.startswith("Stopped at row 14")
    # while it ran, rows ahead of the one in flight were on disk as "sent, outcome unknown"
    assert written[0]["s-12"]["outcome"] == "unknown"
    final = results(out)
    assert [final[f"s-{i}"]["outcome"] for i in range(13)] == ["accepted"] * 12 + ["unknown"]
    assert "broke after the request was sent" in final["s-12"]["error"]  # its own words
    assert {final[f"s-{i}"]["outcome"] for i in range(13, 40)} == {"not sent yet"}
    assert {final[f"s-{i}"]["error"] for i in range(13, 40)} == {""}
    assert sum(payouts(sandbox).values()) == 13
