"""Status checks and following an order, against the in-process sandbox."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from console.core.order_facts import OrderRef
from console.core.status import Phase, PollPlan
from console.ui.main_window import MainWindow
from console.ui.status_follow import describe
from tests.ui.journal_helpers import pane_of, send_payout, shown_rows

FAST = PollPlan(fast_every=0.2, fast_for=5.0, slow_every=1.0, give_up_after=8.0)
PATIENT = PollPlan(fast_every=0.2, fast_for=120.0, slow_every=1.0, give_up_after=120.0)


@pytest.fixture
def slow_window(make_window: Callable[..., MainWindow]) -> MainWindow:
    """Payouts stay "processing" for a second, and no callback is asked for."""
    return make_window(sandbox_options={"callback_delay": 1.0})


def _no_callback(qtbot: Any, window: MainWindow, client_orderid: str) -> Any:
    return send_payout(qtbot, window, client_orderid, **{"@callback": "none"})


def test_check_status_after_a_payout_updates_the_history_row(
    qtbot: Any, slow_window: MainWindow
) -> None:
    window = slow_window
    pane = pane_of(window)
    _no_callback(qtbot, window, "status-1")
    status = window.status_part
    assert status.check_button.isVisible()
    assert status.follow_button.isVisible()
    row = shown_rows(qtbot, pane, 1)[0]
    assert row.final_status is None
    qtbot.wait(1500)  # the sandbox makes the order final meanwhile
    status.check_button.click()
    qtbot.waitUntil(
        lambda: "The order status is approved (final)" in window.panel.result.text(),
        timeout=10_000,
    )
    payout = next(r for r in shown_rows(qtbot, pane, 2) if r.command == "payout-check")
    assert (payout.final_status, payout.final_status_source) == ("approved", "status")
    status_rows = [r for r in shown_rows(qtbot, pane, 2) if r.command == "status"]
    assert len(status_rows) == 1  # the look-up itself is journalled too


def test_check_status_from_the_history(qtbot: Any, slow_window: MainWindow) -> None:
    window = slow_window
    pane = pane_of(window)
    _no_callback(qtbot, window, "status-2")
    shown_rows(qtbot, pane, 1)
    pane.select_position(0)
    qtbot.wait(1500)
    pane.actions_by_name["status"].trigger()
    qtbot.waitUntil(lambda: "approved" in pane.message.text(), timeout=10_000)
    payout = next(r for r in shown_rows(qtbot, pane, 2) if r.command == "payout-check")
    assert payout.final_status == "approved"
    assert pane.model.data(pane.model.index(pane.model.position_of(payout.id) or 0, 7)) == (
        "approved"
    )


def _finish_now(window: MainWindow, gateway_order_id: str) -> None:
    """Let the sandbox order reach its final status at its next look-up."""
    from console.sandbox.records import Order

    db = window.session.sandbox.sandbox.db
    order = db.get(Order, int(gateway_order_id))
    assert order is not None
    order.due_at = 0.0
    db.update(order, "due_at")


def test_follow_shows_progress_and_stops_by_itself_at_the_final_status(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    # The order stays "processing" until the test lets it finish, and the plan does not give
    # up within the test's waits: what is seen does not depend on how busy the machine is.
    window = make_window(sandbox_options={"callback_delay": 600.0})
    window.status_part.controller.plan = PATIENT
    outcome = _no_callback(qtbot, window, "follow-1")
    follow = window.status_part.follow_last()
    assert follow is not None
    assert follow.strip.isVisible()  # in the status bar
    qtbot.waitUntil(lambda: follow.state.checks >= 1, timeout=15_000)
    # progress, while it is not final (the strip repaints right after the check comes back)
    qtbot.waitUntil(lambda: "processing" in follow.strip.label.text(), timeout=5_000)
    assert not follow.done
    _finish_now(window, outcome.response.get("gateway-order-id"))
    qtbot.waitUntil(lambda: follow.done, timeout=30_000)
    assert follow.state.phase is Phase.FINAL
    assert follow.state.status == "approved"
    assert follow.state.checks >= 2  # processing first, then approved
    assert "final status" in follow.strip.label.text()
    assert follow.strip.button.text() == "Close"
    checks = follow.state.checks
    qtbot.wait(600)  # three polling intervals
    assert follow.state.checks == checks  # nothing more is asked
    follow.strip.button.click()
    assert follow not in window.status_part.controller.follows


def test_follow_can_be_cancelled(qtbot: Any, make_window: Callable[..., MainWindow]) -> None:
    window = make_window(sandbox_options={"callback_delay": 60.0})
    window.status_part.controller.plan = FAST
    _no_callback(qtbot, window, "follow-2")
    follow = window.status_part.follow_last()
    assert follow is not None
    qtbot.waitUntil(lambda: follow.state.checks >= 1, timeout=10_000)
    assert describe(follow.state)[1].startswith("processing")
    follow.strip.button.click()  # Cancel
    qtbot.waitUntil(lambda: follow.done, timeout=5000)
    assert follow.state.phase is Phase.CANCELLED
    checks = follow.state.checks
    qtbot.wait(800)
    assert follow.state.checks == checks


def test_status_for_an_environment_without_a_key_says_why(qtbot: Any, window: MainWindow) -> None:
    seen: list[str] = []
    window.status_part.controller.checked.connect(lambda _o, _s, words: seen.append(words))
    window.status_part.controller.check(OrderRef("nowhere", "x-1"))
    assert seen
    assert "nowhere" in seen[0]


def test_a_history_check_speaks_under_the_payout_form_and_moves_nothing(
    qtbot: Any, slow_window: MainWindow
) -> None:
    window = slow_window
    pane = pane_of(window)
    _no_callback(qtbot, window, "status-3")
    shown_rows(qtbot, pane, 1)
    window.show_command("create-recurring-payment")
    recurring_line = window.panel.result.text()
    pane.select_position(0)
    table_top = pane.table.mapTo(pane, pane.table.rect().topLeft()).y()
    qtbot.wait(1500)
    pane.actions_by_name["status"].trigger()
    qtbot.waitUntil(lambda: "approved" in pane.message.text(), timeout=10_000)
    assert window.panel.result.text() == recurring_line  # not the payout's news
    assert "status-3" not in window.panel.result.text()
    assert "Order status-3" in window.panel.result_of("payout-check")[1]
    qtbot.wait(50)
    assert pane.table.mapTo(pane, pane.table.rect().topLeft()).y() == table_top
    qtbot.wait(300)
    assert [r.client_orderid for r in pane.selected_rows()] == ["status-3"]
    assert [r.command for r in pane.selected_rows()] == ["payout-check"]


def test_a_history_check_of_another_order_leaves_the_payout_line_to_its_own_order(
    qtbot: Any, slow_window: MainWindow
) -> None:
    window = slow_window
    pane = pane_of(window)
    _no_callback(qtbot, window, "other-4")
    _no_callback(qtbot, window, "mine-4")  # the payout form's order now
    rows = shown_rows(qtbot, pane, 2)
    own_line = window.panel.result.text()
    assert "mine-4" in window.panel.result_of("payout-check")[1]
    assert "mine-4" in window.panel.guard.note.text()  # named once, on the line above
    pane.select_position([r.client_orderid for r in rows].index("other-4"))
    pane.actions_by_name["status"].trigger()
    qtbot.waitUntil(lambda: "other-4" in window.statusBar().currentMessage(), timeout=10_000)
    # the result line and the "Already sent" line above it speak of one order
    assert "other-4" not in window.panel.result.text()
    assert window.panel.result.text() == own_line
    assert "other-4" not in window.panel.guard.note.text()
    assert "mine-4" in window.panel.guard.note.text()


def test_a_history_check_keeps_the_selection_under_a_search_filter(
    qtbot: Any, slow_window: MainWindow
) -> None:
    window = slow_window
    pane = pane_of(window)
    _no_callback(qtbot, window, "kept-5")
    _no_callback(qtbot, window, "kept-6")
    shown_rows(qtbot, pane, 2)
    pane.filters.search.setText("kept")  # a part of both ids
    pane.filters.apply_now()
    rows = shown_rows(qtbot, pane, 2)
    pane.select_position([r.client_orderid for r in rows].index("kept-5"))
    qtbot.wait(1500)
    pane.actions_by_name["status"].trigger()
    qtbot.waitUntil(lambda: "approved" in pane.message.text(), timeout=10_000)
    qtbot.wait(500)  # the answer's row change reloads the filtered rows
    assert [r.client_orderid for r in pane.selected_rows()] == ["kept-5"]
    assert pane.actions_by_name["status"].isEnabled()
