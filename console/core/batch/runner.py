"""Running a batch: every row through the send pipeline (guard, journal row committed before
the send, masking), in file order, one at a time by default and never more than
:data:`MAX_CONCURRENCY` at once.

Nothing is retried. The batch stops by itself at the first row whose outcome is unknown (no
answer, a 500, an unreadable answer: the money may have moved), and also when the gateway
refuses the key (403) or cannot be reached (every further row would meet the same). Rows
already in flight finish first. Pause holds back new rows; stop ends the batch after the rows
in flight. Rows whose pending rows were written ahead of their turn (a block at a time)
and that the run then does not send are withdrawn: "not sent" in the journal.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from console.core.batch.checking import CheckedRow
from console.core.batch.limits import MAX_CONCURRENCY
from console.core.batch.plan import BatchDecision, Plan
from console.core.batch.source import COMMAND
from console.core.client import Outcome, Result
from console.core.errors import ConsoleError, JournalUnavailableError, SendRefusedError
from console.core.order_facts import answer_order_id
from console.core.pipeline import Answered, Claimed, Pipeline, Ready, Refusal, Refused, Sent
from console.core.transport import Transport

SKIPPED = "skipped"  # the pipeline refused it when its turn came (``refusal`` says why)
SIGNED = "signed"  # dry run: signed, not sent
# Results after which no further row is sent, with the reason in plain words.
_STOPS = {
    Result.UNKNOWN: "its outcome is unknown: check its status before anything else is sent",
    Result.GATEWAY_FAILED: "the gateway failed (500 or an unreadable answer), so the outcome "
    "is unknown: check its status before anything else is sent",
    Result.ACCESS_DENIED: "access denied (403): every other row would be refused too; check "
    "the key, the login and the URL",
    Result.NOT_SENT: "the gateway could not be reached; the row was not sent and is safe to "
    "send again",
}


class LeavingRows(Protocol):
    """Told of rows before they may leave (a results file that must not say "not sent yet"
    of a row whose request may be at the gateway when the process dies)."""

    def leaving(self, numbers: Sequence[int]) -> None:
        """Rows about to be sent: recorded (on disk) before any of them leaves."""

    def stayed(self, numbers: Sequence[int]) -> None:
        """Rows told as leaving that the run never sent (it stopped before them)."""


# Why claimed rows were not sent, as the journal says it.
_STOPPED = "Not sent: the batch stopped before this row's turn."
_PAUSED = "Not sent: held back when the batch was paused (sent later if the batch resumes)."

# Rows told as leaving at once: doubled while the results file is rewritten more often than
# once a second, so a large batch rewrites it about once a second, not once a row.
_MOST_AHEAD = 512


@dataclass(frozen=True, slots=True)
class RowResult:
    """What became of one row: a pipeline result (accepted, rejected...), or skipped/signed.

    ``outcome`` is the masked outcome (card data cut to first six and last four);
    ``refusal`` is the pipeline's :class:`~console.core.pipeline.Refusal` code of a skipped
    row (accepted meanwhile by another console, a card number failing its check digit ...).
    """

    checked: CheckedRow
    result: str
    message: str
    outcome: Outcome | None = None
    refusal: str = ""

    @property
    def number(self) -> int:
        return self.checked.row.number

    @property
    def gateway_order_id(self) -> str | None:
        response = self.outcome.response if self.outcome is not None else None
        if response is None:
            return None
        return answer_order_id(response.fields)


# What a row's turn starts from: claimed with its block, refused or failed then, or nothing yet.
_Step = Claimed | Refused | RowResult | None


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a batch stands: rows done of total, rows per second, seconds left."""

    done: int
    total: int
    elapsed: float
    paused: bool = False

    @property
    def rate(self) -> float:
        return self.done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def left(self) -> float | None:
        return (self.total - self.done) / self.rate if self.rate > 0 else None


@dataclass(slots=True)
class BatchReport:
    """The rows done, and why the batch stopped early (empty: it ran to the end)."""

    results: list[RowResult] = field(default_factory=list)
    stopped: str = ""
    elapsed: float = 0.0

    def count(self, result: str) -> int:
        return sum(1 for r in self.results if r.result == result)


class TransportPool:
    """One transport per worker thread (a connection kept alive per thread), closed at the
    end; pass it as the pipeline's ``transport`` with ``close_transport=False``."""

    def __init__(self, make: Callable[[], Transport]) -> None:
        self._make = make
        self._local = threading.local()
        self._all: list[Transport] = []
        self._lock = threading.Lock()

    def __call__(self) -> Transport:
        transport: Transport | None = getattr(self._local, "transport", None)
        if transport is None:
            transport = self._make()
            self._local.transport = transport
            with self._lock:
                self._all.append(transport)
        return transport

    def close(self) -> None:
        with self._lock:
            for transport in self._all:
                transport.close()
            self._all.clear()


class BatchRunner:
    """Runs one plan through one pipeline.

    Args:
        pipeline: the environment's send pipeline.
        connection: keyword arguments for ``Pipeline.prepare`` (address, login, key...).
        plan: the checked file and the person's choices.
        decision: the person's decision for the whole batch.
        concurrency: rows in flight at once, 1 to :data:`MAX_CONCURRENCY`.
        on_row: called (in a worker thread) with each row's result as it is known.
        leaving: told of rows before they may leave, and of those it then did not send.

    Raises:
        BatchRefusedError: the plan may not start, or a production batch was not confirmed.
        ValueError: concurrency out of range.
    """

    def __init__(
        self,
        pipeline: Pipeline,
        connection: Mapping[str, Any],
        plan: Plan,
        decision: BatchDecision,
        *,
        concurrency: int = 1,
        on_row: Callable[[RowResult, Progress], None] | None = None,
        leaving: LeavingRows | None = None,
    ) -> None:
        if not 1 <= concurrency <= MAX_CONCURRENCY:
            raise ValueError(f"concurrency must be 1 to {MAX_CONCURRENCY}")
        refusal = plan.refusal()
        if refusal is not None:
            raise refusal
        self._decide = plan.authorize(decision)
        self.pipeline = pipeline
        self.connection = dict(connection)
        self.plan = plan
        self.concurrency = concurrency
        self.on_row = on_row
        self.leaving = leaving
        self._go = threading.Event()
        self._go.set()
        self._stop = threading.Event()
        self._started = 0.0
        self._paused_for = 0.0
        self._paused_at: float | None = None

    # -- control (any thread) ---------------------------------------------------------

    def pause(self) -> None:
        if self._go.is_set():
            self._paused_at = time.perf_counter()
            self._go.clear()

    def resume(self) -> None:
        if not self._go.is_set():
            self._paused_for += time.perf_counter() - (self._paused_at or time.perf_counter())
            self._paused_at = None
            self._go.set()

    def stop(self) -> None:
        self._stop.set()
        self._go.set()

    @property
    def paused(self) -> bool:
        return not self._go.is_set()

    # -- running ------------------------------------------------------------------------

    def run(self) -> BatchReport:
        """Send the plan's rows in order; return when done, stopped or stopped by a row.

        Each of ``concurrency`` threads takes the next row and records its result
        (``on_row`` is called in that thread, one call at a time). Where the pipeline's
        journal can (:attr:`Pipeline.claims_in_blocks`), one more thread claims the rows
        a block ahead (:class:`_Claims`), so a row's turn does not wait for its own
        journal transaction and sync; otherwise each thread prepares and claims its row
        itself. A row that raises stops the batch (rows in flight finish) and is raised
        here.
        """
        rows = self.plan.to_run
        report = BatchReport()
        turn = threading.Lock()  # the next row, and the report, one thread at a time
        telling = threading.Lock()  # on_row, one call at a time
        failed = threading.Event()
        ahead = _Ahead(rows, self.leaving, self.concurrency)
        claims = None
        if self.pipeline.claims_in_blocks:
            over = lambda: bool(report.stopped) or failed.is_set() or self._stop.is_set()  # noqa: E731
            claims = _Claims(self, ahead, turn, over)

        def next_row() -> tuple[CheckedRow, _Step] | None:
            while True:
                if claims is not None and not self._go.is_set():
                    with turn:  # nothing claimed waits through a pause
                        claims.put_back(_PAUSED)
                self._go.wait()  # paused: hold back new rows
                with turn:
                    if self._stop.is_set() and not report.stopped:
                        report.stopped = "Stopped: the rest was not sent."
                    if report.stopped or failed.is_set():
                        return None
                    if claims is None:
                        checked = ahead.next()  # told as leaving before it goes
                        return None if checked is None else (checked, None)
                    row = claims.next()  # may wait for the next block
                    if row is False:
                        continue  # paused while it waited for a block
                    if row is None or not (
                        self._stop.is_set() or report.stopped or failed.is_set()
                    ):
                        return row
                    claims.keep(row)  # stopped while it waited: withdrawn at the end

        def done(result: RowResult) -> None:
            with turn:
                report.results.append(result)
                reason = self._stop_reason(result)
                if reason and not report.stopped:
                    report.stopped = f"Stopped at row {result.number}: {reason}."
                    if claims is not None:
                        claims.wake()  # threads waiting for a block take no row
            if self.on_row is not None:
                with telling:  # a results file rewritten meanwhile holds back no next row
                    self.on_row(result, self.progress(len(report.results), len(rows)))

        def work() -> None:
            try:
                while (row := next_row()) is not None:
                    done(self._send_row(*row))
            except BaseException:
                failed.set()  # the other threads take no further row
                raise

        self._started = time.perf_counter()
        if claims is not None:
            claims.start()
        try:
            with ThreadPoolExecutor(self.concurrency, thread_name_prefix="batch") as pool:
                workers = [pool.submit(work) for _ in range(self.concurrency)]
        except BaseException:  # interrupted (Ctrl+C): no further row; rows in flight finish
            self.stop()
            raise
        finally:
            if claims is not None:
                claims.close()
            ahead.close()
        for worker in workers:
            worker.result()  # what a row raised, if one did
        report.results.sort(key=lambda r: r.number)
        report.elapsed = time.perf_counter() - self._started
        return report

    def progress(self, done: int, total: int) -> Progress:
        paused = self._paused_for + (
            time.perf_counter() - self._paused_at if self._paused_at is not None else 0.0
        )
        return Progress(done, total, time.perf_counter() - self._started - paused, self.paused)

    def ready(self, checked: CheckedRow) -> Ready | Refused:
        """A row prepared (validated, signed) and put to the pipeline's refusals and
        questions with the batch's answers, never a prompt; nothing is sent."""
        pipeline = self.pipeline
        # the journal's verdict of the file's ids, looked up together when it was checked
        check = pipeline.prepare(
            COMMAND, checked.row.values, verdict=checked.verdict, **self.connection
        )
        return pipeline.ask(check, Answered(self._decide(checked)), approval=False)

    def _send_row(self, checked: CheckedRow, step: _Step) -> RowResult:
        """Send one row: claimed already (``step``, with its block), refused or failed
        when its block was claimed, or (None) prepared, asked and sent now."""
        pipeline = self.pipeline
        if isinstance(step, RowResult):
            return step
        try:
            if isinstance(step, Claimed):
                done: Any = pipeline.send_claimed(step)
            elif isinstance(step, Refused):
                done = step
            else:
                ready = self.ready(checked)
                done = ready if isinstance(ready, Refused) else pipeline.go(ready)
        except JournalUnavailableError as exc:
            return RowResult(checked, Result.NOT_SENT, exc.message)
        if isinstance(done, Refused):  # its card number, accepted meanwhile, unknown now...
            return refused_row(checked, done)
        if not isinstance(done, Sent):  # submitted to the team sender: its outcome
            try:
                done = done.send()
            except SendRefusedError as exc:  # refused by the sender or the database: not sent
                return RowResult(checked, SKIPPED, exc.message)
            except ConsoleError as exc:  # no outcome in time: the run stops there
                return RowResult(checked, Result.UNKNOWN, exc.message)
        return RowResult(checked, done.result, done.outcome.summary, done.outcome)

    def _stop_reason(self, result: RowResult) -> str:
        for stop_on, reason in _STOPS.items():
            if result.result == stop_on:
                return reason if result.outcome is not None else result.message
        return ""


class _NoOne:
    """No one to tell of rows leaving (a run without a results file)."""

    def leaving(self, numbers: Sequence[int]) -> None:
        """Nothing records them."""

    def stayed(self, numbers: Sequence[int]) -> None:
        """Nothing recorded them."""


class _Ahead:
    """The run's rows in order, each told to ``leaving`` before it is handed out: a block
    of rows at a time, growing while blocks come quicker than one a second."""

    def __init__(self, rows: Sequence[CheckedRow], leaving: LeavingRows | None, least: int):
        self.rows = rows
        self.leaving: LeavingRows = leaving if leaving is not None else _NoOne()
        self.least = least
        self.block = least
        self.next_index = 0
        self.told = 0  # rows[:told] were told as leaving
        self.last = -math.inf  # when the last block was told: none yet, so not quickly

    def next(self) -> CheckedRow | None:
        if self.next_index >= len(self.rows):
            return None
        if self.next_index >= self.told:
            now = time.monotonic()
            quick = now - self.last < 1.0
            self.block = min(_MOST_AHEAD, self.block * 2) if quick else self.least
            self.last = now
            end = min(len(self.rows), self.next_index + self.block)
            self.leaving.leaving([c.row.number for c in self.rows[self.next_index : end]])
            self.told = end
        checked = self.rows[self.next_index]
        self.next_index += 1
        return checked

    def close(self) -> None:
        """The run is over: rows told as leaving but never handed out stayed (an empty
        list when every row told was handed out)."""
        self.leaving.stayed([c.row.number for c in self.rows[self.next_index : self.told]])


class _Claims:
    """The run's next rows claimed in the journal ahead of their turn by a thread of their
    own, a block of ``concurrency`` rows in one transaction and one sync: each row's
    pending row is on disk before it leaves, as when rows are claimed one at a time. The
    next block is claimed while fewer than half a block are left (at one row at a time,
    when a thread waits for one), so the sending threads seldom wait and at most one and a
    half blocks are claimed and not sent. Rows claimed and then not sent (the run stopped
    or paused first) are withdrawn: "not sent" in the journal; after a pause they are
    claimed again. Every method but :meth:`start` and :meth:`close` is called with
    ``lock`` held (the run's turn lock)."""

    def __init__(
        self, runner: BatchRunner, ahead: _Ahead, lock: threading.Lock, over: Callable[[], bool]
    ) -> None:
        self.runner = runner
        self.ahead = ahead
        self.over = over  # the run stopped (or is stopping): nothing more is claimed
        self.lock = lock
        self.ready_rows = threading.Condition(lock)  # a block was claimed, or none is left
        self.wanted = threading.Condition(lock)  # rows are wanted, or the run ends
        self.queue: deque[tuple[CheckedRow, _Step]] = deque()
        self.returned: deque[CheckedRow] = deque()  # withdrawn at a pause: claimed again
        self.finished = False  # no row is left to claim
        self.closing = False
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._claim_blocks, name="batch-claims")

    def start(self) -> None:
        self.thread.start()

    def next(self) -> tuple[CheckedRow, _Step] | Literal[False] | None:
        """The next row with what its claim gave; None when no row is left (or the run
        stopped); False when the run was paused meanwhile (nothing is claimed while it is).

        Raises:
            BaseException: what claiming a block raised (the run stops).
        """
        while not self.queue:
            if self.error is not None:
                raise self.error
            if self.finished or self.over():
                return None
            if self.runner.paused:
                return False
            self.wanted.notify()
            self.ready_rows.wait()
        row = self.queue.popleft()
        if len(self.queue) < self.runner.concurrency // 2:
            self.wanted.notify()
        return row

    def keep(self, row: tuple[CheckedRow, _Step]) -> None:
        """A row taken but not handed out: first in line again."""
        self.queue.appendleft(row)

    def wake(self) -> None:
        """The run stopped or ends: threads waiting for a block, or for blocks to be
        wanted, look again."""
        self.ready_rows.notify_all()
        self.wanted.notify()

    def _wanted(self) -> bool:
        if self.runner.paused or self.over():
            return False
        # an empty queue is claimed for when a thread asks (next), even at one row at a time
        return len(self.queue) < max(1, self.runner.concurrency // 2)

    def _claim_blocks(self) -> None:
        with self.lock:
            while not self.finished:
                while not self.closing and not self._wanted():
                    # a thread may wait for a row that will not come now (stopped or paused
                    # since it asked): it looks again
                    self.ready_rows.notify_all()
                    self.wanted.wait()
                if self.closing:
                    return
                block = self._take()
                if block:
                    self.lock.release()  # the sending threads take rows meanwhile
                    try:
                        claimed = self._claimed(block)
                    except BaseException as exc:  # the run stops; raised in a sending thread
                        self.error = exc
                        claimed = []
                    finally:
                        self.lock.acquire()
                    self.queue.extend(claimed)
                    if self.runner.paused:  # paused meanwhile: nothing claimed waits
                        self.put_back(_PAUSED)
                self.finished = not block or self.error is not None
                self.ready_rows.notify_all()

    def _take(self) -> list[CheckedRow]:
        block: list[CheckedRow] = []
        while len(block) < self.runner.concurrency:
            checked = self.returned.popleft() if self.returned else self.ahead.next()
            if checked is None:
                break
            block.append(checked)
        return block

    def _claimed(self, block: list[CheckedRow]) -> list[tuple[CheckedRow, _Step]]:
        steps: list[Ready | Refused | RowResult] = [self.runner.ready(c) for c in block]
        readies = [step for step in steps if isinstance(step, Ready)]
        try:
            claimed = iter(self.runner.pipeline.claim_each(readies))
        except JournalUnavailableError as exc:  # none of them may leave
            steps = [RowResult(checked, Result.NOT_SENT, exc.message) for checked in block]
        return [
            (checked, next(claimed) if isinstance(step, Ready) else step)
            for checked, step in zip(block, steps, strict=True)
        ]

    def put_back(self, summary: str) -> None:
        """Withdraw the claimed rows not handed out yet (``summary``: why), to be claimed
        again when their turn comes."""
        self._withdraw(summary)
        while self.queue:
            self.returned.appendleft(self.queue.pop()[0])

    def close(self) -> None:
        """The run is over: the claiming thread ends, and rows claimed or put back but
        never handed out were not sent."""
        with self.lock:
            self.closing = True
            self.wake()
        self.thread.join()
        with self.lock:
            self._withdraw(_STOPPED)
            numbers = [c.row.number for c, _step in self.queue] + [
                c.row.number for c in self.returned
            ]
            self.queue.clear()
            self.returned.clear()
        self.ahead.leaving.stayed(numbers)

    def _withdraw(self, summary: str) -> None:
        claimed = [step for _checked, step in self.queue if isinstance(step, Claimed)]
        self.runner.pipeline.withdraw(claimed, summary)


def refused_row(checked: CheckedRow, refused: Refused) -> RowResult:
    """A row the pipeline refused at its turn: skipped, or unknown (the run stops there)."""
    if refused.code == Refusal.UNKNOWN_OUTCOME:
        return RowResult(checked, Result.UNKNOWN, refused.message)
    return RowResult(checked, SKIPPED, refused.message, refusal=refused.code)


def sign_rows(pipeline: Pipeline, connection: Mapping[str, Any], plan: Plan) -> BatchReport:
    """Dry run: every row a run would take, validated, signed and put to the pipeline's
    refusals and questions with the batch's answers, as a run does; nothing is sent.

    Raises:
        BatchRefusedError: the plan may not start (rows with errors, unknown outcomes...).
    """
    refusal = plan.refusal()
    if refusal is not None:
        raise refusal
    # nothing is sent, so the production question is the run's (asked once, for the batch)
    decide = plan.authorize(
        BatchDecision(confirmed=plan.summary, resend_unknown=plan.resend_unknown)
    )
    report = BatchReport()
    started = time.perf_counter()
    for checked in plan.to_run:
        check = pipeline.prepare(COMMAND, checked.row.values, **connection)
        ready = pipeline.ask(check, Answered(decide(checked)), approval=False)
        if isinstance(ready, Refused):
            report.results.append(refused_row(checked, ready))
        else:
            report.results.append(RowResult(checked, SIGNED, "signed, not sent"))
    report.elapsed = time.perf_counter() - started
    return report
