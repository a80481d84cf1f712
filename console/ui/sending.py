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
    from console.core.history import History
    from console.core.pipeline import Decision, Pipeline, SendSummary, Sent
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
    started = Signal()
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, session: Session, tasks: TaskManager, parent: QObject | None = None):
        super().__init__(parent)
        self.session = session
        self.tasks = tasks
        self.journal: History | None = None
        self.journal_error: JournalUnavailableError | None = None
        self.sending = False
        self.last_sent: Sent | None = None
        self.confirm: Callable[[QWidget, str], bool] = ask_production
        self.confirm_card: Callable[[QWidget, str], bool] = ask_card_number

    def pipeline(self, transport: Callable[[], Transport] | None = None) -> Pipeline:
        """The send pipeline of the active environment; ``transport``: a shared one per
        thread (a batch), which the caller closes; by default a fresh one per send."""
        from console.core.pipeline import Pipeline  # signing and HTTP: on first use

        env = self.session.environment
        if env is None:
            raise InputError(self.session.problem or "No environment is active: choose one.")
        return Pipeline(
            env.name,
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
        if check.card_question:
            self.sending = True  # also guards while the question is open
            try:
                card_ok = self.confirm_card(window, check.card_question)
            finally:
                self.sending = False
            if not card_ok:
                self.cancelled.emit()
                return False
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
        from console.core.pipeline import Decision

        decision = Decision(confirmed, resend_after_unknown, card_ok)
        self._start(pipeline, check.prepared, decision)
        return True

    def _start(self, pipeline: Pipeline, request: PreparedRequest, decision: Decision) -> None:
        self.sending = True
        self.started.emit()
        self.tasks.run(
            lambda: pipeline.send(request, decision), self._done, self._error, lane="send"
        )

    def _done(self, sent: Sent) -> None:
        self.sending = False
        self.last_sent = sent
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
