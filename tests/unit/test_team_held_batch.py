"""The core's hold of a whole batch for one approval (what the window and ``batch run`` call),
against a real PostgreSQL server: which batches are held, what a batch waiting for its
approval says, and that the approval runs exactly the batch it approved, once, on
production too, and lets go of its rows when the run ends."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import batch as core
from console.core.gateway_identity import gateway_for
from console.core.history import History
from console.core.pipeline import Decision, Pipeline
from console.core.team import Approvals, TeamJournal
from console.core.team.approvals.held_batch import AwaitingBatch, HeldBatch, hold_batch
from console.core.team.errors import (
    ApprovalPendingError,
    ApprovalRefusedError,
    CardDataNeedsWaitingError,
    RejectedBeforeError,
    UnregisteredGatewayError,
)
from tests.helpers.batch_files import ACCOUNT_HEADER, account_row, card_file, write_csv
from tests.helpers.http_server import DROP, Received, Reply, TestServer, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import Gateway
from tests.helpers.team import pipeline, prepared_payout, register_policy

pytest.importorskip("psycopg")


def _environment(server: TestServer | str) -> str:
    """The command line's name of the environment a --base-url reaches."""
    url = server if isinstance(server, str) else server.url
    return f"command line ({url.split('//')[1]})"


def _policy(db: TeamDatabase, server: TestServer, mode: str) -> None:
    with TeamJournal(db.dsn("root_admin")) as admin:
        register_policy(admin, _environment(server), mode)


def _planned(
    journal: Any,
    path: Path,
    server: TestServer | str,
    key: rsa.RSAPrivateKey,
    *,
    production: bool = False,
    resend_unknown: bool = False,
) -> tuple[Pipeline, dict[str, Any], core.Plan]:
    """The pipeline, connection and plan of the batch file ``path`` to ``server`` (or to
    the address given)."""
    environment = _environment(server)
    url = server if isinstance(server, str) else server.url
    conn = {"base_url": url, "login": "merchant", "endpoint_id": "1", "private_key": key}
    identity = gateway_for(core.COMMAND, **conn) or ""
    sends = pipeline(journal, environment, production=production, gateway=identity)
    validation = core.check_batch(
        core.read_batch(path), lambda oid: sends.verdict(core.COMMAND, oid)
    )
    limits = core.limits_for(environment, production=production)
    plan = core.Plan(validation, environment, production, limits, resend_unknown=resend_unknown)
    return sends, conn, plan


def _held(journal: Any, path: Path, server: TestServer, key: rsa.RSAPrivateKey) -> HeldBatch:
    held = hold_batch(*_planned(journal, path, server, key))
    assert held is not None
    return held


def _approved(db: TeamDatabase, sid: int) -> None:
    with TeamJournal(db.dsn("bob")) as bob:
        Approvals(bob).approve(sid)


def _audit(journal: TeamJournal) -> list[tuple[str, str]]:
    return [(a.action, a.detail) for a in Approvals(journal).audit()]


@pytest.mark.parametrize("case", ["one person", "no journal", "a batch the runner refuses"])
def test_only_a_team_batch_the_runner_would_start_is_held(
    case: str, team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    amount = "not money" if case == "a batch the runner refuses" else "20.00"
    rows = [account_row("n-1"), account_row("n-2", amount)]
    path = write_csv(tmp_path / "pay.csv", rows, header=ACCOUNT_HEADER)
    with (
        serve(lambda r: Reply(200, b"")) as server,
        History() as own,
        TeamJournal(team_db.dsn("alice")) as alice,
    ):
        _policy(team_db, server, "all")
        journal = {"one person": own, "no journal": None}.get(case, alice)
        assert hold_batch(*_planned(journal, path, server, rsa_key)) is None
        assert Approvals(alice).pending() == []
        assert server.received == []


def test_a_batch_to_a_gateway_the_team_has_not_registered_is_refused_before_anything(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    path = write_csv(tmp_path / "pay.csv", [account_row("u-1")], header=ACCOUNT_HEADER)
    far = "https://far.example/paynet"
    with TeamJournal(team_db.dsn("alice")) as alice:
        with pytest.raises(UnregisteredGatewayError) as refused:
            hold_batch(*_planned(alice, path, far, rsa_key))
        assert Approvals(alice).pending() == []
    assert refused.value.message == (
        "Not sent: the team has not registered the gateway "
        "https://far.example:443/paynet/api/v4/payout-check/1 (login merchant) that command "
        "line (far.example/paynet) reaches, and a console of the team sends only to "
        "registered gateways. An admin registers it: gateway-console team gateway add NAME "
        "--base-url URL --login LOGIN --endpoint-id N."
    )


def test_a_batch_waiting_for_its_approval_is_not_run_and_says_what_to_do(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    rows = [account_row("w-1"), account_row("w-2")]
    path = write_csv(tmp_path / "pay.csv", rows, header=ACCOUNT_HEADER)
    with serve(lambda r: Reply(200, b"")) as server, TeamJournal(team_db.dsn("alice")) as alice:
        _policy(team_db, server, "all")
        awaiting = _held(alice, path, server, rsa_key).submit(waiting=False)
        with pytest.raises(ApprovalPendingError) as pending:
            awaiting.run()
        assert pending.value.message == (
            f"No decision on batch #{awaiting.id} yet; nothing was sent. Once a checker "
            "approves it, run the same file again."
        )
        assert ("submit", "batch pay.csv: 2 rows") in _audit(alice)

        cards = _held(alice, card_file(tmp_path / "cards.csv", 2, "wc"), server, rsa_key)
        with pytest.raises(CardDataNeedsWaitingError) as refused:
            cards.submit(waiting=False)
        assert refused.value.message == (
            f"The approval policy of {_environment(server)} needs a checker's approval of this "
            "batch, and its rows carry card data, which never goes to the team database: only "
            "the console holding them can run it, so that console must wait for the approval. "
            "Nothing was submitted."
        )
        waiting = cards.submit(waiting=True)
        with pytest.raises(ApprovalPendingError) as pending:
            waiting.run()
        assert pending.value.message == (
            f"No decision on batch #{waiting.id} yet; nothing was sent. Its card data is only "
            "in this console's memory: if this console stops waiting, submit it again."
        )
    assert server.received == []


def test_an_approval_runs_only_the_batch_it_approved(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    path = tmp_path / "pay.csv"
    write_csv(path, [account_row("v-1"), account_row("v-2")], header=ACCOUNT_HEADER)
    with serve(lambda r: Reply(200, b"")) as server, TeamJournal(team_db.dsn("alice")) as alice:
        _policy(team_db, server, "all")
        approved = _held(alice, path, server, rsa_key).submit(waiting=False)
        _approved(team_db, approved.id)
        write_csv(path, [account_row("v-1"), account_row("v-2", "2000.00")], header=ACCOUNT_HEADER)
        changed = _held(alice, path, server, rsa_key)
        with pytest.raises(ApprovalRefusedError) as refused:
            AwaitingBatch(changed, approved.id).run()
        assert refused.value.message == (
            "Not sent: the request is not the one approved, so the approval is void."
        )
        assert Approvals(alice).submission(approved.id).state == "void"
    assert server.received == []


class Told:
    """A results file's stand-in: the rows it was told were leaving, and those that stayed."""

    def __init__(self) -> None:
        self.rows_leaving: list[int] = []
        self.rows_stayed: list[int] = []

    def leaving(self, numbers: Sequence[int]) -> None:
        self.rows_leaving += numbers

    def stayed(self, numbers: Sequence[int]) -> None:
        self.rows_stayed += numbers


def test_an_approved_production_batch_runs_as_asked_resending_an_unknown_row_on_purpose(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    """The approval is the production confirmation; the maker's --resend-unknown, its
    concurrency and the results file it keeps are the run's as without a team."""
    stand_in = Gateway(delay=1.0)
    replies = iter([DROP])  # p-1's first send: its outcome is unknown

    def answer(request: Received) -> Any:
        return next(replies, None) or stand_in(request)

    rows = [account_row("p-1"), account_row("p-2")]
    path = write_csv(tmp_path / "pay.csv", rows, header=ACCOUNT_HEADER)
    with serve(answer) as server, TeamJournal(team_db.dsn("alice")) as alice:
        sends = pipeline(alice, _environment(server))
        first = prepared_payout(server.url, rsa_key, order="p-1", amount="25.00")
        assert str(sends.send(first, Decision(True)).result) == "unknown"
        _policy(team_db, server, "all")
        planned = _planned(alice, path, server, rsa_key, production=True, resend_unknown=True)
        held = hold_batch(*planned)
        assert held is not None
        awaiting = held.submit(waiting=False)
        _approved(team_db, awaiting.id)
        told = Told()
        report = awaiting.run(concurrency=2, leaving=told)
    assert [str(r.result) for r in report.results] == ["accepted", "accepted"]
    assert stand_in.payouts == {"p-1": 1, "p-2": 1}  # p-1 resent once, on purpose
    assert told.rows_leaving == [2, 3]  # told before they left (their lines in the file)
    assert told.rows_stayed == []
    assert abs(stand_in.arrived[1] - stand_in.arrived[0]) < 0.9  # both on their way at once


def test_a_batch_run_the_console_stops_ends_its_claim_and_lets_go_of_its_rows(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    """The window closed as the run started: nothing was sent, the audit trail says why, and
    a row of it sent later on its own is not taken for a row of the ended batch."""
    rows = [account_row("s-1"), account_row("s-2")]
    path = write_csv(tmp_path / "pay.csv", rows, header=ACCOUNT_HEADER)
    stand_in = Gateway()
    with serve(stand_in) as server, TeamJournal(team_db.dsn("alice")) as alice:
        _policy(team_db, server, "all")
        awaiting = _held(alice, path, server, rsa_key).submit(waiting=False)
        _approved(team_db, awaiting.id)

        def window_closed(_runner: core.BatchRunner) -> None:
            raise RuntimeError("the window closed")

        with pytest.raises(RuntimeError):
            awaiting.run(on_start=window_closed)
        assert stand_in.payouts == {}
        assert Approvals(alice).submission(awaiting.id).state == "refused"
        assert _audit(alice)[-1] == (
            "refused",
            "send: the console stopped the batch; nothing was sent",
        )

        _policy(team_db, server, "none")  # then no approval is needed for a payout
        sends = pipeline(alice, _environment(server))
        alone = prepared_payout(server.url, rsa_key, order="s-1", amount="25.00")
        assert str(sends.send(alone, Decision(True)).result) == "accepted"
    assert stand_in.payouts == {"s-1": 1}


def test_a_batch_carrying_an_order_id_rejected_before_says_so_and_goes_only_on_purpose(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    rows = [account_row("j-1"), account_row("j-2")]
    path = write_csv(tmp_path / "pay.csv", rows, header=ACCOUNT_HEADER)
    with serve(lambda r: Reply(200, b"")) as server, TeamJournal(team_db.dsn("alice")) as alice:
        _policy(team_db, server, "all")
        alone = prepared_payout(server.url, rsa_key, order="j-2", amount="99.00")
        rejected = Approvals(alice).submit(_environment(server), alone).id
        with TeamJournal(team_db.dsn("bob")) as bob:
            Approvals(bob).reject(rejected, "not this month")
        held = _held(alice, path, server, rsa_key)  # another content, one of its order ids
        assert held.rejection.startswith(f"It #{rejected} was rejected before by bob at ")
        assert held.rejection.endswith(
            ": not this month. Submitting it again, after that rejection, is written in the "
            "audit trail and shown to the checkers."
        )
        assert held.text.endswith(f"approval of the whole batch. {held.rejection}")
        with pytest.raises(RejectedBeforeError, match="not this month"):
            held.submit(waiting=False)
        again = held.submit(waiting=False, after_rejection=True)
        assert [s.id for s in Approvals(alice).pending()] == [again.id]
        assert Approvals(alice).submission(again.id).after_rejection_of == rejected
    assert server.received == []
