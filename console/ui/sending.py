"""Send: through the core's send pipeline. The window's :class:`WindowAsker` answers the
pipeline's questions with a dialog each (the order is the core's); the send runs on a
worker."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from console.core import pipeline as core_pipeline  # its parts load on first use
from console.core.errors import ConsoleError, InputError, JournalUnavailableError
from console.ui.session import Session
from console.ui.tasks import TaskManager

if TYPE_CHECKING:
    from console.core.journals import JournalStore
    from console.core.pipeline import Check, Pipeline, Ready, Refused, SendSummary, Sent, Verdict
    from console.core.pipeline.asking import Hold, HoldRule
    from console.core.team.approvals.held import Awaiting
    from console.core.team.approvals.submissions import Submission
    from console.core.transport import Transport

RESEND = "Resend with the same client_orderid"
CHECK = "Check status"


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
    from console.ui.confirm import ask  # boundary: the dialog on first question

    return ask(
        parent,
        text,
        title="Production: confirm sending",
        action="Send to production",
        name="production-confirmation",
        alert=True,
    )


def approval_question(held: Hold) -> str:
    """The question before submitting a held request: why it is held and what it is."""
    lines = [f"<b>{html.escape(held.ACTION)}?</b>", html.escape(held.text)]
    lines += [html.escape(line) for line in held.check.summary.lines()]
    lines.append("Nothing is sent until a checker approves it.")
    return "<br>".join(lines)


AGAIN = "Submit it again after that rejection"  # the box a rejected request needs ticked


def ask_approval(parent: QWidget, text: str) -> bool:
    """Ask before submitting a request for a checker's approval; Cancel is the default."""
    from console.ui.confirm import ask  # boundary: the dialog on first question

    return ask(
        parent, text, title="Approval needed", action="Submit for approval", name="submit-question"
    )


def ask_approval_again(parent: QWidget, text: str) -> bool:
    """Ask before submitting a request a checker rejected before: Submit goes only with the
    box ticked (:data:`AGAIN`); Cancel is the default."""
    from console.ui.confirm import ask  # boundary: the dialog on first question

    return ask(
        parent,
        text,
        title="Rejected before",
        action="Submit for approval",
        name="submit-again-question",
        confirm=AGAIN,
    )


def ask_resend(parent: QWidget, text: str) -> str:
    """Ask before resending an id whose last outcome is unknown: the words of the button
    pressed (:data:`RESEND`, :data:`CHECK`), "" for Cancel, the default."""
    from console.ui.confirm import choose  # boundary: the dialog on first question

    return choose(
        parent,
        html.escape(text),
        title="Outcome unknown: send again?",
        action=RESEND,
        others=(CHECK,),
        name="unknown-outcome-question",
    )


def ask_card_number(parent: QWidget, text: str) -> bool:
    """Ask before sending a card number that fails the Luhn check; Cancel is the default."""
    from console.ui.confirm import ask  # boundary: the dialog on first question

    return ask(
        parent,
        html.escape(text),
        title="Check the card number",
        action="Send with this card number",
        name="card-number-confirmation",
    )


class WindowAsker:
    """The window's answers to the pipeline's questions (``console.core.pipeline.Asker``):
    a modal dialog each, Cancel by default. The dialogs are the controller's, so tests and
    the window can replace them."""

    def __init__(self, controller: SendController, window: QWidget) -> None:
        self.controller = controller
        self.window = window
        self.checking: Verdict | None = None  # the person chose to check the status first

    def resend_unknown(self, check: Check) -> bool:
        answer = self.controller.confirm_resend(self.window, check.question)
        if answer == CHECK:
            self.checking = check.verdict
        return answer == RESEND

    def card_number(self, check: Check) -> bool:
        return self.controller.confirm_card(self.window, check.card_question)

    def submit_for_approval(self, held: Hold) -> bool:
        if held.rejection:  # the core then submits it after that rejection, audited
            return self.controller.confirm_submit_again(self.window, approval_question(held))
        return self.controller.confirm_submit(self.window, approval_question(held))

    def production(self, check: Check) -> bool:
        return self.controller.confirm(self.window, production_question(check.summary))


class SendController(QObject):
    """Sends the window's requests through the core's send pipeline, one at a time.

    The pipeline owns the rules (guard, the order of the questions, journal, masking); this
    answers its questions with the window's dialogs and runs the send on a worker.

    Signals:
        prepared: the request about to be sent (or blocked), for the inspector.
        started / finished: busy state; ``finished`` carries the (masked) outcome.
        failed: plain words when nothing could be prepared or sent.
        check_status(client_orderid, gateway_order_id): asked about an unknown outcome, the
            person chose to check the status first (nothing was sent).
    """

    prepared = Signal(object)
    started = Signal(str)  # the command on its way
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    check_status = Signal(str, object)
    submitted = Signal(object)  # an Awaiting: held for a checker's approval (team mode)
    decided = Signal(object, str)  # an Awaiting not approved, and what became of it

    def __init__(self, session: Session, tasks: TaskManager, parent: QObject | None = None):
        super().__init__(parent)
        self.session = session
        self.tasks = tasks
        self.journal: JournalStore | None = None
        self.journal_error: JournalUnavailableError | None = None
        self.sending = False  # a request is asked about or on its way: no second one
        self.asking = False  # a question about it is open: nothing is on its way yet
        self.confirm: Callable[[QWidget, str], bool] = ask_production
        self.confirm_resend: Callable[[QWidget, str], str] = ask_resend
        self.confirm_card: Callable[[QWidget, str], bool] = ask_card_number
        self.confirm_submit: Callable[[QWidget, str], bool] = ask_approval
        self.confirm_submit_again: Callable[[QWidget, str], bool] = ask_approval_again
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
        holds: HoldRule | None = None
        if self.team:  # boundary: team mode only (its approval rule, psycopg)
            from console.core.team.approvals.held import hold

            holds = hold
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
            holds=holds,
        )

    def send(self, command: str, values: Mapping[str, str], *, window: QWidget) -> bool:
        """Prepare, ask what the pipeline asks (in its order), then send on a worker (or, held
        by the team's policy, submit for approval). True when it went."""
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

        asker = WindowAsker(self, window)
        self.sending = self.asking = True  # also guards while a question is open
        try:
            ready = pipeline.ask(check, asker, approval=self.team)
        finally:
            self.sending = self.asking = False
        if isinstance(ready, core_pipeline.Refused):
            self._refused(ready, asker)
            return False
        self._go(pipeline, ready)
        return True

    def _refused(self, refused: Refused, asker: WindowAsker) -> None:
        checking = asker.checking
        if checking is not None:
            self.check_status.emit(checking.client_orderid, checking.gateway_order_id)
        elif refused.question is None:
            self.failed.emit(refused.message)
        else:
            self.cancelled.emit()  # the person said no

    def needs_approval(self, command: str, values: Mapping[str, str]) -> bool:
        """Whether the team's policy would hold this request back (asks the database: call
        it on a worker). False for one person."""
        env = self.session.environment
        if not self.team or env is None:
            return False
        # boundary: team mode only (the team database's modules)
        from console.core.team.approvals.approval import Approvals
        from console.core.team.storage.gateways import Target  # boundary: as above
        from console.core.team.storage.journal import TeamJournal  # boundary: as above

        journal = self.journal
        assert isinstance(journal, TeamJournal)
        amount, currency = values.get("amount") or None, values.get("currency") or None
        try:
            target = Target.for_command(command, self.session.prepare_kwargs(command))
        except (RuntimeError, ValueError):  # no key or no usable address: nothing to hold
            return False
        return Approvals(journal).needs_approval_of(target, command, amount, currency)

    def _go(self, pipeline: Pipeline, ready: Ready) -> None:
        """On a worker: send it; or, held for a checker, submit it, and this window keeps it
        (card data included) in memory and sends it once when the approval arrives."""
        if ready.held is not None:
            self.tasks.run(
                lambda: pipeline.go(ready, waiting=True), self._submitted, self._error, lane="send"
            )
            return
        self.sending = True
        self.started.emit(ready.check.prepared.command)
        self.tasks.run(lambda: pipeline.go(ready), self._done, self._error, lane="send")

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
        if not awaiting.goes_on(found):
            # boundary: team mode only
            from console.core.team.approvals.submissions import decision_text

            self._stop_waiting(awaiting, decision_text(found))
            return
        self.awaiting.pop(awaiting.id, None)
        self.sending = True
        self.started.emit(awaiting.submitted.prepared.command)
        self.tasks.run(awaiting.send, self._done, self._error, lane="send")

    def _stop_waiting(self, awaiting: Awaiting, words: str) -> None:
        self.awaiting.pop(awaiting.id, None)
        self.decided.emit(awaiting, words)

    def _done(self, sent: Sent | Refused) -> None:
        self.sending = False

        # decided again in the journal: on its way, accepted
        if isinstance(sent, core_pipeline.Refused):
            self.failed.emit(sent.message)
            return
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
