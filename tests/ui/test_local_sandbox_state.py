"""The built-in sandbox keeps its orders in the profile, so History's rows of an earlier
session can still be checked after a restart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from console.core.paths import resolve
from console.ui.main_window import MainWindow
from console.ui.session import LOCAL_SANDBOX_STATE
from tests.ui.journal_helpers import pane_of, send_payout, shown_rows


def _check_first_row(qtbot: Any, window: MainWindow) -> str:
    """Check status on History's payout row; the History's message once it has answered."""
    pane = pane_of(window)
    rows = shown_rows(qtbot, pane)
    payout = next(i for i, r in enumerate(rows) if r.command == "payout-check")
    pane.select_position(payout)
    before = pane.message.text()
    pane.actions_by_name["status"].trigger()
    qtbot.waitUntil(lambda: pane.message.text() not in ("", before), timeout=15_000)
    qtbot.waitUntil(lambda: "Checking" not in pane.message.text(), timeout=15_000)
    return pane.message.text()


def test_a_status_check_after_a_restart_finds_the_order(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    first = make_window(sandbox_options={"callback_delay": 0})
    send_payout(qtbot, first, "kept-1", **{"@callback": "none"})
    first.close()
    again = make_window(sandbox_options={"callback_delay": 0})
    words = _check_first_row(qtbot, again)
    assert "approved" in words
    assert "No order" not in words
    assert (resolve().state_dir / LOCAL_SANDBOX_STATE).exists()


def test_a_second_console_on_the_same_profile_says_its_orders_are_not_kept(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    first = make_window()
    second = make_window()  # the first one's sandbox holds the profile's state file
    assert first.session.ready
    assert second.session.ready
    words = second.panel.result_of(second.command)[1]
    assert "in memory only" in words
    assert "another Gateway Console" in words
    assert "in memory only" not in first.panel.result_of(first.command)[1]
