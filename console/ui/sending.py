"""Send: through the core's send pipeline; ask the person where it says so; send on a worker."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from console.core.errors import ConsoleError, InputError, JournalUnavailableError
from console.ui.confirm import ask
from console.ui.session import Session
from console.ui.tasks import TaskManager

if TYPE_CHECKING:
    from console.core.client import PreparedRequest
    from console.core.journals import JournalStore
    from console.core.pipeline import Check, Decision, Pipeline, SendSummary, Sent
    from console.core.team.approval import Submission
    from console.core.team.held import Awaiting, Held
    from console.core.transport import Transport


def production_question(summary: SendSummary) -> str:
    """The confirmation text, from the prepared request: what would move, where, to whom
    (masked), and anything that only makes sense on a sandbox."""
    lines = [
        f"<b>Send {html.escape(summary.command)} to PRODUCTION?</b>",
        "Real money may move. Nothing is sent unless you confirm.",
    ]
    for line in summary.lines():
        text = html.escape(line)
        if line.startswith("Check: "):
            text = f"<b>⚠ {html.escape(line.removeprefix('Check: '))}</b>"
        lines.append(text)
    return "<br>".join(lines)


def ask_production(parent: QWidget, text: str) -> bool:
    """Ask before a production send; Cancel is the default answer."""
    return ask(
        parent,
        text,
        title="Production: confirm sending",
        action="Send to production",
        name="production-confirmation",
    )


def approval_question(held: Held) -> str:
    """The question before submitting a held request: why it is held and what it is."""
    lines = [f"<b>{html.escape(held.ACTION)}?</b>", html.escape(held.text)]
    lines += [html.escape(line) for line in held.check.summary.lines()]
    lines.append("Nothing is sent until a checker approves it.")
    return "<br>".join(lines)


def ask_approval(parent: QWidget, text: str) -> bool:
    """Ask before submitting a request for a checker's approval; Cancel is the default."""
    return ask(
        parent, text, title="Approval needed", action="Submit for approval", name="submit-question"
    )


def ask_card_number(parent: QWidget, text: str) -> bool:
    """Ask before sending a card number that fails the Luhn check; Cancel is the default."""
    return ask(
        parent,
        html.escape(text),
        title="Check the card number",
        action="Send with this card number",
        name="card-number-confirmation",
    )


class SendController(QObject):
    """Sends the window's requests through the core's send pipeline, one at a time.

    The pipeline owns the rules (guard, confirmation, journal, masking); this asks the person
    where the pipeline says so and runs the send on a worker.

    Signals:
        prepared: the request about to be sent (or blocked), for the inspector.
        started / finished: busy state; ``finished`` carries the (masked) outcome.
        failed: plain words when nothing could be prepared or sent.
    """

    prepared = Signal(object)
    started = Signal(str)  # the command on its way
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    submitted = Signal(object)  # an Awaiting: held for a checker's approval (team mode)
    decided = Signal(object, str)  # an Awaiting not approved, and what became of it

    def __init__(self, session: Session, tasks: TaskManager, parent: QObject | None = None):
        super().__init__(parent)
        self.session = session
        self.tasks = tasks
        self.journal: JournalStore | None = None
        self.journal_error: JournalUnavailableError | None = None
        self.sending = False
        self.confirm: Callable[[QWidget, str], bool] = ask_production
        self.confirm_card: Callable[[QWidget, str], bool] = ask_card_number
        self.confirm_submit: Callable[[QWidget, str], bool] = ask_approval
        self.awaiting: dict[int, Awaiting] = {}  # submitted here, card data in memory
        self.wait_step = 2.0  # seconds per wait for a decision (closing stays quick)

    @property
    def team(self) -> bool:
        """The journal is the team's: its approval policy applies."""
        return self.journal is not None and self.journal.shared

    def pipeline(self, transport: Callable[[], Transport] | None = None) -> Pipeline:
        """The send pipeline of the active environment; ``transport``: a shared one per
        thread (a batch), which the caller closes; by default a fresh one per send."""
        from console.core.pipeline import Pipeline  # signing and HTTP: on first use

        env = self.session.environment
        if env is None:
            raise InputError(self.session.problem or "No environment is active: choose one.")
        return Pipeline(
            env.name,
            gateway=env.gateway,
            production=self.session.is_production,
            journal=self.journal,
            transport=transport or self.session.transport,
            close_transport=transport is None,
            connect_timeout=env.connect_timeout,
            read_timeout=env.read_timeout,
            journal_error=self.journal_error,
        )

    def send(
        self,
        command: str,
        values: Mapping[str, str],
        *,
        window: QWidget,
        resend_after_unknown: bool = False,
    ) -> bool:
        """Prepare, show, confirm if production, then send on a worker. True when sent."""
        if self.sending:
            return False  # a second click while the first request is in flight
        if not self.session.ready:
            self.failed.emit(
                self.session.problem or "No environment with a key is active: choose one first."
            )
            return False
        try:
            pipeline = self.pipeline()
            check = pipeline.prepare(command, values, **self.session.prepare_kwargs(command))
        except ConsoleError as exc:
            self.failed.emit(f"Could not prepare the request: {exc.message}")
            return False
        self.prepared.emit(check.prepared)
        if check.blocked:
            self.failed.emit(check.blocked)
            return False
        card_ok = False
        held = self._hold(pipeline, check)
        if check.card_question:
            self.sending = True  # also guards while the question is open
            try:
                card_ok = self.confirm_card(window, check.card_question)
            finally:
                self.sending = False
            if not card_ok:
                self.cancelled.emit()
                return False
        from console.core.pipeline import Decision

        if held is not None:  # the approval is the production confirmation
            return self._submit(held, Decision(False, resend_after_unknown, card_ok), window)
        confirmed = False
        if check.needs_confirmation:
            self.sending = True  # also guards while the question is open
            try:
                confirmed = self.confirm(window, production_question(check.summary))
            finally:
                self.sending = False
            if not confirmed:
                self.cancelled.emit()
                return False
        decision = Decision(confirmed, resend_after_unknown, card_ok)
        self._start(pipeline, check.prepared, decision)
        return True

    def _hold(self, pipeline: Pipeline, check: Check) -> Held | None:
        """The team's approval policy on this request (None for one person)."""
        if not self.team:
            return None
        from console.core.team.held import hold

        return hold(pipeline, check)

    def needs_approval(self, command: str, values: Mapping[str, str]) -> bool:
        """Whether the team's policy would hold this request back (asks the database: call
        it on a worker). False for one person."""
        env = self.session.environment
        if not self.team or env is None:
            return False
        from console.core.team.approval import Approvals
        from console.core.team.journal import TeamJournal

        journal = self.journal
        assert isinstance(journal, TeamJournal)
        amount, currency = values.get("amount") or None, values.get("currency") or None
        return Approvals(journal).needs_approval_of(env.name, command, amount, currency)

    def _submit(self, held: Held, decision: Decision, window: QWidget) -> bool:
        """Submit a held request for a checker; this window keeps it (card data included)
        in memory and sends it once when the approval arrives."""
        self.sending = True  # also guards while the question is open
        try:
            go = self.confirm_submit(window, approval_question(held))
        finally:
            self.sending = False
        if not go:
            self.cancelled.emit()
            return False
        self.tasks.run(
            lambda: held.submit(waiting=True, decision=decision),
            self._submitted,
            self._error,
            lane="send",
        )
        return True

    def _submitted(self, awaiting: Awaiting) -> None:
        self.awaiting[awaiting.id] = awaiting
        self.submitted.emit(awaiting)
        self._wait(awaiting)

    def _wait(self, awaiting: Awaiting) -> None:
        """Wait for the decision a few seconds at a time, off the GUI thread."""
        step = self.wait_step
        self.tasks.run(
            lambda: awaiting.wait(step),
            lambda found: self._heard(awaiting, found),
            lambda exc, _tb: self._stop_waiting(awaiting, f"Waiting for #{awaiting.id}: {exc}"),
            lane="io",
        )

    def _heard(self, awaiting: Awaiting, found: Submission) -> None:
        if found.state == "pending":
            if not self.tasks.closing:
                self._wait(awaiting)
            return
        if found.state != "approved":
            from console.core.team.held import decision_text

            self._stop_waiting(awaiting, decision_text(found))
            return
        self.awaiting.pop(awaiting.id, None)
        self.sending = True
        self.started.emit(awaiting.submitted.prepared.command)
        self.tasks.run(awaiting.send, self._done, self._error, lane="send")

    def _stop_waiting(self, awaiting: Awaiting, words: str) -> None:
        self.awaiting.pop(awaiting.id, None)
        self.decided.emit(awaiting, words)

    def _start(self, pipeline: Pipeline, request: PreparedRequest, decision: Decision) -> None:
        self.sending = True
        self.started.emit(request.command)
        self.tasks.run(
            lambda: pipeline.send(request, decision), self._done, self._error, lane="send"
        )

    def _done(self, sent: Sent) -> None:
        self.sending = False
        self.finished.emit(sent.outcome)

    def _error(self, exc: BaseException, _tb: str) -> None:
        self.sending = False
        if isinstance(exc, ConsoleError):  # refused, or no journal: nothing was sent
            self.failed.emit(exc.message)
            return
        self.failed.emit(
            f"The request could not be completed ({exc}). If it may have arrived, check the "
            "status before resending with the same client_orderid."
        )
