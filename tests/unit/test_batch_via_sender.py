"""A batch whose rows go to the team sender (it holds the key): each row is submitted to it
and the row's result is the sender's outcome; a row the sender or the database refuses is
skipped with the refusal's words and the run goes on; a row with no outcome in time is
unknown and the run stops there, saying why in the sender's words.

The team's rule is stood in for by one that hands every row to a sender answering as the
team sender does (``send()``: the outcome, or the team's refusal or no-decision errors), its
policy holding every payout for a checker where it may (never a row of a batch, approved as
a whole), so the batch runner runs in this test's own process without a team database; the
sender sends through the same pipeline, to a real HTTP server on 127.0.0.1.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core import batch as core
from console.core.history import History
from console.core.order_facts import client_orderid
from console.core.pipeline import Check, Decision, Pipeline, Sent
from console.core.team.errors import ApprovalPendingError, NotApprovedError
from tests.helpers.batch_files import card_file
from tests.helpers.http_server import Received, Reply, serve
from tests.helpers.pipeline import planned_batch
from tests.helpers.team import FORM, accepted

REFUSED = "The team sender refused #1: the card number fails its check digit. Nothing was sent."
NO_OUTCOME = "No outcome from the team sender for #1 within 0.5 s; check its status."


def _order(request: Received) -> str:
    return dict(p.split("=", 1) for p in request.body.decode().split("&"))["client_orderid"]


@dataclass(frozen=True, slots=True)
class _Submitted:
    """A row in the team sender's hands: ``send()`` waits for its outcome."""

    hold: _ToTheSender
    decision: Decision

    def send(self) -> Sent:
        hold = self.hold
        order = client_orderid(hold.check.prepared.params)
        hold.submitted.append(order)
        answer = hold.answers.get(order, "send")
        if answer == "refuse":
            raise NotApprovedError(REFUSED, "refused")
        if answer == "late":
            raise ApprovalPendingError(NO_OUTCOME, 1)
        return hold.pipeline.send(hold.check.prepared, self.decision, check=hold.check)


@dataclass(frozen=True, slots=True)
class _ToTheSender:
    """A request the team sender sends (at once, unless ``approval``: a checker first)."""

    ACTION: ClassVar[str] = "Submit to the team sender"
    pipeline: Pipeline
    check: Check
    answers: dict[str, str]
    submitted: list[str]
    text: str = "The team sender, which holds the key of test, sends it."
    rejection: str = ""
    approval: bool = False

    def submit(self, *, waiting: bool, decision: Decision | None = None) -> _Submitted:
        assert not waiting  # a batch's row never waits for a checker
        return _Submitted(self, decision or Decision())


def _run(
    tmp_path: Path, key: rsa.RSAPrivateKey, rows: int, answers: dict[str, str]
) -> tuple[core.BatchReport, list[str], list[str]]:
    """Run ``rows`` card payouts through a sender answering ``answers`` (order id -> send,
    refuse or late): the report, the ids submitted to the sender, the ids at the gateway."""
    submitted: list[str] = []

    def sender_holds(pipeline: Any, check: Check, *, approval: bool = True) -> _ToTheSender:
        # the policy holds every payout for a checker where it may: not a row of a batch,
        # which was approved as a whole
        return _ToTheSender(pipeline, check, answers, submitted, approval=approval)

    path = card_file(tmp_path / "b.csv", rows)
    with serve(lambda r: Reply(200, accepted(_order(r)), FORM)) as server, History() as history:
        conn: dict[str, Any] = {"base_url": server.url, "login": "m", "private_key": key}
        conn["endpoint_id"] = "1"
        pipeline, plan = planned_batch(history, path, conn, holds=sender_holds)
        report = core.BatchRunner(pipeline, conn, plan, core.BatchDecision()).run()
    return report, submitted, [_order(r) for r in server.received]


def test_each_row_goes_to_the_team_sender_and_its_outcome_is_the_rows(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    report, submitted, at_gateway = _run(tmp_path, rsa_key, 2, {})
    assert submitted == at_gateway == ["b-0", "b-1"]
    assert [r.result for r in report.results] == ["accepted", "accepted"]
    assert [r.gateway_order_id for r in report.results] == ["9001", "9001"]
    assert report.results[0].message == report.results[0].outcome.summary  # type: ignore[union-attr]
    assert report.stopped == ""


def test_a_row_the_team_sender_refuses_is_skipped_in_its_words_and_the_run_goes_on(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    report, submitted, at_gateway = _run(tmp_path, rsa_key, 2, {"b-0": "refuse"})
    assert submitted == ["b-0", "b-1"]
    assert at_gateway == ["b-1"]
    assert [(r.result, r.message) for r in report.results[:1]] == [(core.SKIPPED, REFUSED)]
    assert report.results[1].result == "accepted"
    assert report.stopped == ""


def test_a_row_with_no_outcome_from_the_team_sender_in_time_stops_the_run_in_its_words(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    report, submitted, at_gateway = _run(tmp_path, rsa_key, 2, {"b-0": "late"})
    assert submitted == ["b-0"]  # b-1 is not handed to the sender
    assert at_gateway == []
    assert [(r.result, r.message) for r in report.results] == [("unknown", NO_OUTCOME)]
    assert report.results[0].outcome is None
    assert report.stopped == f"Stopped at row 2: {NO_OUTCOME}."
