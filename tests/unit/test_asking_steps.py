"""The conversation's steps, word for word and with what each refusal carries: plain http, a
request with errors, an id accepted before, an unknown outcome, production, and a request
the team's approval policy holds (submitted instead of confirmed, an earlier rejection
answered by the submission). What a front shows is the message and the verdict it is given."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.history import History
from console.core.pipeline import Check, Decision, Question, Ready, Refusal, Refused, Seen, Verdict
from console.core.pipeline.asking import Answered, converse, refuse_undecided
from console.core.pipeline.check import RefusedError
from console.core.pipeline.guard import unknown_question
from tests.helpers.asking import MISTYPED, Recording
from tests.helpers.team import payout_values, pipeline, prepare_values

GATEWAY = "https://gw.example/paynet"  # never reached: nothing here is sent
PRODUCTION_NO = "Not sent: this is a production environment and the send was not confirmed."


def _check(
    key: rsa.RSAPrivateKey,
    url: str = GATEWAY,
    *,
    production: bool = True,
    card: bool = False,
    **kw: str,
) -> Check:
    values = payout_values(order="q-1", card=card, **kw)
    with History() as history:
        return pipeline(history, "live", production=production).check(
            prepare_values(url, key, values)
        )


@dataclass
class Held:
    """A request the team's approval policy holds (the pipeline knows it by its protocol)."""

    check: Check
    rejection: str = ""
    approval: bool = True
    text: str = "Held for a checker: payouts over 100.00 need a second person."
    ACTION: ClassVar[str] = "Submit for approval"

    def submit(self, *, waiting: bool, decision: Decision | None = None) -> Any:
        raise AssertionError("the conversation does not submit")


class Reading(Recording):
    """Answers yes only when it was shown what it answers: the check, the held request."""

    def card_number(self, check: Check) -> bool:
        return super().card_number(check) and bool(check.card_question)

    def submit_for_approval(self, held: Any) -> bool:
        return super().submit_for_approval(held) and held.text.startswith("Held for a checker")


def test_plain_http_beyond_this_computer_is_refused_before_anything_is_asked(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    check = _check(rsa_key, "http://gw.example/paynet")
    asker = Recording()
    assert converse(check, asker) == Refused(
        Refusal.PLAIN_HTTP,
        "Not sent: http://gw.example/paynet/api/v4/payout-check/1 is plain http, so card data "
        "and the signature would travel unencrypted. Use an https address (plain http is "
        "allowed only for this computer: localhost, 127.0.0.1, ::1).",
        check.verdict,
    )
    assert asker.asked == []


@pytest.mark.parametrize("url", [GATEWAY, "HTTPS://gw.example/paynet"])
def test_an_https_gateway_elsewhere_is_only_asked_for_production(
    url: str, rsa_key: rsa.RSAPrivateKey
) -> None:
    asker = Recording(no=["production"])
    check = _check(rsa_key, url)
    assert converse(check, asker) == Refused(
        Refusal.NOT_CONFIRMED, PRODUCTION_NO, check.verdict, Question.PRODUCTION
    )
    assert asker.asked == ["production"]


def test_a_request_with_errors_is_refused_saying_so(rsa_key: rsa.RSAPrivateKey) -> None:
    check = _check(rsa_key, amount="")
    refused = converse(check, Recording())
    assert isinstance(refused, Refused)
    assert (refused.code, refused.message) == (
        Refusal.INVALID,
        "Not sent: the request has errors. Fix them and send again.",
    )


def test_an_id_accepted_before_is_refused_with_the_guards_words(rsa_key: rsa.RSAPrivateKey) -> None:
    check = replace(_check(rsa_key), verdict=Verdict(Seen.ACCEPTED, "q-1"))
    assert converse(check, Recording()) == Refused(
        Refusal.ACCEPTED_BEFORE, check.blocked, check.verdict
    )
    assert check.blocked.startswith("Already sent and accepted")


def test_no_to_the_unknown_outcome_question_carries_the_question(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    unknown = Verdict(Seen.UNKNOWN, "q-1")
    check = replace(_check(rsa_key), verdict=unknown)
    assert converse(check, Recording(no=["resend_unknown"])) == Refused(
        Refusal.UNKNOWN_OUTCOME, unknown_question(unknown), unknown, Question.RESEND_UNKNOWN
    )


def test_the_card_number_question_is_asked_of_the_check(rsa_key: rsa.RSAPrivateKey) -> None:
    check = _check(rsa_key, production=False, card=True, credit_card_number=MISTYPED)
    ready = converse(check, Reading())
    assert ready == Ready(check, Decision(card_number_confirmed=True))


def test_a_held_request_is_submitted_instead_of_confirmed(rsa_key: rsa.RSAPrivateKey) -> None:
    check = _check(rsa_key)
    held = Held(check)
    asker = Reading(no=["submit_for_approval"])
    assert converse(check, asker, held) == Refused(
        Refusal.NOT_SUBMITTED, "Not submitted: nothing was sent.", check.verdict, Question.SUBMIT
    )
    assert asker.asked == ["submit_for_approval"]  # the approval is the production yes
    assert converse(check, Reading(), held) == Ready(check, Decision(), held)


def test_submitting_a_request_rejected_before_answers_that_rejection(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    check = _check(rsa_key)
    held = Held(check, rejection="Rejected by ana at 10:15: wrong amount.")
    ready = converse(check, Reading(), held)
    assert ready == Ready(check, Decision(after_rejection=True), held)


def test_a_batch_row_never_submits_for_approval(rsa_key: rsa.RSAPrivateKey) -> None:
    check = _check(rsa_key)
    assert Answered(Decision(True)).submit_for_approval(Held(check)) is False


def test_a_send_not_decided_is_refused_with_the_steps_words_and_verdict(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    unknown = Verdict(Seen.UNKNOWN, "q-1")
    check = replace(_check(rsa_key), verdict=unknown)
    with pytest.raises(RefusedError) as refused:
        refuse_undecided(check, Decision(resend_after_unknown=True))
    assert refused.value.code == Refusal.NOT_CONFIRMED
    assert refused.value.message == PRODUCTION_NO
    assert refused.value.verdict is unknown
    assert Refused.of(refused.value) == Refused(Refusal.NOT_CONFIRMED, PRODUCTION_NO, unknown)
