"""Order status: the status command, and "follow this order" on the field notes' schedule.

The status command is outside the contract; it comes from the field notes (public v4
documentation): ``POST {base_url}/api/v4/status/<endpoint_id>``, signed like the others,
with ``client_orderid`` (required), ``orderid`` (recommended) and ``by-request-sn``.

Following an order (field notes, "Suggested polling"): every few seconds for the first five
minutes, then every few minutes up to an hour, then rely on the callback. The plan is data
(:class:`PollPlan`), the follower is Qt-free (:class:`OrderFollower`): the UI may run it in a
worker with :meth:`OrderFollower.run`, or drive it from a timer with
:meth:`OrderFollower.next_delay` and :meth:`OrderFollower.poll`. It stops by itself at a
final status, when the plan ends, on a problem a retry cannot fix, or on :meth:`cancel`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from console.core.client import Outcome, Result
from console.core.environments import Connection
from console.core.errors import InputError
from console.core.history import HistoryRow
from console.core.pipeline import Decision, Pipeline
from console.core.pipeline.pipeline import reported_status
from console.core.prepared import prepare
from console.core.spec.status import FINAL_STATUSES
from console.core.transport import Timeouts, Transport

if TYPE_CHECKING:
    from console.core.journals import JournalStore


@dataclass(frozen=True, slots=True)
class PollPlan:
    """When to ask: every ``fast_every`` s while under ``fast_for`` s, then every
    ``slow_every`` s, never after ``give_up_after`` s (then the callback is the source).

    Defaults: the field notes say 3-5 s for 5 minutes, then 5-10 minutes up to an hour; the
    gentler end of the first range and the quicker end of the second are used.
    """

    fast_every: float = 5.0
    fast_for: float = 300.0
    slow_every: float = 300.0
    give_up_after: float = 3600.0

    def offsets(self) -> Iterator[float]:
        """Seconds after the start at which to check: 0, 5, ..., 300, 600, ..., 3600."""
        t = 0.0
        while t <= self.give_up_after:
            yield t
            t += self.fast_every if t < self.fast_for else self.slow_every


@dataclass(frozen=True, slots=True)
class StatusCheck:
    """One status look-up: the outcome and the transaction status it reported."""

    outcome: Outcome
    status: str | None

    @property
    def final(self) -> bool:
        return self.status in FINAL_STATUSES

    @property
    def summary(self) -> str:
        return self.outcome.summary


class StatusChecker:
    """Sends status commands for one environment; journals them and updates final statuses.

    Args:
        connection: the environment (``console.core.environments.connect``).
        transport: how to send; one with the environment's timeouts when None.
        history: the journal; the status requests are journalled and the requests they
            concern get the final status. None: nothing is written.
    """

    def __init__(
        self,
        connection: Connection,
        transport: Transport | None = None,
        history: JournalStore | None = None,
    ) -> None:
        env = connection.environment
        self.connection = connection
        self.history = history
        connect, read = connection.timeouts
        self.transport = transport or Transport(
            timeouts=Timeouts(connect=connect, read=read), verify=env.verify
        )
        self.pipeline = Pipeline(
            env.name,
            gateway=env.gateway,
            production=env.kind == "production",
            journal=history,
            transport=lambda: self.transport,
            close_transport=False,
            connect_timeout=connect,
            read_timeout=read,
        )

    def check(
        self, client_orderid: str, orderid: str | None = None, by_request_sn: str | None = None
    ) -> StatusCheck:
        """Ask for the status of one order once.

        Raises:
            InputError: the values break a rule (for example an empty client_orderid).
        """
        values = {"client_orderid": client_orderid}
        if orderid:
            values["orderid"] = orderid
        if by_request_sn:
            values["by-request-sn"] = by_request_sn
        prepared = prepare("status", values, **self.connection.prepare_kwargs("status"))
        if prepared.signed is None:
            raise InputError("; ".join(p.message for p in prepared.errors))
        # the pipeline journals it and sets the order's final status from the answer
        outcome = self.pipeline.send(prepared, Decision()).outcome
        return StatusCheck(outcome, reported_status(outcome))

    def check_row(self, row: HistoryRow) -> StatusCheck:
        """Ask for the status of the order a history row made."""
        if not row.client_orderid:
            raise InputError("This request has no client_orderid to look up.")
        return self.check(row.client_orderid, row.gateway_order_id)

    def follow(
        self,
        client_orderid: str,
        orderid: str | None = None,
        plan: PollPlan | None = None,
        on_update: Callable[[FollowState], None] | None = None,
    ) -> OrderFollower:
        """A follower for one order (not started: call ``run`` or drive ``poll``)."""
        return OrderFollower(
            lambda: self.check(client_orderid, orderid), plan or PollPlan(), on_update=on_update
        )


class Phase(StrEnum):
    """Where a follower is."""

    FOLLOWING = "following"
    FINAL = "final"  # a final status arrived
    GAVE_UP = "gave-up"  # the plan ended: the callback will tell
    STOPPED = "stopped"  # a problem that asking again will not fix
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class FollowState:
    """What the UI shows about a followed order."""

    phase: Phase = Phase.FOLLOWING
    checks: int = 0
    status: str | None = None
    message: str = ""
    next_in: float | None = 0.0
    last: StatusCheck | None = field(default=None, repr=False)

    @property
    def done(self) -> bool:
        return self.phase is not Phase.FOLLOWING


# Answers after which asking again cannot help: fix the request or the environment first.
_STOP_ON = frozenset({Result.REJECTED, Result.ACCESS_DENIED})


class OrderFollower:
    """Checks one order on a :class:`PollPlan` until it is done.

    Args:
        check: one status look-up.
        plan: when to look.
        clock: seconds, monotonic (tests pass a fake).
        on_update: called with the new state after every change (from the running thread).
    """

    def __init__(
        self,
        check: Callable[[], StatusCheck],
        plan: PollPlan,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_update: Callable[[FollowState], None] | None = None,
    ) -> None:
        self._check = check
        self._offsets = plan.offsets()
        self._clock = clock
        self._on_update = on_update
        self._started = clock()
        self._due: float | None = self._started + next(self._offsets)
        self._cancelled = threading.Event()
        self.state = FollowState()

    def _set(self, state: FollowState) -> FollowState:
        self.state = state
        if self._on_update is not None:
            self._on_update(state)
        return state

    def next_delay(self) -> float | None:
        """Seconds until the next check is due (0: now), or None when following is over."""
        if self.state.done or self._due is None:
            return None
        return max(0.0, self._due - self._clock())

    def poll(self) -> FollowState:
        """Check now, and plan the next check."""
        if self.state.done:
            return self.state
        result = self._check()
        checks = self.state.checks + 1
        status = result.status or self.state.status
        if self._cancelled.is_set():
            return self.state
        if result.final:
            return self._set(FollowState(Phase.FINAL, checks, status, result.summary, None, result))
        if result.outcome.result in _STOP_ON:
            return self._set(
                FollowState(Phase.STOPPED, checks, status, result.summary, None, result)
            )
        elapsed = self._clock() - self._started
        self._due = None
        for offset in self._offsets:
            if offset > elapsed:
                self._due = self._started + offset
                break
        if self._due is None:
            message = (
                "Stopped asking after the polling plan ended; the callback will bring the "
                "final status (field notes: rely on the callback after an hour)."
            )
            return self._set(FollowState(Phase.GAVE_UP, checks, status, message, None, result))
        state = FollowState(Phase.FOLLOWING, checks, status, result.summary, self.next_delay())
        return self._set(replace(state, last=result))

    def cancel(self) -> None:
        """Stop following (wakes :meth:`run` at once)."""
        self._cancelled.set()
        if not self.state.done:
            self._set(replace(self.state, phase=Phase.CANCELLED, next_in=None))

    def run(self) -> FollowState:
        """Follow until done, waiting between checks in this thread (use a worker)."""
        while (delay := self.next_delay()) is not None:
            if self._cancelled.wait(delay):
                break
            self.poll()
        return self.state
