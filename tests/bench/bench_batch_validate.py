"""Benchmark: ``gateway-console batch validate`` of a 100,000-row file, the whole process,
beside a plain script that reads the same file with :mod:`csv`, checks each card number's
Luhn digit, reads each amount as a Decimal and looks for repeated ids (the anchor, in the
same run).

Target (issue 24): at most 4x the anchor's time, and a peak memory (maximum resident set of
the process) of at most 100 MB. Every row pays a card number of its own, as in a real file.
The command looks the ids up in a journal of this profile (an environment is named, as a
person would). Medians of 3 runs each; run with
``pytest -s tests/bench/bench_batch_validate.py``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

from tests.helpers.batch_files import card_file
from tests.helpers.processes import timed_process

ROOT = Path(__file__).resolve().parents[2]
ROWS = 100_000
RUNS = 3
TARGET_RATIO = 4.0
TARGET_PEAK_MB = 100.0
_ANCHOR = r"""
import csv, sys
from decimal import Decimal, InvalidOperation

def luhn(digits):
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0

seen, bad, totals = set(), 0, {}
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        oid = row["client_orderid"]
        bad += oid in seen or not luhn(row["credit_card_number"])
        seen.add(oid)
        try:
            amount = Decimal(row["amount"])
        except InvalidOperation:
            bad += 1
            continue
        totals[row["currency"]] = totals.get(row["currency"], 0) + amount
print(len(seen), bad, totals)
"""


def test_validate_a_hundred_thousand_rows_beside_a_plain_script(tmp_path: Path) -> None:
    path = card_file(tmp_path / "big.csv", ROWS, "v", cards=True)  # a card number each
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GATEWAY_CONSOLE_HOME": str(tmp_path / "home")}
    console = ["-m", "console"]
    subprocess.run(
        [sys.executable, *console, "env", "add", "bench", "--kind", "sandbox", "--base-url",
         "https://gw.example", "--login", "merchant", "--endpoint-id", "1234"],
        env=env, cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    script = tmp_path / "anchor.py"
    script.write_text(_ANCHOR, encoding="utf-8")
    peak = tmp_path / "peak"
    ours, anchor = [], []
    for _ in range(RUNS):  # interleaved: both see the same load of a shared machine
        ours.append(
            timed_process([*console, "batch", "validate", str(path), "--env", "bench"], env, peak)
        )
        anchor.append(timed_process([str(script), str(path)], env, peak))
    seconds = statistics.median(s for s, _ in ours)
    plain = statistics.median(s for s, _ in anchor)
    most = max(m for _, m in ours)
    ratio = seconds / plain
    print(
        f"\nbatch validate, {ROWS:,} rows (whole process): {seconds:.2f} s, peak "
        f"{most:.0f} MB; csv + Luhn + Decimal script: {plain:.2f} s, peak "
        f"{max(m for _, m in anchor):.0f} MB; {ratio:.1f}x (target <= {TARGET_RATIO:.0f}x, "
        f"<= {TARGET_PEAK_MB:.0f} MB); load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    assert ratio <= TARGET_RATIO
    assert most <= TARGET_PEAK_MB
