"""Under the form: the problem list, the double-payout row, and the result line with Send.

It shows the send pipeline's verdicts (through the send controller) and holds no rule of its
own. Each form keeps its own last result line: an answer stays under the form that sent it.
On a small screen the whole of it stays as low as the "Ready to send" line and Send before a
send: a line about an order the row above names (Already sent and accepted…) leaves out what
that row says, and every button stands in Send's row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from console.core.order_facts import answer_order_id, client_orderid
from console.core.spec import COMMANDS, Problem
from console.ui.banner import first_sentence
from console.ui.forms.generator import CommandForm
from console.ui.forms.validation_view import ProblemSummary
from console.ui.icons import icon
from console.ui.speech import announce
from console.ui.theme import state_colour
from console.ui.window.guard_row import GuardRow

if TYPE_CHECKING:
    from console.core.client import Outcome
    from console.core.prepared import PreparedRequest
    from console.core.team.approvals.held import Awaiting
    from console.ui.inspector.dock import InspectorDock
    from console.ui.sending import SendController
    from console.ui.session import Session
    from console.ui.tasks import TaskManager
    from console.ui.window.forms_part import FormsPart
    from console.ui.window.journal_part import JournalPart

SEND_TIP = "Send this request (Ctrl+Enter)"
SEND_WORDS = "Send"
PAYOUT = "payout-check"
# An accepted payout's next step, in the few words its line has beside four buttons (the
# core's whole summary is the Response tab's; the buttons beside it fetch the status)
PROCESSED_LATER = "final status to come."


class Line(NamedTuple):
    """A result line: its state (colour), its words, and the order it speaks of.

    ``lead`` names the order ("payout-check gc-1: Accepted (gateway order 7)."); it is left
    out while the guard row above names the same ``order`` (the words stay in ``text``).
    """

    state: str
    text: str
    lead: str = ""
    order: str = ""

    @property
    def whole(self) -> str:
        return f"{self.lead} {self.text}" if self.lead else self.text


def request_label(prepared: PreparedRequest) -> str:
    """Which request a result belongs to: the command and its client order id."""
    return f"{prepared.command} {client_orderid(prepared.params)}".strip()


def _held_words() -> str:
    """What Send says where the team's policy holds the request back for a checker."""
    from console.core.team.approvals.held import Held  # boundary: team mode only

    return Held.ACTION


class SendPanel(QWidget):
    """Problems, the guard row and the result line with Send.

    Signals:
        can_send_changed(bool): whether Ctrl+Enter may try (an environment is ready and no
            send is going); a blocked form still answers it by showing what is missing.
        use_in_payout(str): the person wants the last stored card reference in a payout.
    """

    can_send_changed = Signal(bool)
    use_in_payout = Signal(str)

    def __init__(
        self,
        session: Session,
        forms: FormsPart,
        sender: SendController,
        inspector: InspectorDock,
        journal: JournalPart,
        tasks: TaskManager,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.forms = forms
        self.controller = sender
        self.inspector = inspector
        self.journal = journal
        self._results: dict[str, Line] = {}
        self._outcomes: dict[str, Outcome] = {}  # each command's last answer
        self._last: Outcome | None = None
        self._sending_command = ""
        # what the team's policy was last asked about: environment, command, amount, currency
        self._asked: tuple[str, str, str, str] = ("", "", "", "")
        self.tasks = tasks

        self.summary = ProblemSummary()
        self.summary.jump.connect(forms.focus_field)
        self.guard = GuardRow(session, forms, journal, tasks)
        self.guard.changed.connect(self.update_send)
        self.result = QLabel()
        self.result.setWordWrap(True)
        # no accessible name: its text is what a screen reader reads (and hears change)
        self.result.setObjectName("last-outcome")
        self.result.setAccessibleDescription("Last outcome")
        # the cursor waits here, beside Send, while Send is off for a send: in sight, where
        # the answer comes (never passed on to a stop scrolled away)
        self.result.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.result.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.use_in_payout_button = QPushButton("Use in payout")
        self.use_in_payout_button.setToolTip(
            "Open the payout form with this stored card reference filled in"
        )
        self.use_in_payout_button.setVisible(False)
        self.use_in_payout_button.clicked.connect(self._use_last_in_payout)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setVisible(False)
        self.busy.setAccessibleName("Sending")
        self.send_button = QPushButton(icon("send"), SEND_WORDS)
        self.send_button.setObjectName("send")
        self.send_button.setToolTip(SEND_TIP)
        self.send_button.setDefault(True)
        self.send_button.setMinimumWidth(120)
        self.send_button.clicked.connect(self.send)
        self.bar = QHBoxLayout()
        self.bar.addWidget(self.result, 1)
        self.bar.addWidget(self.guard.new_id_button)
        self.bar.addWidget(self.use_in_payout_button)
        self.bar.addWidget(self.busy)
        self.bar.addWidget(self.send_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.summary)
        lay.addWidget(self.guard)
        lay.addLayout(self.bar)

        sender.prepared.connect(self._prepared)
        sender.started.connect(self._started)
        sender.submitted.connect(self._submitted)
        sender.decided.connect(self._decided)
        sender.finished.connect(self._finished)
        sender.failed.connect(self._failed)
        sender.cancelled.connect(self._cancelled)
        forms.validated.connect(self._validated)
        forms.shown.connect(lambda _name: self.refresh_result())
        forms.skip_to_send.connect(self.focus_send)
        # once the journal is attached (right after the first paint), an id already accepted
        # (a draft kept across a restart) turns Send off before anyone presses it; a journal
        # that cannot be opened keeps it off
        journal.when_settled(self.update_send)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            # the colours are in the text: a new theme reaches this widget after the switch
            self.refresh_result()

    # -- what others read --------------------------------------------------------------------
    @property
    def last_outcome(self) -> Outcome | None:
        """The last answer shown in this window (masked)."""
        return self._last

    @property
    def sending_command(self) -> str:
        """The command whose request is on its way ("" when none is)."""
        on_its_way = self.controller.sending and not self.controller.asking
        return self._sending_command if on_its_way else ""

    def go_to_first_problem(self) -> None:
        """F8: the cursor to the first problem's field that can take it."""
        for problem in self.summary.problems:
            if problem.fields and self.forms.focus_field(problem.fields[0]):
                return

    def focus_send(self) -> None:
        """The cursor to Send; while Send is off, to the line that says why."""
        if self.send_button.isEnabled():
            self.send_button.setFocus(Qt.FocusReason.OtherFocusReason)
        elif self.summary.list.isVisible():
            self.summary.list.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self.result.setFocus(Qt.FocusReason.OtherFocusReason)

    def _send_off(self) -> None:
        """Turn Send off; its cursor stays beside it, on the result line (Qt would pass it
        on to the next stop of the chain, the top of the form, scrolled out of sight)."""
        if self.send_button.hasFocus():
            self.result.setFocus(Qt.FocusReason.OtherFocusReason)
        self.send_button.setEnabled(False)

    def add_button(self, button: QWidget, index: int = 1) -> None:
        """Another part's button beside the result line (Check status, Follow this order)."""
        self.bar.insertWidget(index, button)

    # -- Send --------------------------------------------------------------------------------
    def _validated(self, form: CommandForm, problems: list[Problem]) -> None:
        if form is self.forms.form:
            self.summary.set_problems(problems, form.is_pending)
            self.update_send()
            if self.controller.team:
                self._ask_approval()

    def update_send(self) -> None:
        """Send is enabled with a ready environment, no send going, no error on the form,
        and a client_orderid the gateway has not accepted before."""
        sending = self.controller.sending
        can = not sending and self.session.ready
        blocked = self.guard.show_block(self.guard.verdict())
        refusal = self.journal.refusal()
        if can and self.summary.errors == 0 and not blocked and not refusal:
            self.send_button.setEnabled(True)
        else:
            self._send_off()
        self.send_button.setToolTip(refusal or SEND_TIP)
        # one line says why Send is off: never "Ready to send" beside a Send that is off
        if self.controller.asking:  # a confirmation is open: nothing has gone yet
            why = "Send is off while the question about this request is open."
        elif sending:
            why = "Sending… Send is off until the answer comes."
        elif not self.session.ready:
            # one short line: the banner above has the whole explanation behind Details…
            problem = self.session.problem
            why = (
                f"{first_sentence(problem)} Details… in the banner says more."
                if problem
                else "No environment with a key is active."
            )
        else:
            why = refusal
        # the row above Send says why ("Already sent and accepted at … Send is off."): said
        # once; the problem list's headline names only its problems (never "Ready to send"),
        # and steps aside, room and all, for that row when there are none
        said_below = blocked and not why
        self.summary.set_send_off(why, said_below=said_below)
        self.summary.setVisible(not (said_below and not self.summary.problems))
        self.refresh_result()  # a line about the order that row names leaves it out
        # The shortcut stays live on a blocked form: trying it shows what is missing.
        self.can_send_changed.emit(can)

    def send(self) -> None:
        """Send the form shown; while errors block it, show them in colour."""
        if self.journal.problem is not None:  # nothing may be sent unjournalled
            self.show_result("error", self.journal.refusal())
            return
        if not self.send_button.isEnabled():
            # an id accepted before: the note beside Send says why and offers a new id
            if self.summary.errors and not self.controller.sending and not self.guard.shows_block:
                self.forms.attempted()
                first = next((p for p in self.summary.problems if p.fields), None)
                if first is not None:
                    self.forms.focus_field(first.fields[0])
            return
        if self.journal.attach() is None:  # every send is journalled: hooks in place first
            self.show_result("error", self.journal.refusal())
            return
        command = self.forms.command
        self._send_off()  # before anything else: no double send
        if not self.guard.before_send():  # accepted before, or on its way
            self.update_send()
            return
        self._sending_command = command
        values = self.forms.form.values()
        if not self.controller.send(command, values, window=self.window()):
            self.guard.answered(None)
            self.update_send()

    def _prepared(self, prepared: PreparedRequest) -> None:
        self.inspector.show_prepared(prepared)
        self.inspector.setWindowTitle(f"Request inspector — {request_label(prepared)}")
        self.inspector.show()

    def _started(self, command: str) -> None:
        self._sending_command = command
        self._set_busy(True)

    def _submitted(self, awaiting: Awaiting) -> None:
        """Held for a checker (team mode): said under its form; this window sends it once
        approved."""
        from console.core.team.hashing import carries_card_data  # boundary: team mode only

        self.guard.answered(None)
        prepared = awaiting.submitted.prepared
        card = (
            " Its card data stays in this window only: keep it open."
            if carries_card_data(prepared)
            else ""
        )
        # the core's words: a new submission, or the identical one already waiting
        self.show_result(
            "busy",
            f"{request_label(prepared)}: {awaiting.submitted_text}. Nothing is sent until a "
            f"checker approves it; then this window sends it.{card}",
            prepared.command,
        )
        self.update_send()

    def _decided(self, awaiting: Awaiting, words: str) -> None:
        prepared = awaiting.submitted.prepared
        self.show_result("warning", f"{request_label(prepared)}: {words}", prepared.command)

    def _ask_approval(self) -> None:
        """In team mode: Send says "Submit for approval" where the policy holds it back."""
        env = self.session.environment
        if not self.controller.team or not self.session.ready or env is None:
            self._asked = ("", "", "", "")
            self._set_action(SEND_WORDS)
            return
        command, values = self.forms.command, self.forms.form.values()
        asked = (env.name, command, values.get("amount", ""), values.get("currency", ""))
        if asked == self._asked:
            return  # what the policy looks at is unchanged: no need to ask the database
        self._asked = asked
        self.tasks.run(
            lambda: self.controller.needs_approval(command, values),
            lambda held: (
                self._set_action(_held_words() if held else SEND_WORDS)
                if asked == self._asked
                else None
            ),
            lambda _exc, _tb: None,  # the send itself asks again and says what is wrong
            lane="journal",
            owner=self,
        )

    def _set_action(self, words: str) -> None:
        self.send_button.setText(words)

    def _set_busy(self, busy: bool) -> None:
        """Show or hide the busy bar; while sending, the sending form's line says so."""
        self.busy.setVisible(busy)
        if busy:
            self.show_result(
                "busy",
                "Sending… the window stays usable; the answer appears here.",
                self._sending_command,
            )
        self.update_send()

    def _finished(self, outcome: Outcome) -> None:
        self._last = outcome
        self._outcomes[outcome.prepared.command] = outcome
        note = self.guard.answered(outcome)  # before Send is enabled again
        self._set_busy(False)
        self.inspector.show_outcome(outcome)
        from console.ui.inspector.response_tab import headline  # loaded with the Response tab

        state, words = headline(outcome)
        prepared = outcome.prepared
        label = request_label(prepared)
        response = outcome.response
        if str(outcome.result) != "accepted" or response is None:
            text = f"{label}: {words}. {outcome.summary}" + (f" {note}" if note else "")
            self.show_result(state, text, prepared.command)
            return
        # accepted: an order the guard row above names from now on
        # ("Accepted" stays: where the cursor waits after Send, the answer is read)
        gateway = answer_order_id(response.fields)
        payout = prepared.command == PAYOUT
        named = f" (gateway order {gateway})" if gateway and payout else ""
        rest = f"{words}; {PROCESSED_LATER}" if payout else f"{words}. {outcome.summary}"
        self.show_result(
            state,
            rest + (f" {note}" if note else ""),
            prepared.command,
            lead=f"{label}{named}:",
            order=client_orderid(prepared.params),
        )

    def _failed(self, text: str) -> None:
        self.guard.answered(None)
        self._set_busy(False)
        self.show_result("error", text, self._sending_command or None)
        if self.inspector.prepared is None or self.inspector.prepared.signed is not None:
            self.inspector.show_failure(text)

    def _cancelled(self) -> None:
        self.guard.answered(None)
        self.show_result("", "Cancelled: nothing sent.")
        self.inspector.show_cancelled()  # not "Waiting for the answer…" beside it

    # -- the result line ---------------------------------------------------------------------
    def show_result(
        self,
        state: str,
        text: str,
        command: str | None = None,
        *,
        lead: str = "",
        order: str = "",
    ) -> None:
        """Set the result line of ``command`` (default: the form shown) and show it.

        ``lead`` names the order ``order`` the words are about (see :class:`Line`).
        """
        command = command or self.forms.command
        line = Line(state, text, lead, order)
        changed = self._results.get(command) != line
        self._results[command] = line
        shown = self.refresh_result()
        if changed and command == self.forms.command:
            announce(self.result, shown)  # heard where it is said: under the form shown

    def result_of(self, command: str) -> tuple[str, str]:
        """(state, text) of a form's result line, whole (with the order it names)."""
        line = self._results.get(command, Line("", ""))
        return line.state, line.whole

    def refresh_result(self) -> str:
        """The shown form's own result line, and a note while another form's request is
        out; also after a theme change (the colours are in the text). Returns its words."""
        command = self.forms.command
        line = self._results.get(command, Line("", ""))
        state, text = line.state, line.whole
        if line.lead and line.order and line.order == self.guard.shown_order:
            text = line.text[:1].upper() + line.text[1:]  # the row above names the order
        sending = self.sending_command
        if sending and sending != command:
            title = COMMANDS[sending].title
            state, text = "busy", f"Sending {title}… its answer appears under its own form."
        colour = state_colour(state or "required", self.palette()).name()
        self.result.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")
        self.use_in_payout_button.setVisible(
            command == "create-card-ref" and bool(self.card_reference()) and sending != command
        )
        return text

    def card_reference(self) -> str:
        """The recurring payment id of the last accepted create-card-ref, if any."""
        outcome = self._outcomes.get("create-card-ref")
        if outcome is None or outcome.response is None or outcome.result != "accepted":
            return ""
        return outcome.response.get("recurring-payment-id") or ""

    def _use_last_in_payout(self) -> None:
        rpi = self.card_reference()
        if rpi:
            self.use_in_payout.emit(rpi)

    def forget_environment(self) -> None:
        """Result lines, answers (Use in payout) and the inspector's request of an
        environment left behind."""
        self._results.clear()
        self.inspector.forget()
        self._outcomes.clear()
        self._last = None
        self.refresh_result()
