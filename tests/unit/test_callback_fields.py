"""A genuine callback's fields cannot be shifted, renamed or replayed into another status.

``control`` covers ``status + orderid + client_orderid`` joined without separators, and not
``type``: the listener requires every covered field, takes only the transaction status
values, and treats a replay under another ``type`` as the callback it repeats.
"""

from __future__ import annotations

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.callbacks import CallbackListener, CallbackRecorder, control_code
from console.core.history import CheckResult, History
from console.core.siglab.control import check_control as lab_check
from tests.helpers.history_data import answered, prepared

SECRET = "merchant-control-secret"


@pytest.fixture
def journal(rsa_key: rsa.RSAPrivateKey) -> History:
    """po-1, accepted in sb as gateway order 10000043."""
    history = History()
    hooks = history.journal("sb")
    req = prepared(rsa_key, client_orderid="po-1")
    hooks.after_answer(
        hooks.before_send(req), answered(req, "type=async-response&gateway-order-id=10000043")
    )
    return history


def _over_http(history: History, params: list[tuple[str, str]]) -> None:
    with CallbackListener(CallbackRecorder(history, "sb", SECRET), "127.0.0.1", 0) as listener:
        answer = requests.get(listener.url, params=params, timeout=5)
    assert answer.status_code == 200  # recorded, so that the person sees it


def _genuine(status: str = "approved", type_: str | None = "payout") -> list[tuple[str, str]]:
    params = [("status", status), ("orderid", "10000043"), ("client_orderid", "po-1")]
    if type_ is not None:
        params.append(("type", type_))
    return [*params, ("control", control_code(status, "10000043", "po-1", SECRET))]


@pytest.mark.parametrize(
    "shifted",
    [
        # orderid left out, its digits moved into status: the same control
        [("status", "approved10000043"), ("client_orderid", "po-1")],
        [("status", "approved10000043"), ("orderid", ""), ("client_orderid", "po-1")],
        # client_orderid left out, its text moved into orderid's place
        [("status", "approved"), ("orderid", "10000043"), ("merchant_order", "po-1")],
        # status left out
        [("orderid", "10000043"), ("client_orderid", "po-1")],
    ],
)
def test_a_callback_without_a_covered_field_changes_no_status(
    journal: History, shifted: list[tuple[str, str]]
) -> None:
    genuine = control_code("approved", "10000043", "po-1", SECRET)
    _over_http(journal, [*shifted, ("type", "payout"), ("control", genuine)])
    assert journal.get(1).final_status is None
    [event] = journal.recent_callbacks()
    assert event.check.value == "incomplete"


@pytest.mark.parametrize("status", ["chargeback", "APPROVED", "approved ", "paid"])
def test_a_status_outside_the_status_values_changes_nothing(journal: History, status: str) -> None:
    _over_http(journal, _genuine(status))  # its control is right for what it says
    assert journal.get(1).final_status is None
    [event] = journal.recent_callbacks()
    assert event.check.value == "bad-status"


@pytest.mark.parametrize("replayed_type", ["chargeback", None, ""])
def test_a_replay_with_another_or_no_type_is_a_duplicate(
    journal: History, replayed_type: str | None
) -> None:
    _over_http(journal, _genuine("approved"))
    _over_http(journal, _genuine("declined"))  # a later update (notify_url)
    assert journal.get(1).final_status == "declined"
    _over_http(journal, _genuine("approved", replayed_type))
    assert journal.get(1).final_status == "declined"
    first, _later, replay = journal.recent_callbacks()
    assert replay.check is CheckResult.OK
    assert replay.duplicate_of == first.id


def test_the_signature_lab_says_the_same() -> None:
    # a blank covered field is as missing as an absent one
    shifted = f"status=approved10000043&orderid=&client_orderid=po-1&control={'0' * 40}"
    with pytest.raises(ValueError, match="lacks orderid"):
        lab_check(shifted, SECRET)
    control = control_code("chargeback", "10000043", "po-1", SECRET)
    verdict = lab_check(
        f"status=chargeback&orderid=10000043&client_orderid=po-1&control={control}", SECRET
    )
    assert (verdict.valid, verdict.code) == (False, "status-not-a-value")
    assert "approved, declined" in verdict.message
