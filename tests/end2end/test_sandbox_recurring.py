"""A recurring profile created through the console's client, watched for a year on the
sandbox clock, with its charges announced by callback."""

from __future__ import annotations

from datetime import date, timedelta

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.client import Client, Outcome, Result
from console.core.prepared import prepare
from console.core.schedule import next_charges
from console.core.spec import example_values
from console.core.transport import Transport
from console.sandbox import SandboxHandle
from tests.helpers.http_server import Reply, serve
from tests.helpers.sandbox_client import control, wait_for


def _create_profile(
    sandbox: SandboxHandle,
    key: rsa.RSAPrivateKey,
    values: dict[str, str],
    *,
    skip_validation: bool,
) -> Outcome:
    """Send create-recurring-payment for the demo merchant through the console's client."""
    transport = Transport()
    try:
        return Client(transport).send(
            prepare(
                "create-recurring-payment",
                values,
                base_url=sandbox.base_url,
                login=sandbox.demo.login,
                private_key=key,
                endpoint_id=sandbox.demo.endpoint_id,
                skip_validation=skip_validation,
            )
        )
    finally:
        transport.close()


def test_a_year_of_monthly_charges_in_a_second(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    today = sandbox.sandbox.clock.today()
    values = example_values("create-recurring-payment", today=today)
    values.update(
        {
            "start-date": today.strftime("%d.%m.%Y"),
            "amount-sequence": "5.00,6.13,7.00",
            "max-repeats-number": "6",
        }
    )
    for name in ("amount", "amount-from", "amount-to", "finish-date"):
        values.pop(name, None)
    with serve(lambda request: Reply(200, b"OK")) as receiver:
        values.pop("server_callback_url", None)
        values["notify_url"] = receiver.url + "/recurring"
        outcome = _create_profile(sandbox, rsa_key, values, skip_validation=False)
        assert outcome.result is Result.ACCEPTED, outcome.summary
        rpi = int(dict(outcome.response.fields)["recurring-payment-id"])  # type: ignore[union-attr]
        sandbox.advance_clock(days=366)
        [profile] = [p for p in control(sandbox, "GET", "/profiles") if p["rpi"] == rpi]
        wait_for(lambda: len(receiver.received) == 6)
    charges = profile["charges"]
    # the charge made on the start date, then monthly; six charges, then Stopped
    expected, _ = next_charges(today, "month", 1, max_repeats=6)
    assert [date.fromisoformat(c["charge_date"]) for c in charges] == [c.when for c in expected]
    assert [c["amount"] for c in charges] == ["5.00", "6.13", "7.00", "7.00", "7.00", "7.00"]
    assert [c["status"] for c in charges] == ["approved", "declined"] + ["approved"] * 4
    assert (profile["state"], profile["repeats"]) == ("stopped", 6)
    assert date.fromisoformat(charges[-1]["charge_date"]) <= today + timedelta(days=366)


def test_start_date_in_the_past_is_refused(
    sandbox: SandboxHandle, rsa_key: rsa.RSAPrivateKey
) -> None:
    today = sandbox.sandbox.clock.today()
    values = example_values("create-recurring-payment", today=today)
    values["start-date"] = (today - timedelta(days=1)).strftime("%d.%m.%Y")
    values.pop("finish-date", None)
    outcome = _create_profile(sandbox, rsa_key, values, skip_validation=True)
    assert outcome.response is not None
    assert outcome.response.type == "validation-error"
