"""The main window's Send and result line: the row under the form (result, Use in payout,
busy bar, Send) and what the send controller's signals do to it. Each form keeps its own
last result line: an answer stays under the form that sent it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton

from console.core.pipeline import client_orderid
from console.core.spec import COMMANDS
from console.ui import window_guard, window_journal
from console.ui.icons import icon
from console.ui.inspector.response_tab import headline
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.client import Outcome, PreparedRequest
    from console.ui.main_window import MainWindow


def request_label(prepared: PreparedRequest) -> str:
    """Which request a result belongs to: the command and its client order id."""
    return f"{prepared.command} {client_orderid(prepared.params)}".strip()


def build_result_bar(w: MainWindow) -> QHBoxLayout:
    """The row under the form; other parts add their buttons to it (``w.result_bar``)."""
    w.result = QLabel()
    w.result.setWordWrap(True)
    w.result.setAccessibleName("Last outcome")
    w.use_in_payout_button = QPushButton("Use in payout")
    w.use_in_payout_button.setToolTip(
        "Open the payout form with this stored card reference filled in"
    )
    w.use_in_payout_button.setVisible(False)
    w.use_in_payout_button.clicked.connect(lambda: _use_last_in_payout(w))
    w.busy = QProgressBar()
    w.busy.setRange(0, 0)
    w.busy.setMaximumWidth(120)
    w.busy.setVisible(False)
    w.busy.setAccessibleName("Sending")
    w.send_button = QPushButton(icon("send"), "Send")
    w.send_button.setObjectName("send")
    w.send_button.setToolTip("Send this request (Ctrl+Enter)")
    w.send_button.setDefault(True)
    w.send_button.setMinimumWidth(120)
    w.send_button.clicked.connect(w.send)
    window_guard.build(w, lambda: update_send(w))  # its row: w.send_blocked_row, above Send

    bar = QHBoxLayout()
    bar.addWidget(w.result, 1)
    bar.addWidget(w.use_in_payout_button)
    bar.addWidget(w.busy)
    bar.addWidget(w.send_button)
    return bar


def connect_sender(w: MainWindow) -> None:
    """Follow the send controller: inspector, busy bar, result lines."""
    sender = w.sender_
    sender.prepared.connect(lambda prepared: _prepared(w, prepared))
    sender.started.connect(lambda: set_busy(w, True))
    sender.finished.connect(lambda outcome: _finished(w, outcome))
    sender.failed.connect(lambda text: _failed(w, text))
    sender.cancelled.connect(lambda: _cancelled(w))
    # once the journal is attached (right after the first paint), an id already accepted
    # (a draft kept across a restart) turns Send off before anyone presses it; a journal
    # that cannot be opened keeps it off
    window_journal.when_settled(w, lambda: update_send(w))


def _cancelled(w: MainWindow) -> None:
    window_guard.answered(w, None)
    show_result(w, "", "Cancelled: nothing sent.")


def update_send(w: MainWindow) -> None:
    """Send is enabled with a ready environment, no send going, no error on the form, and a
    client_orderid the gateway has not accepted before (see ``window_guard``)."""
    can = not w.sender_.sending and w.session.ready
    blocked = window_guard.show_block(w, window_guard.verdict(w))
    refusal = window_journal.send_refusal(w)
    w.send_button.setEnabled(can and w.summary.errors == 0 and not blocked and not refusal)
    w.send_button.setToolTip(refusal or "Send this request (Ctrl+Enter)")
    # one line says why Send is off: never "Ready to send" beside a Send that is off
    if w.sender_.sending:
        why = "Sending… Send is off until the answer comes."
    elif not w.session.ready:
        why = w.session.problem or "No environment with a key is active."
    elif blocked:
        why = "Send is off: this client_orderid was accepted before (see above Send)."
    else:
        why = refusal
    w.summary.set_send_off(why)
    action = w.actions_by_name.get("send")
    if action is not None:
        # The shortcut stays live on a blocked form: trying it shows what is missing.
        action.setEnabled(can)


def send(w: MainWindow) -> None:
    """Send the current form; while errors block it, show them in colour."""
    if w.journal_problem is not None:  # nothing may be sent unjournalled
        show_result(w, "error", window_journal.send_refusal(w))
        return
    if not w.send_button.isEnabled():
        # an id accepted before: the note beside Send says why and offers a new id
        if w.summary.errors and not w.sender_.sending and not w.send_note.isVisible():
            w.form.attempted = True  # what was calmly "required" is now a mistake
            w._validate()
            first = next((p for p in w.summary.problems if p.fields), None)
            if first is not None:
                w.focus_field(first.fields[0])
        return
    if w.attach_journal() is None:  # every send is journalled: hooks in place before it leaves
        show_result(w, "error", window_journal.send_refusal(w))
        return
    form = w.form
    w.send_button.setEnabled(False)  # before anything else: no double send
    resend = window_guard.before_send(w)
    if resend is None:  # accepted before, or the person chose not to
        update_send(w)
        return
    w._sending_command = w.command
    if not w.sender_.send(w.command, form.values(), window=w, resend_after_unknown=resend):
        window_guard.answered(w, None)
        update_send(w)


def _prepared(w: MainWindow, prepared: PreparedRequest) -> None:
    w.inspector.show_prepared(prepared)
    w.inspector.setWindowTitle(f"Request inspector — {request_label(prepared)}")
    w.inspector.show()


def set_busy(w: MainWindow, busy: bool) -> None:
    """Show or hide the busy bar; while sending, the sending form's line says so."""
    w.busy.setVisible(busy)
    if busy:
        show_result(
            w,
            "busy",
            "Sending… the window stays usable; the answer appears here.",
            w._sending_command,
        )
    update_send(w)


def _finished(w: MainWindow, outcome: Outcome) -> None:
    w._last_outcome = outcome
    w._outcomes[outcome.prepared.command] = outcome
    note = window_guard.answered(w, outcome)  # before Send is enabled again
    set_busy(w, False)
    w.inspector.show_outcome(outcome)
    state, words = headline(outcome)
    label = request_label(outcome.prepared)
    text = f"{label}: {words}. {outcome.summary}" + (f" {note}" if note else "")
    show_result(w, state, text, outcome.prepared.command)


def _failed(w: MainWindow, text: str) -> None:
    window_guard.answered(w, None)
    set_busy(w, False)
    show_result(w, "error", text, w._sending_command or None)
    if w.inspector.prepared is None or w.inspector.prepared.signed is not None:
        w.inspector.show_failure(text)


def show_result(w: MainWindow, state: str, text: str, command: str | None = None) -> None:
    """Set the result line of ``command`` (default: the form shown) and show it."""
    w._results[command or w.command] = (state, text)
    render_result(w)


def render_result(w: MainWindow) -> None:
    """The shown form's own result line, and a note while another form's request is out."""
    state, text = w._results.get(w.command, ("", ""))
    if w.sender_.sending and w._sending_command != w.command:
        title = COMMANDS[w._sending_command].title
        state, text = "busy", f"Sending {title}… its answer appears under its own form."
    colour = state_colour(state or "required", w.palette()).name()
    w.result.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")
    w.use_in_payout_button.setVisible(
        w.command == "create-card-ref"
        and bool(card_reference(w))
        and not (w.sender_.sending and w._sending_command == w.command)
    )


def card_reference(w: MainWindow) -> str:
    """The recurring payment id of the last accepted create-card-ref, if any."""
    outcome = w._outcomes.get("create-card-ref")
    if outcome is None or outcome.response is None or outcome.result != "accepted":
        return ""
    return outcome.response.get("recurring-payment-id") or ""


def _use_last_in_payout(w: MainWindow) -> None:
    rpi = card_reference(w)
    if rpi:
        w.use_in_payout(rpi)
