"""Callbacks from the in-process sandbox reach the window's listener and update history."""

from __future__ import annotations

import dataclasses
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from console.core.callbacks import control_code
from console.core.environments import CallbackListenerSettings, EnvKind
from console.ui.main_window import MainWindow
from tests.ui.journal_helpers import pane_of, send_payout, shown_rows


def test_local_sandbox_callbacks_arrive_checked_and_update_the_row(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window(sandbox_options={"callback_delay": 0.3})
    panes = window.journal
    url = window.listeners.url("local-sandbox")
    assert url is not None
    assert url.startswith("http://127.0.0.1:")
    assert url in panes.callbacks.listener_label.text()
    pane = pane_of(window)
    send_payout(qtbot, window, "cb-1")
    assert window.form.values()["server_callback_url"] == url  # the example points here
    qtbot.waitUntil(lambda: len(panes.callbacks.events) == 1, timeout=15_000)
    event = panes.callbacks.events[0]
    assert (event.client_orderid, event.status, str(event.check)) == ("cb-1", "approved", "ok")
    assert panes.callbacks.table.item(0, 6).text() == "control ok"
    qtbot.waitUntil(
        lambda: shown_rows(qtbot, pane, 1)[0].final_status_source == "callback", timeout=5000
    )
    assert shown_rows(qtbot, pane, 1)[0].final_status == "approved"


def test_forged_callback_is_flagged_and_changes_nothing(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window(sandbox_options={"callback_delay": 60.0})
    panes = window.journal
    pane = pane_of(window)
    outcome = send_payout(qtbot, window, "cb-2")
    orderid = outcome.response.get("gateway-order-id")
    url = window.listeners.url("local-sandbox")
    assert url is not None
    forged = control_code("approved", orderid, "cb-2", "not-the-secret")
    query = urlencode(
        {"status": "approved", "orderid": orderid, "client_orderid": "cb-2", "control": forged}
    )
    with urllib.request.urlopen(f"{url}?{query}", timeout=5) as answer:
        assert answer.status == 200
    qtbot.waitUntil(lambda: len(panes.callbacks.events) == 1, timeout=5000)
    assert "MISMATCH" in panes.callbacks.table.item(0, 6).text()
    qtbot.wait(300)
    assert shown_rows(qtbot, pane, 1)[0].final_status is None


def test_listener_can_be_stopped_and_started(qtbot: Any, window: MainWindow) -> None:
    view = window.journal.callbacks
    assert view.switch.text() == "Stop listening"
    view.switch.click()
    assert window.listeners.url("local-sandbox") is None
    assert "Not listening" in view.listener_label.text()
    assert window.forms_part.example_overrides == {}
    view.switch.click()
    assert window.listeners.url("local-sandbox") is not None
    assert view.copy_url.isEnabled()


def test_callbacks_received_earlier_are_listed_after_restart(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window(sandbox_options={"callback_delay": 0.2})
    send_payout(qtbot, window, "cb-3")
    qtbot.waitUntil(lambda: len(window.journal.callbacks.events) == 1, timeout=15_000)
    window.close()
    again = make_window()
    qtbot.waitUntil(lambda: len(again.journal.callbacks.events) == 1, timeout=5000)
    assert again.journal.callbacks.events[0].client_orderid == "cb-3"


def test_the_result_line_follows_the_payout_to_its_final_status(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    # the callback comes 3 s after the answer: the "to come" line is seen first
    # however busy the machine (the tests run in parallel)
    window = make_window(sandbox_options={"callback_delay": 3.0})
    send_payout(qtbot, window, "follow-1")
    assert "Accepted; final status to come." in window.panel.result.text()
    qtbot.waitUntil(lambda: "approved" in window.panel.result.text(), timeout=15_000)
    assert "Final status" in window.panel.result.text()
    assert "(callback)" in window.panel.result.text()
    assert "to come" not in window.panel.result.text()
    assert "follow-1" in window.panel.guard.note.text()  # the line above names the order


def test_a_client_orderid_typed_with_a_trailing_space_is_followed_to_its_final_status(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    # The value goes out as typed; the journal and the result line both take the order id
    # without the space, so the callback's final status reaches the payout's line.
    window = make_window(sandbox_options={"callback_delay": 0.3})
    send_payout(qtbot, window, "follow-2 ")
    qtbot.waitUntil(lambda: len(window.journal.callbacks.events) == 1, timeout=15_000)
    assert window.journal.callbacks.events[0].client_orderid == "follow-2"
    qtbot.waitUntil(lambda: "(callback)" in window.panel.result_of("payout-check")[1], timeout=5000)
    assert window.panel.result_of("payout-check") == (
        "fine",
        "payout-check follow-2: final status <b>approved</b> (callback).",
    )


def test_this_consoles_listener_is_a_callback_choice_resolved_when_sending(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window()
    url = window.listeners.url("local-sandbox")
    assert url is not None
    window.fill_example()
    form = window.form
    assert form.choices()["callback"] == "listener"
    assert form.values()["server_callback_url"] == url
    assert url in form.callback.help.text()  # type: ignore[attr-defined]
    assert "server_callback_url" not in form.draft()  # a restart does not keep an old port
    window.forms_part.listener_url = "http://127.0.0.1:9/callback"  # the listener moved
    assert form.values()["server_callback_url"] == "http://127.0.0.1:9/callback"


def test_the_callback_help_follows_the_listener_back_to_the_built_in_sandbox(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window()
    url = window.listeners.url("local-sandbox")
    assert url is not None
    window.fill_example()
    form = window.form
    help_line = form.callback.help  # type: ignore[attr-defined]
    assert url in help_line.text()
    env, key = window.session.environment, window.session.private_key
    assert env is not None
    quiet = CallbackListenerSettings(enabled=False)
    elsewhere = dataclasses.replace(env, name="elsewhere", kind=EnvKind.SANDBOX, callback=quiet)
    window.session.use(elsewhere, key)
    qtbot.waitUntil(lambda: "none is running" in help_line.text(), timeout=5_000)
    window.session.use(env, key)  # back: callbacks arrive here again
    qtbot.waitUntil(lambda: window.listeners.url("local-sandbox") is not None, timeout=5_000)
    back = window.listeners.url("local-sandbox")
    assert back is not None
    qtbot.waitUntil(lambda: back in help_line.text(), timeout=5_000)
    assert "none is running" not in help_line.text()
