"""The batch dialog's work, off the GUI thread: check a file, sign it (dry run), send it
through the core's batch runner, check the status of rows with an unknown outcome.

The rules are the core's (``console.core.batch``): this only asks the person where the plan
says so (one confirmation for a whole production batch) and moves results to the GUI thread,
at most ten times a second, so typing stays smooth while rows fly.
"""

from __future__ import annotations

import dataclasses
import html
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from console.core import batch as core
from console.core.errors import ConsoleError
from console.core.team.approvals.held import require_approved
from console.core.team.approvals.held_batch import HeldBatch, hold_batch
from console.ui.confirm import ask

if TYPE_CHECKING:
    from console.core.pipeline import Pipeline
    from console.core.transport import Transport
    from console.ui.session import Session
    from console.ui.tasks import TaskManager


def _words(exc: ConsoleError) -> str:
    """What the window says of a refusal: its own ways out (a batch's refusal names the
    window's choices, not the command line's options)."""
    in_window = getattr(exc, "in_window", None)
    return in_window if isinstance(in_window, str) else exc.message


class Sender(Protocol):
    """What a batch needs of the window's sender: the active environment's pipeline, and
    whether the journal is the team's (its approval policy applies)."""

    @property
    def team(self) -> bool: ...

    def pipeline(self, transport: Callable[[], Transport] | None = None) -> Pipeline: ...


def batch_question(summary: core.BatchSummary) -> str:
    """The one confirmation of a production batch: rows, totals, largest payout."""
    lines = [
        "<b>Send this batch to PRODUCTION?</b>",
        "Real money moves. Nothing is sent unless you confirm.",
    ]
    lines += [html.escape(line) for line in summary.lines()]
    return "<br>".join(lines)


def ask_batch_approval(parent: QWidget, text: str) -> bool:
    return ask(
        parent,
        text,
        title="Approval needed",
        action="Submit the batch for approval",
        name="batch-submit-question",
    )


def ask_batch_approval_again(parent: QWidget, text: str) -> bool:
    """Submit a batch rejected before: only with the box under the question ticked."""
    return ask(
        parent,
        text,
        title="Rejected before",
        action="Submit the batch for approval",
        name="batch-submit-again-question",
        confirm="Submit it again after that rejection",
    )


def ask_batch(parent: QWidget, text: str) -> bool:
    return ask(
        parent,
        text,
        title="Production: confirm the batch",
        action="Send the batch",
        name="batch-confirmation",
    )


class BatchController(QObject):
    """Checks and sends one file for the window's active environment."""

    checked = Signal(object)  # core.Plan
    lines_ready = Signal(object)  # dict[int, ResultLine]
    rows_done = Signal(object)  # list[RowResult]
    progressed = Signal(object)  # core.Progress
    finished = Signal(object)  # core.BatchReport
    failed = Signal(str)
    said = Signal(str)  # how it goes (team mode: submitted, waiting for a checker)
    busy_changed = Signal(bool)

    def __init__(
        self, session: Session, sender: Sender, tasks: TaskManager, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.sends = sender
        self.tasks = tasks
        self.parent_widget = parent
        self.plan: core.Plan | None = None
        self.runner: core.BatchRunner | None = None
        self.busy = False
        self._after_load = ""  # said once a file read again after a status check is shown
        self.confirm: Callable[[QWidget, str], bool] = ask_batch
        self.confirm_submit: Callable[[QWidget, str], bool] = ask_batch_approval
        self.confirm_submit_again: Callable[[QWidget, str], bool] = ask_batch_approval_again
        self.wait_step = 2.0  # seconds per wait for a checker's decision (team mode)
        self._pending: deque[core.RowResult] = deque()
        self._progress: core.Progress | None = None
        self._lock = threading.Lock()
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._drain)

    # -- helpers -------------------------------------------------------------------------

    def _pipeline(self, pool: core.TransportPool | None = None) -> Pipeline:
        return self.sends.pipeline(pool)

    def _connection(self, command: str) -> dict[str, Any]:
        if not self.session.ready:
            raise ConsoleError(
                self.session.problem or "No environment with a key is active: choose one first."
            )
        return self.session.prepare_kwargs(command)

    def _start(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        self._set_busy(True)

        def ok(result: Any) -> None:
            self._set_busy(False)
            done(result)

        self.tasks.run(work, ok, self._error)

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.busy_changed.emit(busy)

    def _error(self, exc: BaseException, _tb: str) -> None:
        self._timer.stop()
        self._drain()
        self._set_busy(False)
        if isinstance(exc, ConsoleError):
            self.failed.emit(_words(exc))
        else:
            self.failed.emit(
                f"The batch could not go on ({type(exc).__name__}: {exc}). Rows sent so far "
                "are in the journal and the results file."
            )

    # -- checking --------------------------------------------------------------------------

    def load(
        self,
        path: Path,
        *,
        skip_invalid: bool = False,
        resend_unknown: bool = False,
        confirm_card_numbers: bool = False,
    ) -> None:
        """Read and check ``path`` against the contract and the journal (on a worker)."""
        env = self.session.environment
        if env is None:
            self.failed.emit("No environment is active: choose one first.")
            return
        try:
            pipeline = self._pipeline()
        except ConsoleError as exc:
            self.failed.emit(_words(exc))
            return
        production = self.session.is_production

        def work() -> tuple[core.Plan, dict[int, core.ResultLine]]:
            batch = core.read_batch(path)
            ids = (row.client_orderid for row in batch.rows)
            validation = core.check_batch(batch, pipeline.verdicts(core.COMMAND, ids))
            limits = core.limits_for(env.name, production=production)
            plan = core.Plan(
                validation,
                env.name,
                production,
                limits,
                skip_invalid,
                resend_unknown,
                confirm_card_numbers,
            )
            return plan, core.result_lines(validation, pipeline)

        self._start(work, self._loaded)

    def _loaded(self, result: tuple[core.Plan, dict[int, core.ResultLine]]) -> None:
        self.plan, lines = result
        self.checked.emit(self.plan)
        self.lines_ready.emit(lines)
        if self._after_load:  # what a status check found, over the file's own message
            self.said.emit(self._after_load)
            self._after_load = ""

    def choose(
        self, *, skip_invalid: bool, resend_unknown: bool, confirm_card_numbers: bool = False
    ) -> None:
        """The person's choices for the loaded file (no new reading)."""
        if self.plan is not None:
            self.plan = dataclasses.replace(
                self.plan,
                skip_invalid=skip_invalid,
                resend_unknown=resend_unknown,
                confirm_card_numbers=confirm_card_numbers,
            )
            self.checked.emit(self.plan)

    # -- dry run and send ------------------------------------------------------------------

    def dry_run(self) -> None:
        """Sign every row to be sent; send nothing."""
        plan = self.plan
        if plan is None or self.busy:
            return
        try:
            pipeline, conn = self._pipeline(), self._connection(core.COMMAND)
        except ConsoleError as exc:
            self.failed.emit(_words(exc))
            return
        self._start(lambda: core.sign_rows(pipeline, conn, plan), self.finished.emit)

    def send(self, concurrency: int = 1) -> bool:
        """Confirm (production: once for the whole batch), then send on a worker."""
        plan = self.plan
        if plan is None or self.busy:
            return False
        pool = core.TransportPool(self.session.transport)
        try:
            pipeline, conn = self._pipeline(pool), self._connection(core.COMMAND)
            decision = core.BatchDecision(resend_unknown=plan.resend_unknown)
            refusal = plan.refusal()
            if refusal is not None:
                raise refusal
            held = self._hold(pipeline, conn, plan)
            if held is not None:
                return self._submit(held, plan, pipeline, pool, concurrency)
            if plan.production:
                if not self.confirm(self.parent_widget, batch_question(plan.summary)):
                    self.failed.emit("Not sent: the production batch was not confirmed.")
                    return False
                decision = dataclasses.replace(decision, confirmed=plan.summary)
            results = core.ResultsFile(
                core.results_path(plan.validation.batch.path),
                core.result_lines(plan.validation, pipeline),
            )
            self.runner = core.BatchRunner(
                pipeline,
                conn,
                plan,
                decision,
                concurrency=concurrency,
                on_row=lambda r, p: self._row(results, r, p),
                leaving=results,
            )
        except ConsoleError as exc:
            pool.close()
            self.failed.emit(_words(exc))
            return False
        self._run(results, pool, self.runner.run)
        return True

    def _run(
        self,
        results: core.ResultsFile,
        pool: core.TransportPool,
        run: Callable[[], core.BatchReport],
    ) -> None:
        """Run on a worker; the results file is written before and after, whatever happens."""

        def work() -> core.BatchReport:
            try:
                results.flush()
                return run()
            finally:
                results.flush()
                pool.close()

        self._timer.start()
        self._start(work, self._done)

    def _hold(self, pipeline: Pipeline, conn: dict[str, Any], plan: core.Plan) -> HeldBatch | None:
        """The team's approval policy on the whole batch (None for one person)."""
        if not self.sends.team:
            return None
        return hold_batch(pipeline, conn, plan)

    def _submit(
        self,
        held: HeldBatch,
        plan: core.Plan,
        pipeline: Pipeline,
        pool: core.TransportPool,
        concurrency: int,
    ) -> bool:
        """Submit the whole batch for one checker's approval, wait for it off the GUI thread
        (the rows, card data included, stay in this window's memory), then run it once."""
        question = "<br>".join(html.escape(line) for line in [held.text, *held.lines])
        # rejected before: submitted again only with the box under the question ticked
        ask = self.confirm_submit_again if held.rejection else self.confirm_submit
        if not ask(self.parent_widget, question):
            pool.close()
            self.failed.emit("Not submitted: nothing was sent.")
            return False
        results = core.ResultsFile(
            core.results_path(plan.validation.batch.path),
            core.result_lines(plan.validation, pipeline),
        )
        tasks, step = self.tasks, self.wait_step

        def started(runner: core.BatchRunner) -> None:
            self.runner = runner

        def run() -> core.BatchReport:
            awaiting = held.submit(waiting=True, after_rejection=bool(held.rejection))
            self.said.emit(
                f"Submitted for approval as #{awaiting.id}: nothing is sent until a checker "
                "approves the batch; this window then runs it. Keep it open."
            )
            found = awaiting.current()
            while found.state == "pending" and not tasks.closing:
                found = awaiting.wait(step)
            require_approved(found, what="batch ")
            self.said.emit(f"Batch #{awaiting.id} approved by {found.decided_by}; sending…")
            return awaiting.run(
                concurrency=concurrency,
                on_row=lambda r, p: self._row(results, r, p),
                on_start=started,
                leaving=results,
            )

        self._run(results, pool, run)
        return True

    def _row(
        self, results: core.ResultsFile, result: core.RowResult, progress: core.Progress
    ) -> None:
        """In the batch's thread: the results file, then a note for the GUI thread."""
        results.update(result)
        with self._lock:
            self._pending.append(result)
            self._progress = progress

    def _drain(self) -> None:
        with self._lock:
            done = list(self._pending)
            self._pending.clear()
            progress, self._progress = self._progress, None
        if done:
            self.rows_done.emit(done)
        if progress is not None:
            self.progressed.emit(progress)

    def _done(self, report: core.BatchReport) -> None:
        self._timer.stop()
        self._drain()
        self.runner = None
        self.finished.emit(report)

    def pause(self) -> None:
        if self.runner is not None:
            self.runner.pause()

    def resume(self) -> None:
        if self.runner is not None:
            self.runner.resume()

    def stop(self) -> None:
        if self.runner is not None:
            self.runner.stop()

    # -- status ----------------------------------------------------------------------------

    def check_status(self) -> None:
        """Ask the gateway about rows whose outcome is unknown or not final, write the
        results file with what it said, then check the file again (rows the gateway holds
        are then skipped)."""
        plan = self.plan
        if plan is None or self.busy:
            return
        try:
            pipeline, conn = self._pipeline(), self._connection("status")
        except ConsoleError as exc:
            self.failed.emit(_words(exc))
            return
        path = plan.validation.batch.path
        out = core.results_path(path)
        answers: list[core.StatusAnswer] = []

        def checked(_lines: object) -> None:
            self._after_load = core.never_arrived_text(answers)  # said once the file is read
            self.load(
                path,
                skip_invalid=plan.skip_invalid,
                resend_unknown=plan.resend_unknown,
                confirm_card_numbers=plan.confirm_card_numbers,
            )

        self._start(
            lambda: core.check_results(pipeline, conn, plan.validation, out, answers.append),
            checked,
        )
