"""The console's own client against the local sandbox: every command, every answer shape."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.client import Client, Outcome, Result
from console.core.prepared import prepare
from console.core.responses import Kind
from console.core.spec import example_values
from console.core.transport import OutcomeUnknownError, Timeouts, Transport
from console.sandbox import SandboxHandle
from tests.helpers.sandbox_client import control, payout_values


@pytest.fixture
def client() -> Iterator[Client]:
    transport = Transport(timeouts=Timeouts(connect=5, read=10))
    yield Client(transport)
    transport.close()


def send(
    client: Client,
    sandbox: SandboxHandle,
    key: rsa.RSAPrivateKey,
    command: str,
    values: Mapping[str, str],
    *,
    group: bool = False,
    skip_validation: bool = False,
) -> Outcome:
    demo = sandbox.demo
    prepared = prepare(
        command,
        values,
        base_url=sandbox.base_url,
        login=demo.login,
        private_key=key,
        endpoint_id=None if group else demo.endpoint_id,
        endpoint_group_id=demo.endpoint_group_id if group else None,
        skip_validation=skip_validation,
    )
    return client.send(prepared)


def fields(outcome: Outcome) -> dict[str, str]:
    assert outcome.response is not None, outcome.summary
    return dict(outcome.response.fields)


def test_payout_check_then_status(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    payout = send(
        client, sandbox, rsa_key, "payout-check", payout_values("p-1", merchant_data="basket 42")
    )
    assert payout.result is Result.ACCEPTED
    answer = fields(payout)
    assert answer["type"] == "async-response"
    assert answer["merchant-order-id"] == "p-1"
    assert answer["end-point-id"] == sandbox.demo.endpoint_id
    assert answer["gateway-order-id"].isdigit()
    status = send(
        client,
        sandbox,
        rsa_key,
        "status",
        {
            "client_orderid": "p-1",
            "orderid": answer["gateway-order-id"],
            "by-request-sn": answer["serial-number"],
        },
    )
    assert status.result is Result.ACCEPTED
    got = fields(status)
    assert (got["type"], got["status"], got["amount"], got["currency"]) == (
        "status-response",
        "approved",
        "10.00",
        "USD",
    )
    assert got["merchant_data"] == "basket 42"
    assert got["gateway-order-id"] == answer["gateway-order-id"]
    assert got["serial-number"] != answer["serial-number"]


def test_declined_payout_shows_as_declined_in_the_status(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    assert (
        send(client, sandbox, rsa_key, "payout-check", payout_values("p-2", cvv2="116")).result
        is Result.ACCEPTED
    )
    status = send(client, sandbox, rsa_key, "status", {"client_orderid": "p-2"})
    assert status.response is not None
    assert status.response.kind is Kind.DECLINED
    assert status.response.status == "declined"
    assert fields(status)["error-message"] == "Declined: insufficient funds"


def test_payout_is_processing_until_the_callback_delay_passes(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    sandbox.sandbox.callback_delay = 30
    send(client, sandbox, rsa_key, "payout-check", payout_values("p-3"))
    assert (
        fields(send(client, sandbox, rsa_key, "status", {"client_orderid": "p-3"}))["status"]
        == "processing"
    )


def test_group_paths_work_and_answer_with_the_endpoint(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    payout = send(client, sandbox, rsa_key, "payout-check", payout_values("p-4"), group=True)
    assert fields(payout)["end-point-id"] == sandbox.demo.endpoint_id
    status = send(client, sandbox, rsa_key, "status", {"client_orderid": "p-4"}, group=True)
    assert fields(status)["status"] == "approved"


def test_card_ref_id_pays_out_and_stored_cards_follow_the_amount_rule(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    ref = send(
        client,
        sandbox,
        rsa_key,
        "create-card-ref",
        {"client_orderid": "first-payment-1", "orderid": "9000001"},
    )
    assert ref.result is Result.ACCEPTED
    got = fields(ref)
    assert (got["type"], got["status"]) == ("create-card-ref-response", "approved")
    for name in (
        "card-ref-id",
        "unq-card-ref-id",
        "recurring-payment-id",
        "dst-card-ref-id",
        "dst-unq-card-ref-id",
        "dst-recurring-payment-id",
    ):
        assert got[name].isdigit(), name
    rpi = got["recurring-payment-id"]
    for n, (name, amount, status) in enumerate(
        [
            ("card_recurring_payment_id", "20.00", "approved"),
            ("recurring-payment-id", "20.13", "declined"),
            ("card_recurring_payment_id", "20.19", "filtered"),
        ]
    ):
        values = {"client_orderid": f"rp-{n}", "amount": amount, "currency": "EUR", name: rpi}
        assert send(client, sandbox, rsa_key, "payout-check", values).result is Result.ACCEPTED
        assert (
            fields(send(client, sandbox, rsa_key, "status", {"client_orderid": f"rp-{n}"}))[
                "status"
            ]
            == status
        )


def test_same_first_payment_gives_the_same_card_reference(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    values = {"client_orderid": "first-payment-2", "orderid": "9000002"}
    first = fields(send(client, sandbox, rsa_key, "create-card-ref", values))
    second = fields(send(client, sandbox, rsa_key, "create-card-ref", values))
    assert first["card-ref-id"] == second["card-ref-id"]
    assert "dst-card-ref-id" not in first  # this first payment had no receiver card


def test_create_recurring_payment(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    values = example_values("create-recurring-payment")
    outcome = send(client, sandbox, rsa_key, "create-recurring-payment", values)
    assert outcome.result is Result.ACCEPTED
    got = fields(outcome)
    assert (got["type"], got["status"]) == ("create-recurring-payment-response", "approved")
    assert int(got["recurring-payment-id"]) > 2**32  # a long
    # the profile's id also stands for the card in a payout
    payout = send(
        client,
        sandbox,
        rsa_key,
        "payout-check",
        {
            "client_orderid": "via-profile",
            "amount": "3.00",
            "currency": "USD",
            "recurring-payment-id": got["recurring-payment-id"],
        },
    )
    assert payout.result is Result.ACCEPTED


@pytest.mark.parametrize(
    ("command", "values", "code", "words"),
    [
        (
            "payout-check",
            {
                "client_orderid": "v-1",
                "amount": "10,50",
                "currency": "USD",
                "credit_card_number": "4444444444444448",
                "cvv2": "123",
            },
            None,
            "amount",
        ),
        ("status", {"orderid": "1"}, "101", "client_orderid"),
        ("create-recurring-payment", {"client-orderid": "r", "currency": "USD"}, None, ""),
    ],
)
def test_validation_errors(
    sandbox: SandboxHandle,
    client: Client,
    rsa_key: rsa.RSAPrivateKey,
    command: str,
    values: dict[str, str],
    code: str | None,
    words: str,
) -> None:
    outcome = send(client, sandbox, rsa_key, command, values, skip_validation=True)
    assert outcome.result is Result.REJECTED
    assert outcome.response is not None
    assert outcome.response.kind is Kind.VALIDATION_ERROR
    assert outcome.response.error_message
    assert words in outcome.response.error_message
    assert outcome.response.error_code is not None
    assert 101 <= int(outcome.response.error_code) <= 199
    if code:
        assert outcome.response.error_code == code


@pytest.mark.parametrize(
    ("command", "values", "code", "words"),
    [
        ("create-card-ref", {"client_orderid": "nope", "orderid": "1"}, "203", "first-payment-1"),
        ("create-card-ref", {"client_orderid": "x", "orderid": "9" * 30}, "203", "first-payment-1"),
        (
            "create-card-ref",
            {"client_orderid": "first-payment-processing", "orderid": "9000004"},
            "204",
            "not in a final status",
        ),
        (
            "create-card-ref",
            {"client_orderid": "first-payment-declined", "orderid": "9000003"},
            "205",
            "not authorized",
        ),
        (
            "payout-check",
            {
                "client_orderid": "x",
                "amount": "1.00",
                "currency": "USD",
                "card_recurring_payment_id": "123",
            },
            "206",
            "not known",
        ),
        ("status", {"client_orderid": "never-sent"}, "207", "No order"),
    ],
)
def test_errors(
    sandbox: SandboxHandle,
    client: Client,
    rsa_key: rsa.RSAPrivateKey,
    command: str,
    values: dict[str, str],
    code: str,
    words: str,
) -> None:
    outcome = send(client, sandbox, rsa_key, command, values)
    assert outcome.result is Result.REJECTED
    assert outcome.response is not None
    assert outcome.response.kind is Kind.ERROR
    assert outcome.response.error_code == code
    assert words in (outcome.response.error_message or "")


def test_duplicate_client_orderid_names_the_order_and_pays_nothing(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    first = fields(send(client, sandbox, rsa_key, "payout-check", payout_values("dup")))
    again = send(client, sandbox, rsa_key, "payout-check", payout_values("dup", amount="99.00"))
    assert again.response is not None
    assert again.response.kind is Kind.ERROR
    assert again.response.error_code == "202"
    assert first["gateway-order-id"] in (again.response.error_message or "")
    payouts = control(sandbox, "GET", "/orders?kind=payout")
    assert [(o["client_orderid"], o["amount"]) for o in payouts] == [("dup", "10.00")]


def test_endpoint_of_another_login(
    sandbox: SandboxHandle,
    client: Client,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
) -> None:
    from tests.helpers.sandbox_client import public_pem_of

    sandbox.add_merchant("other", public_pem_of(other_rsa_key), "3001")
    prepared = prepare(
        "status",
        {"client_orderid": "x"},
        base_url=sandbox.base_url,
        login=sandbox.demo.login,
        private_key=rsa_key,
        endpoint_id="3001",
    )
    outcome = client.send(prepared)
    assert outcome.response is not None
    assert outcome.response.error_code == "201"


def test_wrong_key_is_access_denied(
    sandbox: SandboxHandle, client: Client, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    outcome = send(client, sandbox, other_rsa_key, "status", {"client_orderid": "x"})
    assert outcome.result is Result.ACCESS_DENIED
    assert outcome.response is not None
    assert outcome.response.http_status == 403


def test_injected_500(sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey) -> None:
    sandbox.set_faults("payout-check:500")
    outcome = send(client, sandbox, rsa_key, "payout-check", payout_values("f-500"))
    assert outcome.result is Result.GATEWAY_FAILED
    assert outcome.response is not None
    assert outcome.response.kind is Kind.SERVER_ERROR
    assert outcome.response.error_id
    # nothing was processed: the same order id is still free
    sandbox.set_faults(None)
    assert (
        send(client, sandbox, rsa_key, "payout-check", payout_values("f-500")).result
        is Result.ACCEPTED
    )


def test_garbage_answer(sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey) -> None:
    sandbox.set_faults("garbage")
    outcome = send(client, sandbox, rsa_key, "payout-check", payout_values("f-g"))
    assert outcome.result is Result.GATEWAY_FAILED
    assert outcome.response is not None
    assert outcome.response.kind is Kind.MALFORMED


@pytest.mark.parametrize("fault", ["drop", "truncate"])
def test_lost_answers_leave_the_outcome_unknown_but_the_order_exists(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey, fault: str
) -> None:
    sandbox.set_faults(f"payout-check:{fault}")
    outcome = send(client, sandbox, rsa_key, "payout-check", payout_values(f"f-{fault}"))
    assert outcome.result is Result.UNKNOWN
    assert isinstance(outcome.error, OutcomeUnknownError)
    # the payout was accepted: the status command finds it, a resend is refused
    status = send(client, sandbox, rsa_key, "status", {"client_orderid": f"f-{fault}"})
    assert fields(status)["status"] == "approved"


def test_latency(sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey) -> None:
    sandbox.set_faults("status:latency=0.6")
    quick = Transport(timeouts=Timeouts(connect=5, read=0.2))
    patient = Transport(timeouts=Timeouts(connect=5, read=5))
    try:
        late = send(Client(quick), sandbox, rsa_key, "status", {"client_orderid": "none"})
        assert late.result is Result.UNKNOWN
        waited = send(Client(patient), sandbox, rsa_key, "status", {"client_orderid": "none"})
        assert waited.response is not None
        assert waited.response.error_code == "207"
        assert waited.elapsed >= 0.6
        fast = send(Client(patient), sandbox, rsa_key, "payout-check", payout_values("l-1"))
        assert fast.elapsed < 0.6  # scoped to status only
    finally:
        quick.close()
        patient.close()


def test_values_with_spaces_around_arrive_signed_exactly_as_given(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    note = "  two spaces around  "
    values = payout_values("x-1", order_desc=note, card_printed_name="JOHN")
    outcome = send(client, sandbox, rsa_key, "payout-check", values)
    assert outcome.result is Result.ACCEPTED, outcome.summary
    assert outcome.prepared.signed is not None
    assert ("order_desc", note) in outcome.prepared.signed.params


@pytest.mark.parametrize("note", ["basket\x00", "tab\tand\nnewline"])
def test_control_characters_sent_unvalidated_are_signed_right_and_refused_by_field(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey, note: str
) -> None:
    # a name without a space, so that the control character is the only one to escape
    values = payout_values("x-1", order_desc=note, card_printed_name="JOHN")
    outcome = send(client, sandbox, rsa_key, "payout-check", values, skip_validation=True)
    assert outcome.prepared.signed is not None
    assert ("order_desc", note) in outcome.prepared.signed.params
    assert outcome.response is not None
    assert outcome.response.kind is Kind.VALIDATION_ERROR  # the signature held: not a 403
    assert "order_desc" in (outcome.response.error_message or "")


def test_a_payout_with_no_receiver_is_a_validation_error(
    sandbox: SandboxHandle, client: Client, rsa_key: rsa.RSAPrivateKey
) -> None:
    values = {
        k: v
        for k, v in payout_values("no-receiver-1").items()
        if k
        not in ("credit_card_number", "card_printed_name", "expire_month", "expire_year", "cvv2")
    }
    outcome = send(client, sandbox, rsa_key, "payout-check", values, skip_validation=True)
    assert outcome.response is not None
    assert outcome.response.kind is Kind.VALIDATION_ERROR
    assert "receiver" in (outcome.response.error_message or "").lower()
