"""The window sends through the core's pipeline: the same masking and after-answer effects as
the command line."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import Qt

from console.core.paths import resolve
from console.ui.main_window import MainWindow
from tests.helpers.http_server import Reply, serve

PAN = "4444444444444448"
MASKED = "444444******4448"
FORM = {"Content-Type": "text/html;charset=utf-8"}


def _send_and_wait(qtbot: Any, window: MainWindow) -> Any:
    shown_before = window.last_outcome
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.last_outcome is not shown_before, timeout=20_000)
    return window.last_outcome


def _table_text(window: MainWindow) -> str:
    table = window.inspector.response.fields
    return " ".join(table.item(r, c).text() for r in range(table.rowCount()) for c in range(2))


def test_an_answer_echoing_the_card_is_masked_in_the_window_journal_and_log(
    qtbot: Any, window: MainWindow
) -> None:
    echo = (
        f"type=validation-error\n&error-code=111\n&error-message=card {PAN} is not valid\n"
        f"&credit_card_number={PAN}\n&echo=4444%204444%204444%204448\n"
    ).encode()
    with serve(lambda r: Reply(200, echo, FORM)) as server:
        env = window.session.environment
        assert env is not None
        window.session.use(
            dataclasses.replace(env, base_url=server.url), window.session.private_key
        )
        window.fill_example()
        window.form.rows["credit_card_number"].set_text(PAN)
        _send_and_wait(qtbot, window)
        assert len(server.received) == 1
    shown = " ".join(
        [
            _table_text(window),
            window.inspector.response.summary.text(),
            window.inspector.response.raw.value(),
            window.panel.result.text(),
        ]
    )
    assert PAN not in shown
    assert "4444%204444%204444%204448" not in shown
    assert MASKED in window.inspector.response.raw.value()
    assert MASKED in window.panel.result.text()
    history = window.attach_journal().history
    assert PAN not in str(history.details(history.fetch()[0].id).response)
    log = resolve().log_file
    assert not log.exists() or PAN not in log.read_text()


def test_a_status_answer_from_the_order_status_form_sets_the_final_status(
    qtbot: Any, window: MainWindow
) -> None:
    window.fill_example()
    window.form.rows["client_orderid"].set_text("ui-final-1")
    first = _send_and_wait(qtbot, window)
    assert str(first.result) == "accepted"
    window.show_command("status")
    window.form.load({"client_orderid": "ui-final-1"}, clear=True)
    status = _send_and_wait(qtbot, window)
    assert status.response is not None
    assert status.response.status
    history = window.attach_journal().history
    payout = next(r for r in history.fetch() if r.command == "payout-check")
    assert payout.final_status == status.response.status
    assert payout.final_status_source == "status"
