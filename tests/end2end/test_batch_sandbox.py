"""``gateway-console batch`` against the local sandbox: each payout reaches the gateway once,
whatever happens to the process, and card data never leaves the person's own file."""

from __future__ import annotations

import csv
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.cli.failures import (
    EXIT_ASK_UNKNOWN,
    EXIT_INVALID,
    EXIT_NOT_FINAL,
    EXIT_OK,
    EXIT_OVER_LIMIT,
    EXIT_REJECTED,
    EXIT_ROWS_SKIPPED,
    EXIT_UNKNOWN,
    EXIT_USAGE,
)
from console.core import batch as core
from console.core.history import History
from console.core.paths import resolve
from console.sandbox import SandboxHandle
from tests.helpers.batch_files import HEADER, PAN, card_file, card_row, results, write_csv
from tests.helpers.http_server import Reply, serve
from tests.helpers.sandbox_client import demo_pipeline, kill_9_after_payouts, payouts

ROOT = Path(__file__).resolve().parents[2]


def test_dry_run_sends_nothing_and_a_run_sends_the_valid_rows_once(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [card_row(f"r-{i}", f"{10 + i}.00") for i in range(4)]
    rows += [card_row("r-1", "50.00"), card_row("r-bad", "ten")]  # a repeated id, a bad amount
    path = write_csv(tmp_path / "payouts.csv", rows)

    assert main(["batch", "validate", str(path), *conn]) == EXIT_INVALID
    assert main(["batch", "run", str(path), *conn]) == EXIT_INVALID  # errors: nothing goes
    assert main(["batch", "run", str(path), *conn, "--dry-run", "--skip-invalid"]) == 0
    assert "3 rows signed, nothing sent" in capsys.readouterr().out
    assert payouts(sandbox) == Counter()

    assert main(["batch", "run", str(path), *conn, "--skip-invalid", "--concurrency", "2"]) == 0
    assert payouts(sandbox) == Counter({"r-0": 1, "r-2": 1, "r-3": 1})
    out = results(tmp_path / "payouts.results.csv")
    assert out["r-0"]["outcome"] == "accepted"
    assert out["r-0"]["gateway_order_id"]
    assert out["r-bad"]["outcome"] == "invalid"
    assert "amount" in out["r-bad"]["error"]

    assert out["r-0"]["environment"] == f"command line ({sandbox.origin.split('//')[1]})"
    capsys.readouterr()
    # the results file names its environment; no status heard yet, rows left out: not final
    assert main(["batch", "status", str(path)]) == EXIT_NOT_FINAL
    assert "6 rows: 3 processing, 3 invalid" in capsys.readouterr().out
    assert main(["batch", "run", str(path), *conn, "--skip-invalid"]) == 0  # again: nothing
    assert "0 to send, 3 accepted before (skipped)" in capsys.readouterr().out
    assert payouts(sandbox) == Counter({"r-0": 1, "r-2": 1, "r-3": 1})


def test_an_id_accepted_earlier_is_skipped_and_card_data_is_never_written(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path
) -> None:
    assert main(["batch", "run", str(card_file(tmp_path / "first.csv", 1, "p")), *conn]) == 0
    path = write_csv(tmp_path / "second.csv", [card_row("p-0"), card_row("p-1", cvv2="987")])
    assert main(["batch", "validate", str(path), *conn]) == 0
    assert main(["batch", "run", str(path), *conn]) == 0
    assert payouts(sandbox) == Counter({"p-0": 1, "p-1": 1})
    # the final statuses come from status answers (CVV2 987: declined by the sandbox)
    assert main(["batch", "status", str(path), *conn, "--check"]) == EXIT_REJECTED
    out = results(tmp_path / "second.results.csv")
    assert (out["p-0"]["outcome"], out["p-0"]["final_status"]) == ("accepted", "approved")
    assert (out["p-1"]["outcome"], out["p-1"]["final_status"]) == ("accepted", "declined")

    written = (tmp_path / "second.results.csv").read_text(encoding="utf-8")
    with sqlite3.connect(resolve().history_db) as db:
        written += "\n".join(db.iterdump())
    log = resolve().log_file
    written += log.read_text(encoding="utf-8") if log.exists() else ""
    assert PAN not in written
    assert "444444******4448" in written
    assert re.search(r"cvv2\W+(987|123)\b", written) is None


def test_status_check_counts_declined_rows_as_declined_with_their_reason(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """50 approved and 10 declined are said as such, never as "60 accepted" and exit 0."""
    rows = [
        card_row(f"d-{i}", f"{10 + i}.{'13' if i % 6 == 5 else '00'}", cvv2="") for i in range(60)
    ]
    path = write_csv(tmp_path / "payouts.csv", rows)
    assert main(["batch", "run", str(path), *conn]) == EXIT_OK
    capsys.readouterr()

    assert main(["batch", "status", str(path), *conn, "--check"]) == EXIT_REJECTED
    said = capsys.readouterr().out
    assert "60 rows: 50 approved, 10 declined" in said
    assert "row 7 d-5: declined: " in said
    assert "insufficient funds" in said.lower()
    out = results(tmp_path / "payouts.results.csv")
    declined = [r for r in out.values() if r["final_status"] == "declined"]
    assert len(declined) == 10
    assert all("insufficient funds" in r["error"].lower() for r in declined)
    assert all(r["error"] == "" for r in out.values() if r["final_status"] == "approved")

    # refreshed later from the journal alone: the same counts and reasons
    assert main(["batch", "status", str(path), *conn]) == EXIT_REJECTED
    assert "60 rows: 50 approved, 10 declined" in capsys.readouterr().out
    assert results(tmp_path / "payouts.results.csv") == out


def test_status_exits_0_only_when_every_row_is_approved(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = card_file(tmp_path / "fine.csv", 3)
    assert main(["batch", "status", str(path), *conn]) == EXIT_NOT_FINAL
    assert "3 rows: 3 not sent" in capsys.readouterr().out
    assert main(["batch", "run", str(path), *conn]) == EXIT_OK
    assert main(["batch", "status", str(path), *conn, "--check"]) == EXIT_OK
    assert "3 rows: 3 approved" in capsys.readouterr().out


def runner_for(
    sandbox: SandboxHandle,
    key: rsa.RSAPrivateKey,
    journal: History,
    path: Path,
    on_row: Callable[[core.RowResult, core.Progress], None],
) -> core.BatchRunner:
    """A batch runner for the sandbox's demo merchant, journalled in ``journal``."""
    pipeline, connection = demo_pipeline(sandbox, key, journal)
    v = core.check_batch(core.read_batch(path), lambda o: pipeline.verdict(core.COMMAND, o))
    plan = core.Plan(v, "sandbox", False, core.BatchLimits(100))
    return core.BatchRunner(pipeline, connection, plan, core.BatchDecision(), on_row=on_row)


def test_an_unknown_outcome_stops_the_batch(
    sandbox: SandboxHandle, tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    def on_row(result: core.RowResult, progress: core.Progress) -> None:
        if progress.done == 2:  # from the third payout on, the answer is lost
            sandbox.set_faults("payout-check:drop")

    with History() as journal:
        path = card_file(tmp_path / "p.csv", 6, "u")
        report = runner_for(sandbox, rsa_key, journal, path, on_row).run()
    assert [r.result for r in report.results] == ["accepted", "accepted", "unknown"]
    assert report.stopped.startswith("Stopped at row 4: its outcome is unknown")
    assert payouts(sandbox) == Counter({"u-0": 1, "u-1": 1, "u-2": 1})  # u-3.. never sent


@pytest.mark.parametrize(
    ("fault", "reached"),
    [("500", ["g-0", "g-1"]), ("garbage", ["g-0", "g-1", "g-2"])],  # 500: not processed
)
def test_a_500_or_an_unreadable_answer_stops_the_batch(
    sandbox: SandboxHandle,
    tmp_path: Path,
    rsa_key: rsa.RSAPrivateKey,
    fault: str,
    reached: list[str],
) -> None:
    def on_row(result: core.RowResult, progress: core.Progress) -> None:
        if progress.done == 2:  # from the third payout on, the gateway fails
            sandbox.set_faults(f"payout-check:{fault}")

    with History() as journal:
        path = card_file(tmp_path / "p.csv", 6, "g")
        report = runner_for(sandbox, rsa_key, journal, path, on_row).run()
    assert [r.result for r in report.results] == ["accepted", "accepted", "gateway-failed"]
    assert report.stopped.startswith("Stopped at row 4: the gateway failed")
    assert payouts(sandbox) == Counter(dict.fromkeys(reached, 1))  # g-3.. never sent


def test_a_run_killed_midway_and_resumed_pays_each_order_once(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path
) -> None:
    path = card_file(tmp_path / "p.csv", 40, "k")
    sandbox.set_faults("latency=0.05")  # slow enough to be killed in the middle
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "console", "batch", "run", str(path), *conn, "--concurrency", "2"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kill_9_after_payouts(proc, sandbox, 8, poll=0.02)
    before = payouts(sandbox)
    assert 8 <= sum(before.values()) < 40
    sandbox.set_faults(None)

    # The rows in flight when it died have an unknown outcome: a plain run refuses.
    assert main(["batch", "run", str(path), *conn]) == EXIT_ASK_UNKNOWN
    assert main(["batch", "status", str(path), *conn, "--check"]) in (EXIT_NOT_FINAL, EXIT_UNKNOWN)
    assert main(["batch", "run", str(path), *conn, "--resend-unknown"]) == 0
    after = payouts(sandbox)
    assert after == Counter({f"k-{i}": 1 for i in range(40)})
    out = results(tmp_path / "p.results.csv")
    assert {row["outcome"] for row in out.values()} == {"accepted"}


def test_production_batch_one_confirmation_and_the_environment_limits(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = conn[conn.index("--key-file") + 1]
    base = ["--base-url", sandbox.base_url, "--login", "demo", "--endpoint-id", "1001"]
    assert main(["env", "add", "live", "--kind", "production", *base]) == 0
    assert main(["keys", "import", key, "--env", "live"]) == 0
    path = card_file(tmp_path / "p.csv", 3, "live")
    run = ["batch", "run", str(path), "--env", "live"]
    capsys.readouterr()

    assert main(run) == EXIT_USAGE  # no terminal to ask, and no --yes: nothing goes
    err = capsys.readouterr().err
    assert "3 payouts from p.csv to PRODUCTION" in err
    assert "Total EUR: 33.00 in 3 payouts" in err
    assert "Largest EUR payout: 12.00 EUR (row 4, card 444444******4448)" in err
    assert PAN not in err
    assert payouts(sandbox) == Counter()

    assert main(["batch", "limits", "--env", "live", "--max-rows", "2"]) == 0
    assert main([*run, "--yes"]) == EXIT_OVER_LIMIT
    assert "exceed the batch limit of environment live (2 rows)" in capsys.readouterr().err
    assert main(["batch", "limits", "--env", "live", "--max-rows", "3", "--max-total", "32"]) == 0
    assert main([*run, "--yes"]) == EXIT_OVER_LIMIT
    assert main(["batch", "limits", "--env", "live", "--clear"]) == 0
    assert payouts(sandbox) == Counter()

    assert main([*run, "--yes"]) == 0
    assert payouts(sandbox) == Counter({"live-0": 1, "live-1": 1, "live-2": 1})


def test_pause_holds_back_rows_until_resumed(
    sandbox: SandboxHandle, tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    paused = threading.Event()

    def on_row(result: core.RowResult, progress: core.Progress) -> None:
        if progress.done == 1:
            runner.pause()
            paused.set()

    with History() as journal:
        runner = runner_for(
            sandbox, rsa_key, journal, card_file(tmp_path / "p.csv", 4, "z"), on_row
        )
        worker = threading.Thread(target=runner.run)
        worker.start()
        assert paused.wait(10)
        time.sleep(0.3)
        assert sum(payouts(sandbox).values()) == 1
        assert runner.progress(1, 4).paused
        runner.resume()
        worker.join(10)
    assert payouts(sandbox) == Counter({f"z-{i}": 1 for i in range(4)})


def test_card_rows_to_this_computer_never_go_through_the_proxies_of_the_environment(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path
) -> None:
    path = card_file(tmp_path / "p.csv", 2, "px")
    with serve(lambda _r: Reply(502, b"proxy")) as proxy:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("NO_PROXY", None)
        env.pop("no_proxy", None)
        for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "HTTPS_PROXY"):
            env[name] = proxy.url
        cmd = [sys.executable, "-m", "console", "batch", "run", str(path), *conn]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert proxy.received == []  # the card numbers and CVV2s went to the sandbox only
    assert payouts(sandbox) == Counter({"px-0": 1, "px-1": 1})


def test_the_results_file_never_holds_a_formula_a_spreadsheet_would_run(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path
) -> None:
    ids = ["=1+2", "@SUM(A1)", "+cmd|' /C calc'!A0", "-2+3", '=HYPERLINK("http://x/")']
    path = tmp_path / "f.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(HEADER)
        writer.writerows(card_row(order, f"{10 + i}.00") for i, order in enumerate(ids))
    main(["batch", "run", str(path), *conn, "--skip-invalid"])
    with (tmp_path / "f.results.csv").open(encoding="utf-8", newline="") as fh:
        written = [row["client_orderid"] for row in csv.DictReader(fh)]
    assert written == ["'" + order for order in ids]  # shown as text, never run


def test_a_row_skipped_for_its_check_digit_makes_the_run_exit_16(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mistyped = card_row("s-1", "11.00")
    mistyped[HEADER.index("credit_card_number")] = PAN[:-1] + "9"  # fails the Luhn check
    path = write_csv(tmp_path / "s.csv", [card_row("s-0"), mistyped])
    assert main(["batch", "run", str(path), *conn]) == EXIT_ROWS_SKIPPED
    assert "row 3 s-1: skipped: The card number 444444******4449 fails" in capsys.readouterr().out
    assert payouts(sandbox) == Counter({"s-0": 1})
    out = results(tmp_path / "s.results.csv")
    assert out["s-0"]["outcome"] == "accepted"
    assert out["s-1"]["outcome"] == "skipped"  # not sent: never "accepted-before"
    assert "check digit" in out["s-1"]["error"]
    with pytest.raises(SystemExit):
        main(["batch", "run", "--help"])
    assert "16 the batch ran; rows were refused when their turn came" in capsys.readouterr().out


def test_a_card_number_failing_its_check_digit_is_reported_alike_by_validate_dry_runs_and_run(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mistyped = card_row("c-1", "11.00")
    mistyped[HEADER.index("credit_card_number")] = PAN[:-1] + "9"  # fails the Luhn check
    path = write_csv(tmp_path / "c.csv", [card_row("c-0"), mistyped])
    said = "row 3 c-1: skipped: The card number 444444******4449 fails the card number check"

    assert main(["batch", "validate", str(path), *conn]) == 0
    out = capsys.readouterr().out
    assert "2 rows: 1 ready," in out
    assert "1 needing a decision" in out
    assert "3  decide    credit_card_number            The card number 444444******4449" in out
    assert "--confirm-card-numbers" in out
    assert "EUR: 1 payouts, total 10.00" in out  # the totals of what a run sends
    for dry in ("sign", "sandbox"):
        assert main(["batch", "run", str(path), *conn, "--dry-run", dry]) == EXIT_ROWS_SKIPPED
        assert said in capsys.readouterr().out
    assert payouts(sandbox) == Counter()
    assert main(["batch", "run", str(path), *conn]) == EXIT_ROWS_SKIPPED
    out = capsys.readouterr().out
    assert "1 to send, 1 needing a decision (skipped" in out
    assert said in out
    assert payouts(sandbox) == Counter({"c-0": 1})

    # the batch's decision lets the row go, and all three say so
    confirmed = [str(path), *conn, "--confirm-card-numbers"]
    assert main(["batch", "validate", *confirmed]) == 0
    out = capsys.readouterr().out
    assert "0 needing a decision" in out
    assert "decide" not in out
    for dry in ("sign", "sandbox"):
        assert main(["batch", "run", *confirmed, "--dry-run", dry]) == 0
        assert "skipped" not in capsys.readouterr().out
    assert main(["batch", "run", *confirmed]) == 0
    assert "1 to send" in capsys.readouterr().out  # c-0 was sent by the first run
    assert payouts(sandbox) == Counter({"c-0": 1, "c-1": 1})


def test_status_check_asks_through_the_environment_the_file_was_run_in(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`batch status FILE --check` with no option: the results file names its environment."""
    key = conn[conn.index("--key-file") + 1]
    base = ["--base-url", sandbox.base_url, "--login", "demo", "--endpoint-id", "1001"]
    assert main(["env", "add", "team-sb", "--kind", "sandbox", *base]) == 0
    path = card_file(tmp_path / "p.csv", 2, "sb")
    assert main(["batch", "run", str(path), "--env", "team-sb", "--key-file", key]) == EXIT_OK
    capsys.readouterr()
    assert main(["batch", "status", str(path), "--check", "--key-file", key]) == EXIT_OK
    said = capsys.readouterr().out
    assert "2 rows: 2 approved" in said
    assert "row 2 sb-0: approved" in said
