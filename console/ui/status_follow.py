"""Check an order's status now, or follow it on the field notes' polling plan.

The status command and the plan come from the field notes (``console.core.status``): every
few seconds for five minutes, then every few minutes up to an hour, then the callback is
the source. Each followed order shows as a strip in the window's status bar with its latest
status, the number of checks and when the next one is due; Cancel stops it, and it stops
by itself at a final status, when the plan ends, or when asking again cannot help. Every
status request is journalled, and a final status updates the history row of the order.

One look-up at a time per order runs on a worker; the timer that spaces them runs here.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from console.core.order_facts import OrderRef
from console.ui.tasks import TaskManager
from console.ui.theme import state_colour

if TYPE_CHECKING:
    from console.core.environments import Connection
    from console.core.history import HistoryRow
    from console.core.journals import JournalStore
    from console.core.status import FollowState, OrderFollower, PollPlan, StatusChecker


def order_of(row: HistoryRow) -> OrderRef:
    """The order a history row is about."""
    return OrderRef(row.environment, row.client_orderid or "", row.gateway_order_id)


_PHASE_WORDS = {
    "following": "following",
    "final": "final status",
    "gave-up": "stopped asking: the callback will tell",
    "stopped": "stopped: asking again will not help",
    "cancelled": "cancelled",
}


def describe(state: FollowState) -> tuple[str, str]:
    """(state colour, plain words) for a follower's state."""
    status = state.status or "no status yet"
    checks = f"{state.checks} check{'s' if state.checks != 1 else ''}"
    phase = str(state.phase)
    if phase == "following":
        due = f" · next in {state.next_in:.0f} s" if state.next_in is not None else ""
        return "busy", f"{status} · {checks}{due}"
    colour = {"final": "fine", "cancelled": "required"}.get(phase, "warning")
    return colour, f"{status} · {_PHASE_WORDS.get(phase, phase)} · {checks}"


class FollowStrip(QWidget):
    """One followed order: what is known, and Cancel (Close once it has stopped)."""

    def __init__(self, follow: Follow, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.follow = follow
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAccessibleDescription(f"Following order {follow.order.client_orderid}")
        self.button = QPushButton("Cancel")
        self.button.setAccessibleName(f"Stop following {follow.order.client_orderid}")
        self.button.clicked.connect(self._clicked)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 0, 4, 0)
        lay.addWidget(self.label)
        lay.addWidget(self.button)

    def show_state(self, state: FollowState) -> None:
        colour, words = describe(state)
        name = html.escape(self.follow.order.client_orderid)
        css = state_colour(colour, self.palette()).name()
        # the environment named: a strip stays in the status bar after a switch, and an order
        # of the sandbox must not read as one of the environment now shown
        where = html.escape(self.follow.order.environment)
        self.label.setText(
            f"Order <b>{name}</b> ({where}): <span style='color:{css}'>{words}</span>"
        )
        self.label.setToolTip(state.message)
        self.button.setText("Close" if state.done else "Cancel")

    def _clicked(self) -> None:
        if self.follow.done:
            self.follow.controller.forget(self.follow)
        else:
            self.follow.cancel()


class Follow(QObject):
    """One order followed on a plan: a timer spaces the checks, a worker makes each one."""

    updated = Signal(object)  # FollowState

    def __init__(
        self,
        controller: StatusController,
        order: OrderRef,
        checker: StatusChecker,
        plan: PollPlan,
    ) -> None:
        super().__init__(controller)
        self.controller = controller
        self.order = order
        self.checker = checker
        self.follower: OrderFollower = checker.follow(order.client_orderid, order.orderid, plan)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._poll)
        self._busy = False
        self.strip = FollowStrip(self)
        self._shown = self.follower.state
        self.strip.show_state(self._shown)

    @property
    def state(self) -> FollowState:
        """The state the window shows (a check on a worker changes it only when it is back)."""
        return self._shown

    @property
    def done(self) -> bool:
        return self._shown.done

    def start(self) -> None:
        self._schedule()

    def _schedule(self) -> None:
        delay = self.follower.next_delay()
        if delay is None:
            self._finished()
            return
        self.timer.start(int(delay * 1000))

    def _poll(self) -> None:
        if self.done or self._busy:
            return
        self._busy = True
        self.controller.tasks.run(self.follower.poll, self._polled, self._failed, owner=self)

    def _polled(self, state: object) -> None:
        self._busy = False
        self._shown = self.follower.state
        self.strip.show_state(self._shown)
        self.updated.emit(self._shown)
        self._schedule()

    def _failed(self, exc: BaseException, _tb: str) -> None:
        self._busy = False
        self.follower.cancel()
        self.strip.label.setText(f"Order {html.escape(self.order.client_orderid)}: {exc}")
        self.strip.button.setText("Close")
        self._finished()

    def cancel(self) -> None:
        """Stop following now (a check already on its way is not waited for)."""
        self.timer.stop()
        self.follower.cancel()
        self._shown = self.follower.state
        self.strip.show_state(self._shown)
        self.updated.emit(self._shown)
        if not self._busy:
            self._finished()

    def _finished(self) -> None:
        self.timer.stop()
        if not self._busy:
            self.checker.transport.close()
        self.controller.follow_done.emit(self)


class StatusController(QObject):
    """Status look-ups and followed orders for the window.

    Args:
        history: the journal (status requests are journalled; final statuses applied).
        connection_for: the connection (environment and key) for an environment name;
            raises with plain words when it cannot be had.
        plan: the polling plan; the field notes' plan by default.

    Signals:
        checked(OrderRef, str state, str words): the result of one "check status now".
        follow_started(Follow) / follow_done(Follow).
    """

    checked = Signal(object, str, str)
    follow_started = Signal(object)
    follow_done = Signal(object)

    def __init__(
        self,
        history: JournalStore,
        connection_for: Callable[[str], Connection],
        parent: QObject | None = None,
        plan: PollPlan | None = None,
        tasks: TaskManager | None = None,
    ) -> None:
        super().__init__(parent)
        self.history = history
        self.connection_for = connection_for
        self.plan = plan
        self.tasks = tasks if tasks is not None else TaskManager(self)
        self.follows: list[Follow] = []

    def _checker(self, order: OrderRef) -> StatusChecker:
        from console.core.status import StatusChecker  # boundary: signing and HTTP, first use

        return StatusChecker(self.connection_for(order.environment), history=self.history)

    def check(self, order: OrderRef) -> None:
        """Ask once, in the background; ``checked`` reports the answer."""
        try:
            checker = self._checker(order)
        except Exception as exc:  # no key, unknown environment: say so, send nothing
            self.checked.emit(order, "error", f"Status not checked: {exc}")
            return

        def work() -> object:
            try:
                return checker.check(order.client_orderid, order.orderid)
            finally:
                checker.transport.close()

        self.tasks.run(
            work,
            lambda result: self._checked(order, result),
            lambda exc, _tb: self.checked.emit(order, "error", f"Status not checked: {exc}"),
        )

    def _checked(self, order: OrderRef, result: object) -> None:
        from console.core.status import StatusCheck  # boundary: as in _checker

        assert isinstance(result, StatusCheck)
        if result.status:
            final = " (final)" if result.final else " (not final yet)"
            self.checked.emit(
                order,
                "fine" if result.final else "busy",
                f"The order status is {result.status}{final}.",
            )
        else:
            self.checked.emit(order, "warning", f"No status: {result.summary}")

    def follow(self, order: OrderRef) -> Follow | None:
        """Follow an order until it is done; None (and ``checked`` says why) when impossible."""
        from console.core.status import PollPlan  # boundary: as in _checker

        for existing in self.follows:
            if existing.order == order and not existing.done:
                return existing
        try:
            checker = self._checker(order)
        except Exception as exc:
            self.checked.emit(order, "error", f"Cannot follow the order: {exc}")
            return None
        follow = Follow(self, order, checker, self.plan or PollPlan())
        self.follows.append(follow)
        self.follow_started.emit(follow)
        follow.start()
        return follow

    def forget(self, follow: Follow) -> None:
        """Remove a stopped follow's strip."""
        if follow in self.follows:
            self.follows.remove(follow)
        follow.strip.setParent(None)
        follow.strip.deleteLater()
        follow.deleteLater()

    def cancel_all(self) -> None:
        for follow in list(self.follows):
            if not follow.done:
                follow.cancel()
