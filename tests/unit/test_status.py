"""Order status: the polling plan of the field notes, the follower, and real status checks."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from console.core.callbacks import CallbackListener, CallbackRecorder
from console.core.environments import Connection, local_sandbox
from console.core.history import CheckResult, History
from console.core.prepared import prepare
from console.core.spec import example_values
from console.core.status import (
    FollowState,
    OrderFollower,
    Phase,
    PollPlan,
    StatusCheck,
    StatusChecker,
)
from console.sandbox import SandboxHandle, start_sandbox
from tests.helpers.history_data import answered, lost, prepared
from tests.helpers.pipeline import journalled_send


def test_default_plan_follows_the_field_notes() -> None:
    offsets = list(PollPlan().offsets())
    gaps = [b - a for a, b in itertools.pairwise(offsets)]
    assert offsets[0] == 0
    first_five_minutes = [g for a, g in zip(offsets, gaps, strict=False) if a < 300]
    later = [g for a, g in zip(offsets, gaps, strict=False) if a >= 300]
    assert first_five_minutes
    assert all(3 <= g <= 5 for g in first_five_minutes)
    assert later
    assert all(5 * 60 <= g <= 10 * 60 for g in later)
    assert offsets[-1] <= 3600
    assert offsets[-1] + later[-1] > 3600  # nothing more within the hour


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _checks(rsa_key: rsa.RSAPrivateKey, *statuses: str | None) -> list[StatusCheck]:
    req = prepared(rsa_key, "status", client_orderid="po-1")
    out: list[StatusCheck] = []
    for status in statuses:
        if status is None:
            out.append(StatusCheck(lost(req), None))
        elif status == "rejected":
            outcome = answered(
                req, "type=validation-error&error-message=no such order&error-code=5"
            )
            out.append(StatusCheck(outcome, None))
        else:
            outcome = answered(req, f"type=status-response&status={status}&orderid=1")
            out.append(StatusCheck(outcome, status))
    return out


def test_follower_stops_at_the_final_status(rsa_key: rsa.RSAPrivateKey) -> None:
    clock = FakeClock()
    results = iter(_checks(rsa_key, "processing", None, "approved"))
    seen: list[FollowState] = []
    follower = OrderFollower(lambda: next(results), PollPlan(), clock=clock, on_update=seen.append)
    assert follower.next_delay() == 0
    assert follower.poll().phase is Phase.FOLLOWING
    assert follower.next_delay() == 5
    clock.now += 5
    state = follower.poll()  # the answer was lost: keep following
    assert (state.phase, state.status, state.checks) == (Phase.FOLLOWING, "processing", 2)
    clock.now += 5
    state = follower.poll()
    assert (state.phase, state.status, state.checks) == (Phase.FINAL, "approved", 3)
    assert follower.next_delay() is None
    assert [s.checks for s in seen] == [1, 2, 3]


def test_follower_slows_down_then_gives_up(rsa_key: rsa.RSAPrivateKey) -> None:
    clock = FakeClock()
    plan = PollPlan(fast_every=5, fast_for=10, slow_every=60, give_up_after=130)
    follower = OrderFollower(lambda: _checks(rsa_key, "processing")[0], plan, clock=clock)
    delays = []
    while (delay := follower.next_delay()) is not None:
        delays.append(delay)
        clock.now += delay
        follower.poll()
    assert delays == [0, 5, 5, 60, 60]
    assert follower.state.phase is Phase.GAVE_UP
    assert "callback" in follower.state.message


def test_follower_stops_when_asking_again_cannot_help(rsa_key: rsa.RSAPrivateKey) -> None:
    follower = OrderFollower(lambda: _checks(rsa_key, "rejected")[0], PollPlan(), clock=FakeClock())
    state = follower.poll()
    assert state.phase is Phase.STOPPED
    assert "no such order" in state.message


def test_cancel_wakes_a_running_follower(rsa_key: rsa.RSAPrivateKey) -> None:
    calls: list[int] = []

    def check() -> StatusCheck:
        calls.append(1)
        return _checks(rsa_key, "processing")[0]

    follower = OrderFollower(check, PollPlan(fast_every=30))
    thread = threading.Thread(target=follower.run)
    thread.start()
    while not calls:
        time.sleep(0.01)
    follower.cancel()
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert follower.state.phase is Phase.CANCELLED
    assert len(calls) == 1


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHandle]:
    with start_sandbox(
        callback_delay=0, merchant_control="mc-secret", callback_backoff=0.2
    ) as handle:
        yield handle


def _connection(sandbox: SandboxHandle) -> Connection:
    demo = sandbox.demo
    env = local_sandbox(sandbox.base_url, demo.login, demo.endpoint_id, demo.endpoint_group_id)
    key = load_pem_private_key(demo.private_key_pem, None)
    return Connection(env, key, "mc-secret")  # type: ignore[arg-type]


def _payout(conn: Connection, history: History, order: str, **extra: str) -> None:
    values = example_values("payout-check")
    values.update(client_orderid=order, **extra)
    req = prepare("payout-check", values, **conn.prepare_kwargs("payout-check"))
    outcome = journalled_send(history, conn.environment.name, req)
    assert outcome.result == "accepted", outcome.summary


def test_status_check_updates_the_payout_row(sandbox: SandboxHandle) -> None:
    conn = _connection(sandbox)
    history = History()
    _payout(conn, history, "status-1")
    payout = history.fetch()[0]
    check = StatusChecker(conn, history=history).check_row(payout)
    assert check.status == "approved"
    assert check.final
    row = history.get(payout.id)
    assert (row.final_status, row.final_status_source) == ("approved", "status")
    journalled = history.fetch()[0]
    assert (journalled.command, journalled.final_status) == ("status", "approved")


def test_callback_from_the_sandbox_updates_the_row(sandbox: SandboxHandle) -> None:
    conn = _connection(sandbox)
    history = History()
    recorder = CallbackRecorder(history, conn.environment.name, conn.merchant_control)
    arrived = threading.Event()
    recorder.subscribe(lambda event: arrived.set())
    with CallbackListener(recorder) as listener:
        _payout(conn, history, "cb-1", server_callback_url=listener.url, redirect_url="")
        assert arrived.wait(10), "no callback arrived"
    row = history.fetch()[0]
    assert (row.client_orderid, row.final_status, row.final_status_source) == (
        "cb-1", "approved", "callback"
    )  # fmt: skip
    (callback,) = history.details(row.id).callbacks
    assert callback["check"] == CheckResult.OK
