"""Helpers for the journal, history, callbacks and status tests of the window."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from console.core.history import HistoryRow
from console.ui.history.pane import HistoryPane
from console.ui.main_window import MainWindow

PAN = "4444444444444448"


def pane_of(window: MainWindow) -> HistoryPane:
    window.journal.history_dock.show()
    return window.journal.pane


def shown_rows(qtbot: Any, pane: HistoryPane, expected: int | None = None) -> list[HistoryRow]:
    """The rows the pane shows once its reads have arrived (waits for ``expected`` rows)."""
    model = pane.model

    def ready() -> bool:
        if model.loading:
            return False
        if expected is not None and model.rowCount() != expected:
            return False
        return all(model.row_at(i) is not None for i in range(min(model.rowCount(), 200)))

    for i in range(min(model.rowCount(), 200)):
        model.data(model.index(i, 0))  # asks for the page like a view would
    qtbot.waitUntil(ready, timeout=10_000)
    rows = [model.row_at(i) for i in range(min(model.rowCount(), 200))]
    return [r for r in rows if r is not None]


def send_form(qtbot: Any, window: MainWindow, timeout: int = 20_000) -> Any:
    """Send the current form and wait for the outcome."""
    shown_before = window.last_outcome
    window.send()
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=timeout)
    return window.last_outcome


def send_payout(qtbot: Any, window: MainWindow, client_orderid: str, **values: str) -> Any:
    window.show_command("payout-check")
    window.fill_example()
    window.form.load({"client_orderid": client_orderid, **values})
    outcome = send_form(qtbot, window)
    assert str(outcome.result) == "accepted", outcome.summary
    return outcome


def dead_pid() -> int:
    """The id of a process that has ended."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def bulk_rows(db_path: Path, count: int, environment: str = "bulk") -> None:
    """``count`` answered payout rows written straight into the journal (fast)."""
    now = time.time() - 3600
    with sqlite3.connect(db_path) as db:
        db.executemany(
            "INSERT INTO requests (created, environment, command, url, client_orderid,"
            " amount, currency, receiver, last4, outcome) VALUES"
            " (?, ?, 'payout-check', 'https://gateway.example/paynet', ?, '1.00', 'EUR',"
            " 'card 444444******4448', '4448', 'accepted')",
            ((now + i * 0.001, environment, f"bulk-{i:06d}") for i in range(count)),
        )


def settle(qtbot: Any) -> None:
    """Let layouts, splitters and dock separators follow a resize or a dock shown."""
    from PySide6.QtWidgets import QApplication

    for _ in range(3):
        QApplication.sendPostedEvents()
        qtbot.wait(30)
