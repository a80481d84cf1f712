"""A batch's rows survive a power cut: each row's pending record is on disk (its journal
commit synced) before that row's request leaves, whatever the concurrency, even though a row's
answer is synced only with a later commit.

Watched from outside with ``strace`` on the real ``gateway-console batch run`` process: its
writes to the journal's write-ahead log, the syncs of that log, and what it sends to a real
HTTP server on 127.0.0.1. Skipped where strace is missing or may not trace.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.batch_files import card_row, write_csv
from tests.helpers.http_server import Received, Reply, serve
from tests.helpers.team import FORM, accepted

ROOT = Path(__file__).resolve().parents[2]
ROWS = 16
# ids no other id contains, so a write or a send names exactly one row
IDS = [f"pwr{n:04d}z" for n in range(ROWS)]
_ID = re.compile(r"pwr\d{4}z")
_LINE = re.compile(r"^(\d+)\s+(?:<\.\.\. (\w+) resumed>|(\w+)\()")


@dataclass(frozen=True, slots=True)
class Call:
    """One system call of the traced process: its name, its arguments as strace wrote them,
    and the lines of the trace where it started and where it ended."""

    name: str
    text: str
    start: int
    end: int


def _calls(lines: list[str]) -> list[Call]:
    """The calls of a ``strace -f`` log, a call split across threads joined again."""
    calls: list[Call] = []
    open_calls: dict[str, tuple[str, str, int]] = {}
    for number, line in enumerate(lines):
        match = _LINE.match(line)
        if match is None:
            continue
        pid, resumed, name = match.groups()
        if resumed:
            name, text, start = open_calls.pop(pid, (resumed, "", number))
            calls.append(Call(name, text + line, start, number))
        elif line.endswith("<unfinished ...>"):
            open_calls[pid] = (name, line, number)
        else:
            calls.append(Call(name, line, number, number))
    return calls


def _order(request: Received) -> str:
    return dict(p.split("=", 1) for p in request.body.decode().split("&"))["client_orderid"]


def _traced_batch(tmp_path: Path, key_file: Path, url: str) -> list[str]:
    """The strace lines of one ``batch run --concurrency 4`` of the rows, in order."""
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed")
    probe = subprocess.run([strace, "-o", os.devnull, "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"strace may not trace here: {probe.stderr.decode()[:200]}")
    path = write_csv(tmp_path / "pay.csv", [card_row(i) for i in IDS])
    log = tmp_path / "trace.txt"
    command = [
        strace, "-f", "-y", "-s", "100000", "-o", str(log),
        "-e", "trace=pwrite64,write,fdatasync,fsync,sendto,sendmsg",
        sys.executable, "-m", "console", "batch", "run", str(path), "--base-url", url,
        "--login", "demo", "--endpoint-id", "1001", "--key-file", str(key_file),
        "--concurrency", "4",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GATEWAY_CONSOLE_HOME": str(tmp_path / "home")}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return log.read_text(encoding="utf-8", errors="replace").splitlines()


def test_every_row_is_synced_to_the_journal_before_its_request_leaves(
    tmp_path: Path, key_file: Path
) -> None:
    with serve(lambda r: Reply(200, accepted(_order(r)), FORM)) as server:
        lines = _traced_batch(tmp_path, key_file, server.url)
        received = sorted(_order(r) for r in server.received)
    assert received == sorted(IDS)  # each row sent once

    calls = _calls(lines)
    logged: dict[str, int] = {}  # id -> where its pending row's write to the log ended
    for call in calls:
        if call.name in ("pwrite64", "write") and "-wal>" in call.text:
            for order in _ID.findall(call.text):
                logged[order] = min(logged.get(order, call.end), call.end)
    syncs = [c for c in calls if c.name in ("fdatasync", "fsync") and "-wal>" in c.text]
    sent: dict[str, int] = {}  # id -> where its request started to leave
    for call in calls:
        if call.name in ("sendto", "sendmsg") and "client_orderid=" in call.text:
            for order in _ID.findall(call.text):
                sent[order] = min(sent.get(order, call.start), call.start)
    assert sorted(sent) == sorted(IDS)

    def synced_before_sent(order: str) -> bool:
        written = logged.get(order)
        return written is not None and any(
            written < sync.start and sync.end < sent[order] for sync in syncs
        )

    late = [order for order in IDS if not synced_before_sent(order)]
    assert late == [], "sent before its pending row was synced to disk"
    # and each answer (the row written again) is on disk before the command ends
    last = {o: max(c.end for c in calls if c.name in ("pwrite64", "write") and "-wal>" in c.text
                   and o in c.text) for o in IDS}  # fmt: skip
    unsynced = [o for o in IDS if not any(s.start > last[o] for s in syncs)]
    assert unsynced == []
