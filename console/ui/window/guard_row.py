"""The line just above Send that stands against a second payout with the same client_orderid
(the rules are the core's, ``console.core.pipeline``): the note saying why Send is off (its
"New client_orderid" button stands beside Send, in the send panel's row), the fresh look-up
before each send, and what an answer teaches the guard. The question when the last outcome
is unknown is the pipeline's (asked by ``console.ui.sending``)."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from console.core import pipeline
from console.core.order_facts import NEW_ORDER_COMMANDS, answer_order_id, client_orderid
from console.ui.send_guard import Key, SendGuard
from console.ui.speech import announce
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.pipeline import Verdict
    from console.ui.session import Session
    from console.ui.tasks import TaskManager
    from console.ui.window.forms_part import FormsPart
    from console.ui.window.journal_part import JournalPart

SEND_OFF = "Send is off."
NEW_ID_TIP = "Put a fresh client_orderid in the form, for another order (Ctrl+G)"


def fact_and_advice(text: str) -> tuple[str, str]:
    """The core's refusal split into its first sentence (what happened to which order) and
    the rest (what to do instead)."""
    parts = re.split(r"(?<=\.)\s+", text.strip(), maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


class GuardRow(QWidget):
    """Hidden unless the form's client_orderid was accepted before.

    Signals:
        changed: a verdict arrived or may be stale (Send's state follows).
        new_id_requested: the person asked for a fresh client_orderid.
    """

    changed = Signal()
    new_id_requested = Signal()

    def __init__(
        self,
        session: Session,
        forms: FormsPart,
        journal: JournalPart,
        tasks: TaskManager,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("send-blocked")
        self.session = session
        self.forms = forms
        self.journal = journal
        self.guard = SendGuard(self.changed.emit, tasks, self)
        self.note = QLabel()
        self.note.setWordWrap(True)
        # where the problem list's headline was (it steps aside for this line)
        self.note.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        # no accessible name: its text is what a screen reader reads (and hears change)
        self.note.setObjectName("why-send-is-off")
        self.note.setAccessibleDescription("Why Send is off")
        self.note.setVisible(False)
        # the way out stands in Send's row (the send panel places it): a button beside the
        # note made its line as tall as a button, and the note wrapped in what was left
        self.new_id_button = QPushButton("New client_orderid")
        self.new_id_button.setObjectName("new-client-orderid")
        self.new_id_button.setToolTip(NEW_ID_TIP)
        self.new_id_button.setVisible(False)
        self.new_id_button.clicked.connect(self.new_id_requested)
        self.shown_order = ""  # the client_orderid the note speaks of ("" when hidden)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.note, 1)
        self.setVisible(False)

    def key(self) -> Key | None:
        """(gateway, command, client_orderid, environment) of the form shown, when it makes
        an order: the guard is keyed on the gateway's identity, not the environment's name."""
        env = self.session.environment
        command = self.forms.command
        if env is None or command not in NEW_ORDER_COMMANDS:
            return None
        order = client_orderid(self.forms.form.values())
        return (env.gateway(command), command, order, env.name) if order else None

    def _bind(self) -> bool:
        journals, bridge = self.journal.journals, self.journal.bridge
        if journals is None or bridge is None:
            return False
        self.guard.bind(journals.sends, (bridge.row_added, bridge.row_changed))
        return True

    def verdict(self) -> Verdict | None:
        """The shown form's verdict as far as it is known now; None before the journal is
        attached (right after the first paint), while it is asked, or for no new order."""
        key = self.key()
        if key is None or not self._bind():
            return None
        return self.guard.known(key)

    def show_block(self, found: Verdict | None) -> bool:
        """Show (or hide) why Send is off; True when ``found`` blocks it."""
        # While it is on its way, Send is off anyway and the result line says "Sending…".
        blocks = found is not None and found.seen in (
            pipeline.Seen.ACCEPTED,
            pipeline.Seen.SETTLED,
        )
        if blocks and found is not None:
            colour = state_colour("warning", self.palette()).name()
            # One line: what happened to which order, and that Send is off. What to do
            # instead is the "New client_orderid" button beside Send (the core's words in
            # its tooltip and the note's), so the line fits beside nothing on a small screen.
            whole = pipeline.blocked_text(found, self.forms.command)
            fact, advice = fact_and_advice(whole)
            text = f"{fact} {SEND_OFF}"
            shown = f"<span style='color:{colour}'>{html.escape(text)}</span>"
            if shown != self.note.text() or self.note.isHidden():
                announce(self.note, text)
            self.note.setText(shown)
            self.note.setToolTip(f"{whole.removesuffix('.')} (Ctrl+G).")
            self.new_id_button.setToolTip(
                f"{advice.removesuffix('.')} (Ctrl+G)." if advice else NEW_ID_TIP
            )
        self.shown_order = found.client_orderid if blocks and found is not None else ""
        self.note.setVisible(blocks)
        self.new_id_button.setVisible(blocks)
        self.setVisible(blocks)
        return found is not None and found.blocks

    @property
    def shows_block(self) -> bool:
        return self.note.isVisible()

    def before_send(self) -> bool:
        """Look the id up again, fresh: False when it is not to be sent (shown why). The
        questions before a send are the pipeline's, asked by the send controller."""
        key = self.key()
        command = self.forms.command
        self.guard.notes.pop(command, None)
        if key is None or not self._bind():
            return True
        found = self.guard.lookup_fresh(key)
        if found.blocks:
            self.show_block(found)
            return False
        self.guard.notes[command] = pipeline.resend_note(found)
        self.guard.sending = key
        return True

    def answered(self, outcome: Outcome | None) -> str:
        """The send is over: an accepted answer blocks its id; the note for the result line."""
        key, self.guard.sending = self.guard.sending, None
        self.guard.forget()
        if outcome is None or key is None:
            return ""
        response = outcome.response
        accepted = (
            pipeline.accepted_verdict(
                outcome.prepared.command,
                client_orderid(outcome.prepared.params),
                answer_order_id(response.fields) if response else None,
            )
            if outcome.result == "accepted"
            else None
        )
        if accepted is not None:
            self.guard.remember(key, accepted)
        return self.guard.notes.pop(outcome.prepared.command, "")
