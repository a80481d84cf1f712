"""Send: prepare through ``core.client``, show it, confirm production, send once on a worker."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from console.core.masking import PAN_FIELDS, mask_pan
from console.ui.confirm import ask
from console.ui.session import Session
from console.ui.tasks import TaskRunner

if TYPE_CHECKING:
    from console.core.client import JournalHooks, Outcome, PreparedRequest


def production_question(command: str, values: Mapping[str, str], receiver: str) -> str:
    """The confirmation text: what would move, in how much, to whom (masked)."""
    amount = values.get("amount") or values.get("amount-sequence") or ""
    if not amount and values.get("amount-from"):
        amount = f"{values.get('amount-from')} – {values.get('amount-to', '')}"
    currency = values.get("currency", "")
    lines = [
        f"<b>Send {html.escape(command)} to PRODUCTION?</b>",
        "Real money may move. Nothing is sent unless you confirm.",
        f"Amount: <b>{html.escape(amount or '(none)')} {html.escape(currency)}</b>",
    ]
    if not receiver:
        # A recurring profile has no receiver choice; the card it charges is what to check.
        card = next((values[n] for n in sorted(PAN_FIELDS) if values.get(n)), "")
        receiver = f"card {mask_pan(card)}" if card else ""
    if receiver:
        lines.append(f"Receiver: <b>{html.escape(receiver)}</b>")
    order_id = values.get("client_orderid") or values.get("client-orderid") or ""
    lines.append(f"client order id: {html.escape(order_id)}")
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


class SendController(QObject):
    """Owns the one-request-at-a-time guard around preparing and sending.

    Signals:
        prepared: the request about to be sent (or blocked), for the inspector.
        started / finished: busy state; ``finished`` carries the outcome.
        failed: plain words when nothing could be prepared or the worker failed.
    """

    prepared = Signal(object)
    started = Signal()
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, session: Session, tasks: TaskRunner, parent: QObject | None = None):
        super().__init__(parent)
        self.session = session
        self.tasks = tasks
        self.hooks: JournalHooks | None = None
        self.sending = False
        self.confirm: Callable[[QWidget, str], bool] = ask_production

    def send(
        self,
        command: str,
        values: Mapping[str, str],
        *,
        receiver: str = "",
        window: QWidget,
    ) -> bool:
        """Prepare, show, confirm if production, then send on a worker. True when sent."""
        if self.sending:
            return False  # a second click while the first request is in flight
        if not self.session.ready:
            self.failed.emit(
                self.session.problem or "No environment with a key is active: choose one first."
            )
            return False
        from console.core.client import prepare  # pulls in signing and requests: first use

        try:
            request = prepare(command, values, **self.session.prepare_kwargs(command))
        except (KeyError, ValueError) as exc:
            self.failed.emit(f"Could not prepare the request: {exc}")
            return False
        self.prepared.emit(request)
        if request.signed is None:
            self.failed.emit("Not sent: the request has errors. Fix them and send again.")
            return False
        if self.session.is_production:
            self.sending = True  # also guards while the question is open
            try:
                ok = self.confirm(window, production_question(command, values, receiver))
            finally:
                self.sending = False
            if not ok:
                self.cancelled.emit()
                return False
        self._start(request)
        return True

    def _start(self, request: PreparedRequest) -> None:
        from console.core.client import Client

        self.sending = True
        self.started.emit()
        transport = self.session.transport()
        client = Client(transport, self.hooks)

        def work() -> Outcome:
            try:
                return client.send(request)
            finally:
                transport.close()

        self.tasks.run(work, self._done, self._error)

    def _done(self, outcome: object) -> None:
        self.sending = False
        self.finished.emit(outcome)

    def _error(self, exc: BaseException, _tb: str) -> None:
        self.sending = False
        self.failed.emit(
            f"The request could not be completed ({exc}). If it may have arrived, check the "
            "status before resending with the same client_orderid."
        )
