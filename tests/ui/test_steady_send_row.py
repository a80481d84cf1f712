"""On a small screen an accepted payout leaves the form its room: the lines beside Send say
accepted, the order and why Send is off once each, in as little height as "Ready to send"."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QLabel, QPushButton

from console.ui.main_window import MainWindow
from tests.ui.journal_helpers import send_payout, settle

SMALL = (1024, 700)
FEW_PX = 4


def _lines(window: MainWindow) -> list[str]:
    """What the labels under the form say, as a person reads them, in their order."""
    panel = window.panel
    labels = [w for w in panel.findChildren(QLabel) if w.isVisible() and w.text()]
    labels.sort(key=lambda w: w.mapTo(panel, w.rect().topLeft()).y())
    return [html.unescape(re.sub(r"<[^>]+>", "", w.text())) for w in labels]


def test_an_accepted_payout_leaves_the_form_its_height_on_a_small_screen(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    # the callback comes a while after the answer: the accepted line is seen first
    window = make_window(sandbox_options={"callback_delay": 3.0})
    window.resize(*SMALL)
    window.show_command("payout-check")
    window.fill_example()
    window.attach_journal()
    settle(qtbot)
    view = window.form.scroller
    before = view.height()
    assert _lines(window) == ["Ready to send: no problems found."]

    order = window.form.values()["client_orderid"]
    outcome = send_payout(qtbot, window, order)
    gateway = outcome.response.get("gateway-order-id")
    qtbot.waitUntil(lambda: window.panel.guard.note.isVisible(), timeout=10_000)
    settle(qtbot)
    assert abs(view.height() - before) <= FEW_PX, (before, view.height(), _lines(window))

    said = " ".join(_lines(window))
    # what a support agent needs, the order and why Send is off said once each
    assert "Already sent and accepted" in said
    assert said.count(order) == 1, said
    assert said.count(f"gateway order {gateway}") == 1, said
    assert said.count("Send is off") == 1, said
    assert "Accepted; final status to come." in said  # read where the cursor waits
    assert "Ready to send" not in said
    assert "client_orderid was accepted before" not in said  # "Send is off…" twice
    buttons = {b.text() for b in window.panel.findChildren(QPushButton) if b.isVisible()}
    assert {"Follow this order", "Check status", "New client_orderid"} <= buttons

    # the final status arrives by callback: still the same room
    qtbot.waitUntil(lambda: "(callback)" in window.panel.result.text(), timeout=15_000)
    settle(qtbot)
    assert abs(view.height() - before) <= FEW_PX, (before, view.height(), _lines(window))
    assert "Final status approved (callback)." in _lines(window)
    assert order in " ".join(_lines(window))
