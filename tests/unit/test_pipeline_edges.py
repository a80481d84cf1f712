"""The pipeline's own steps at their edges: a batch file's verdicts looked up together (one
gateway, its environment's rows from before gateways were recorded, no journal), a verdict
handed in, the team's hold asked with or without approval, a held request submitted as the
person decided, a send refused by the journal's own check, and one request start to end."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.errors import JournalUnavailableError, SendRefusedError
from console.core.history import History
from console.core.pipeline import (
    Check,
    Decision,
    Pipeline,
    Ready,
    Refusal,
    Refused,
    RefusedError,
    Seen,
    Verdict,
)
from console.core.pipeline.guard import NEW
from console.core.spec import example_values
from console.core.transport import Transport
from tests.helpers.asking import Recording
from tests.helpers.history_data import BASE_URL, answered, prepared
from tests.helpers.http_server import DROP, Reply, serve

OTHER = "https://other.example:443/paynet/api/v4/payout-check/1234 acme"
ACCEPTED = "type=async-response&serial-number=s&gateway-order-id=77"
FORM = {"Content-Type": "text/html;charset=utf-8"}


def _pipeline(journal: Any, gateway: str | None, **kw: Any) -> Pipeline:
    return Pipeline(
        "sb",
        gateway=lambda _command: gateway,
        production=kw.pop("production", False),
        journal=journal,
        transport=Transport,
        **kw,
    )


def _accept(history: History, key: rsa.RSAPrivateKey, order: str) -> str:
    """``order`` sent in "sb" and accepted; the gateway it went to."""
    hooks = history.journal("sb")
    req = prepared(key, client_orderid=order)
    hooks.after_answer(hooks.before_send(req), answered(req, ACCEPTED))
    assert req.gateway is not None
    return req.gateway


def test_a_files_verdicts_are_the_journals_for_its_gateway(rsa_key: rsa.RSAPrivateKey) -> None:
    with History() as history:
        gateway = _accept(history, rsa_key, "po-1")
        verdict = _pipeline(history, gateway).verdicts("payout-check", ["po-1", " po-2 "])
        assert verdict("po-1").seen is Seen.ACCEPTED
        assert verdict("po-1").client_orderid == "po-1"
        assert verdict("po-2") == Verdict(Seen.NEW, "po-2")
        assert verdict("po-3") == Verdict(Seen.NEW, "po-3")  # not in the file: asked alone
        # another gateway's sends of the same ids are not this one's
        elsewhere = _pipeline(history, OTHER).verdicts("payout-check", ["po-1"])
        assert elsewhere("po-1").seen is Seen.NEW
        assert _pipeline(history, OTHER).verdict("payout-check", "po-1").seen is Seen.NEW
        assert _pipeline(history, gateway).verdict("payout-check", "po-1").seen is Seen.ACCEPTED


def test_rows_from_before_gateways_were_recorded_count_in_their_environment(
    rsa_key: rsa.RSAPrivateKey, tmp_path: Path
) -> None:
    path = tmp_path / "history.db"
    with History(path) as history:
        _accept(history, rsa_key, "po-1")
    with sqlite3.connect(path) as db:  # as a journal written before gateways were recorded
        db.execute("UPDATE requests SET gateway = NULL")
    db.close()
    with History(path) as history:
        verdict = _pipeline(history, OTHER).verdicts("payout-check", ["po-1"])
        assert verdict("po-1").seen is Seen.ACCEPTED
        assert _pipeline(history, OTHER).verdict("payout-check", "po-1").seen is Seen.ACCEPTED


def test_without_a_journal_every_verdict_is_new() -> None:
    verdict = _pipeline(None, OTHER).verdicts("payout-check", ["po-1"])
    assert verdict("po-1") == NEW
    assert _pipeline(None, OTHER).verdict("payout-check", "po-1") == NEW


def test_a_request_with_errors_is_not_looked_up_and_its_summary_names_it(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    values = example_values("payout-check")
    values.update(client_orderid="po-1", amount="")
    with History() as history:
        gateway = _accept(history, rsa_key, "po-1")
        check = _pipeline(history, gateway).prepare("payout-check", values, **_connection(rsa_key))
    assert check.verdict == NEW  # refused for its errors, not for an earlier send
    assert (check.summary.environment, check.summary.command) == ("sb", "payout-check")


def test_a_verdict_looked_up_before_is_the_checks(rsa_key: rsa.RSAPrivateKey) -> None:
    before = Verdict(Seen.ACCEPTED, "po-1")
    values = example_values("payout-check")
    values["client_orderid"] = "po-1"
    with History() as history:
        check = _pipeline(history, OTHER).prepare(
            "payout-check",
            values,
            verdict=before,
            base_url=BASE_URL,
            login="acme",
            private_key=rsa_key,
            endpoint_id="1234",
        )
    assert check.verdict is before
    assert check.block_code == Refusal.ACCEPTED_BEFORE


@dataclass
class Held:
    """A held request (the team's ``Held``, by the pipeline's protocol)."""

    check: Check
    rejection: str = ""
    approval: bool = True
    text: str = "Held for a checker."
    submitted: list[tuple[bool, Decision | None]] = field(default_factory=list)
    ACTION: ClassVar[str] = "Submit for approval"

    def submit(self, *, waiting: bool, decision: Decision | None = None) -> str:
        self.submitted.append((waiting, decision))
        return "submitted"


class Holds:
    """The team's approval rule: holds every request it may (``approval``)."""

    def __init__(self, refuse: str = "") -> None:
        self.asked: list[bool] = []
        self.refuse = refuse
        self.held: Held | None = None

    def __call__(self, pipeline: Any, check: Check, *, approval: bool = True) -> Held | None:
        self.asked.append(approval)
        if self.refuse:
            raise RefusedError(Refusal.UNREGISTERED_GATEWAY, self.refuse)
        self.held = Held(check) if approval else None
        return self.held


def test_the_team_rule_is_asked_and_a_batch_row_is_not_held(rsa_key: rsa.RSAPrivateKey) -> None:
    holds = Holds()
    with History() as history:
        team = _pipeline(history, OTHER, holds=holds)
        check = team.check(prepared(rsa_key, client_orderid="po-1"))
        ready = team.ask(check, Recording())
        assert isinstance(ready, Ready)
        assert ready.held is holds.held is not None
        row = team.ask(check, Recording(), approval=False)
        assert isinstance(row, Ready)
        assert row.held is None
    assert holds.asked == [True, False]


class RefusesWithoutCode:
    """A team rule refusing with an error that names no refusal code."""

    def __call__(self, pipeline: Any, check: Check, *, approval: bool = True) -> Held | None:
        raise SendRefusedError("Not submitted: the team database is read-only.")


def test_a_refusal_of_the_team_rule_without_a_code_is_not_submitted(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        team = _pipeline(history, OTHER, holds=RefusesWithoutCode())
        check = team.check(prepared(rsa_key, client_orderid="po-1"))
        assert team.ask(check, Recording()) == Refused(
            Refusal.NOT_SUBMITTED, "Not submitted: the team database is read-only.", check.verdict
        )


def test_a_refusal_of_the_team_rule_is_the_answer(rsa_key: rsa.RSAPrivateKey) -> None:
    with History() as history:
        team = _pipeline(history, OTHER, holds=Holds(refuse="Not sent: unregistered gateway."))
        check = team.check(prepared(rsa_key, client_orderid="po-1"))
        assert team.ask(check, Recording()) == Refused(
            Refusal.UNREGISTERED_GATEWAY, "Not sent: unregistered gateway.", check.verdict
        )


@pytest.mark.parametrize("waiting", [False, True])
def test_a_held_request_is_submitted_as_decided(waiting: bool, rsa_key: rsa.RSAPrivateKey) -> None:
    with History() as history:
        team = _pipeline(history, OTHER)
        held = Held(team.check(prepared(rsa_key, client_orderid="po-1")))
        decision = Decision(card_number_confirmed=True)
        go = team.go(Ready(held.check, decision, held), **({"waiting": True} if waiting else {}))
    assert go == "submitted"
    assert held.submitted == [(waiting, decision)]


def test_an_id_accepted_since_it_was_checked_is_refused_not_sent(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        gateway = _accept(history, rsa_key, "po-1")
        pipeline = _pipeline(history, gateway)
        stale = pipeline.check(prepared(rsa_key, client_orderid="po-1"), verdict=NEW)
        refused = pipeline.go(Ready(stale, Decision()))
    assert isinstance(refused, Refused)
    assert refused.code == Refusal.ACCEPTED_BEFORE
    assert refused.verdict.seen is Seen.ACCEPTED


def _connection(key: rsa.RSAPrivateKey) -> dict[str, Any]:
    return {"base_url": BASE_URL, "login": "acme", "private_key": key, "endpoint_id": "1234"}


def test_one_request_start_to_end_is_refused_at_the_first_no(rsa_key: rsa.RSAPrivateKey) -> None:
    values = example_values("payout-check")
    with History() as history:
        live = _pipeline(history, OTHER, production=True)
        refused = live.run(
            "payout-check", values, Recording(no=["production"]), **_connection(rsa_key)
        )
    assert isinstance(refused, Refused)
    assert (refused.code, refused.question) == (Refusal.NOT_CONFIRMED, "production")


@pytest.mark.parametrize("waiting", [False, True])
def test_one_held_request_start_to_end_is_submitted(
    waiting: bool, rsa_key: rsa.RSAPrivateKey
) -> None:
    holds = Holds()
    values = example_values("payout-check")
    with History() as history:
        team = _pipeline(history, OTHER, holds=holds)
        extra = {"waiting": True} if waiting else {}
        done = team.run("payout-check", values, Recording(), **extra, **_connection(rsa_key))
    assert done == "submitted"
    assert holds.held is not None
    assert holds.held.submitted == [(waiting, Decision())]
    assert holds.held.check.prepared.command == "payout-check"


def test_without_a_journal_nothing_is_sent_and_the_person_is_told_why(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with pytest.raises(JournalUnavailableError) as refused:
        _pipeline(None, OTHER).send(prepared(rsa_key), Decision())
    assert refused.value.message == (
        "The history journal is not available, so nothing is sent (every send is journalled first)."
    )


def test_without_a_journal_the_person_is_told_why_it_could_not_be_opened(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    why = JournalUnavailableError("The history journal is locked by another program.")
    pipeline = _pipeline(None, OTHER, journal_error=why)
    with pytest.raises(JournalUnavailableError) as refused:
        pipeline.send(prepared(rsa_key), Decision())
    assert refused.value is why


def test_a_check_of_another_request_is_not_taken_for_this_ones(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        gateway = _accept(history, rsa_key, "po-1")
        pipeline = _pipeline(history, gateway)
        other = pipeline.check(
            prepared(rsa_key, base_url="http://gw.example/paynet", client_orderid="po-2")
        )
        with pytest.raises(RefusedError) as refused:
            pipeline.send(prepared(rsa_key, client_orderid="po-1"), Decision(), check=other)
    assert refused.value.code == Refusal.ACCEPTED_BEFORE


def _status(history: History, key: rsa.RSAPrivateKey, body: bytes, orderid: str = "77") -> None:
    """Ask the status of po-1 (gateway order ``orderid``), answered with ``body``."""
    reply = Reply(200, body, FORM) if body else DROP  # no body: the connection drops
    with serve(lambda _r: reply) as server:
        asked = prepared(key, "status", base_url=server.url, client_orderid="po-1", orderid=orderid)
        _pipeline(history, OTHER).send(asked, Decision())


def _final(history: History, gateway: str) -> str | None:
    return history.sent_before(gateway, "payout-check", "po-1")[0].final_status


def _source(history: History, gateway: str) -> str | None:
    return history.sent_before(gateway, "payout-check", "po-1")[0].final_status_source


def test_a_status_answer_settles_the_order_it_names(rsa_key: rsa.RSAPrivateKey) -> None:
    with History() as history:
        gateway = _accept(history, rsa_key, "po-1")
        _status(history, rsa_key, b"type=status-response&serial-number=s&status=declined\n")
        assert _final(history, gateway) == "declined"
        assert _source(history, gateway) == "status"  # the history names where it came from


def test_a_status_answer_of_another_order_with_the_same_id_changes_nothing(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    with History() as history:
        gateway = _accept(history, rsa_key, "po-1")  # gateway order 77
        body = b"type=status-response&serial-number=s&orderid=78&status=declined\n"
        _status(history, rsa_key, body, orderid="78")
        assert _final(history, gateway) is None
        # the answer does not name it: the order the look-up asked about is the one
        _status(history, rsa_key, b"type=status-response&serial-number=s&status=declined\n", "78")
        assert _final(history, gateway) is None


@pytest.mark.parametrize(
    "body",
    [
        b"type=error&serial-number=s&status=declined&error-message=x&error-code=1\n",
        b"",  # no answer at all: the connection drops
    ],
    ids=["an error answer", "no answer"],
)
def test_a_status_look_up_that_says_nothing_of_the_order_changes_nothing(
    body: bytes, rsa_key: rsa.RSAPrivateKey
) -> None:
    with History() as history:
        gateway = _accept(history, rsa_key, "po-1")
        _status(history, rsa_key, body)
        assert _final(history, gateway) is None


def test_a_status_is_asked_again_and_a_rejected_payout_sent_again_saying_so(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    rejected = b"type=validation-error&serial-number=s&error-message=x&error-code=1\n"
    answers = iter([rejected, ACCEPTED.encode()])
    status = b"type=status-response&serial-number=s&status=processing\n"
    with History() as history, serve(lambda r: Reply(200, next(answers, status), FORM)) as gw:
        pipeline = _pipeline(history, OTHER)
        first = pipeline.send(prepared(rsa_key, base_url=gw.url, client_orderid="po-1"), Decision())
        assert str(first.result) == "rejected"
        again = pipeline.send(prepared(rsa_key, base_url=gw.url, client_orderid="po-1"), Decision())
        assert str(again.result) == "accepted"
        assert again.verdict.seen is Seen.REJECTED
        assert again.note.startswith("Sent again: the gateway rejected po-1 at ")
        # a payout's answer is not a status: the order has no final status from it
        rows = history.sent_before(again.outcome.prepared.gateway, "payout-check", "po-1")
        assert [r.final_status_source for r in rows] == [None, None]
        for _ in range(2):  # a status look-up changes nothing: asked as often as needed
            asked = prepared(
                rsa_key, "status", base_url=gw.url, client_orderid="po-1", orderid="77"
            )
            assert str(pipeline.send(asked, Decision()).result) == "accepted"
