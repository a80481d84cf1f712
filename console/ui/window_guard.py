"""The main window's guard against a second payout with the same client_orderid.

Functions of the window (see ``console.ui.send_guard`` for the rules): the note and the
"New client_orderid" button beside Send, the look-up before each send, the question when the
last outcome is unknown, and what an answer teaches the guard.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from console.core.pipeline import (
    NEW_ORDER_COMMANDS,
    Seen,
    Verdict,
    accepted_verdict,
    blocked_text,
    client_orderid,
    resend_note,
    unknown_question,
)
from console.ui.confirm import choose
from console.ui.send_guard import Key, SendGuard
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.ui.main_window import MainWindow

RESEND = "Resend with the same client_orderid"
CHECK = "Check status"


def build(w: MainWindow, on_change: Callable[[], None]) -> QWidget:
    """The guard, and the row just above Send that says why it stays off (hidden otherwise):
    the note and a "New client_orderid" button."""
    w.send_guard = SendGuard(on_change, w)
    note = QLabel()
    note.setWordWrap(True)
    note.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)  # over Send
    note.setAccessibleName("Why Send is off")
    note.setVisible(False)
    button = QPushButton("New client_orderid")
    button.setObjectName("new-client-orderid")
    button.setToolTip("Put a fresh client_orderid in the form, for another order (Ctrl+G)")
    button.setVisible(False)
    button.clicked.connect(lambda: _new_id(w))
    w.send_note, w.new_id_button = note, button
    row = QWidget()
    row.setObjectName("send-blocked")
    lay = QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(note, 1)
    lay.addWidget(button)
    row.setVisible(False)
    w.send_blocked_row = row
    return row


def _new_id(w: MainWindow) -> None:
    action = w.actions_by_name.get("generate")
    if action is not None:
        action.trigger()


def key_of(w: MainWindow) -> Key | None:
    """(environment, command, client_orderid) of the form shown, when it makes a new order."""
    env = w.session.environment
    if env is None or w.command not in NEW_ORDER_COMMANDS:
        return None
    order = client_orderid(w.form.values())
    return (env.name, w.command, order) if order else None


def _bind(w: MainWindow) -> None:
    journal = w.journal
    w.send_guard.bind(journal.history, (journal.bridge.row_added, journal.bridge.row_changed))


def verdict(w: MainWindow, *, fresh: bool = False) -> Verdict | None:
    """The shown form's verdict; None before the journal is attached (it is attached right
    after the first paint, and always before a send) or when the form makes no new order."""
    if w.journal_problem is not None or (not fresh and w.journal_wiring is None):
        return None  # start-up: nothing is read (or built) before the first paint
    key = key_of(w)
    if key is None:
        return None
    _bind(w)
    return w.send_guard.lookup(key, fresh=fresh)


def show_block(w: MainWindow, found: Verdict | None) -> bool:
    """Show (or hide) why Send is off; True when ``found`` blocks it."""
    # While it is on its way, Send is off anyway and the result line says "Sending…".
    blocks = found is not None and found.seen is Seen.ACCEPTED
    if blocks and found is not None:
        colour = state_colour("warning", w.palette()).name()
        text = html.escape(blocked_text(found, w.command).removesuffix(".") + " (Ctrl+G).")
        w.send_note.setText(f"<span style='color:{colour}'>{text}</span>")
    w.send_note.setVisible(blocks)
    w.new_id_button.setVisible(blocks)
    w.send_blocked_row.setVisible(blocks)
    return found is not None and found.blocks


def before_send(w: MainWindow) -> bool | None:
    """Look the id up again, fresh. None: not to be sent; else whether the person chose to
    resend after an unknown outcome (asked here)."""
    key = key_of(w)
    w.send_guard.notes.pop(w.command, None)
    if key is None:
        return False
    found = verdict(w, fresh=True)
    assert found is not None
    if found.blocks:
        show_block(w, found)
        return None
    if found.asks:
        answer = choose(
            w,
            html.escape(unknown_question(found)),
            title="Outcome unknown: send again?",
            action=RESEND,
            others=(CHECK,),
            name="unknown-outcome-question",
        )
        if answer == CHECK:
            _check_status(w, found)
            return None
        if answer != RESEND:
            w._show_result("", "Cancelled: nothing sent.")
            return None
    w.send_guard.notes[w.command] = resend_note(found)
    w.send_guard.sending = key
    return found.asks


def _check_status(w: MainWindow, found: Verdict) -> None:
    from console.ui.status_follow import OrderRef

    env = w.session.environment
    if env is None:
        return
    w._show_result("busy", f"Checking the status of {found.client_orderid}…")
    w.journal.status.check(OrderRef(env.name, found.client_orderid, found.gateway_order_id))


def answered(w: MainWindow, outcome: Outcome | None) -> str:
    """The send is over: an accepted answer blocks its id; the note for the result line."""
    key, w.send_guard.sending = w.send_guard.sending, None
    w.send_guard.forget()
    if outcome is None or key is None:
        return ""
    response = outcome.response
    accepted = (
        accepted_verdict(
            outcome.prepared.command,
            client_orderid(outcome.prepared.params),
            response.get("gateway-order-id") if response else None,
        )
        if outcome.result == "accepted"
        else None
    )
    if accepted is not None:
        w.send_guard.remember(key, accepted)
    return w.send_guard.notes.pop(outcome.prepared.command, "")
