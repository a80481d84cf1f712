"""One gateway, however its address is spelled: an internationalised host name and its ASCII
(``xn--``) form, ``:443`` or no port, a trailing dot, upper case. The double-payout guard
takes them for one gateway, so one client_orderid goes out once (single-person mode)."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.gateway_identity import ascii_url, gateway_identity, normalised_url
from console.core.history import History
from console.core.pipeline import Decision, Pipeline, RefusedError, Seen
from console.core.transport import Transport
from tests.helpers.history_data import answered, prepared

UNICODE = "https://gatewäy.example/paynet"
PUNYCODE = "https://xn--gatewy-fua.example/paynet"


@pytest.mark.parametrize(
    "spelling",
    [
        PUNYCODE,
        "https://GATEWÄY.example/paynet",
        "https://gatewäy.example.:443/paynet/",
        "https://xn--gatewy-fua.example.:443//paynet",
        "https://gatewäy\u3002example/paynet",  # an ideographic full stop: a dot in UTS-46
    ],
)
def test_an_internationalised_host_and_its_ascii_form_are_one_gateway(spelling: str) -> None:
    assert gateway_identity(spelling, "acme") == gateway_identity(UNICODE, "acme")
    assert normalised_url(spelling) == "https://xn--gatewy-fua.example:443/paynet"


@pytest.mark.parametrize(
    "spelling",
    [
        "https://gw.example:443/paynet",
        "https://gw.example./paynet",
        "https://GW.Example/paynet",
        "HTTPS://gw.example.:443/paynet/",
    ],
)
def test_the_default_port_a_trailing_dot_and_case_are_one_gateway(spelling: str) -> None:
    assert gateway_identity(spelling, "acme") == gateway_identity(
        "https://gw.example/paynet", "acme"
    )


def test_a_host_idna_cannot_write_is_refused_not_guessed() -> None:
    with pytest.raises(ValueError, match="Not a valid host name"):
        normalised_url("https://gate\u200bway\u0301-.example/paynet")


def test_the_journal_keeps_the_address_the_transport_reaches() -> None:
    assert ascii_url(UNICODE + "/api/v4/payout-check/1") == PUNYCODE + "/api/v4/payout-check/1"
    assert ascii_url("https://gw.example:8443/x") == "https://gw.example:8443/x"


def test_a_payout_accepted_through_one_spelling_is_refused_through_the_other(
    rsa_key: rsa.RSAPrivateKey,
) -> None:
    history = History()
    first = prepared(rsa_key, base_url=UNICODE, client_orderid="po-idn")
    hooks = history.journal("gw-unicode")
    hooks.after_answer(
        hooks.before_send(first),
        answered(first, "type=async-response&serial-number=s&gateway-order-id=77"),
    )
    again = prepared(rsa_key, base_url=PUNYCODE, client_orderid="po-idn")
    pipeline = Pipeline(
        "gw-ascii",
        gateway=lambda _command: again.gateway,
        production=False,
        journal=history,
        transport=Transport,
    )
    assert pipeline.check(again).verdict.seen is Seen.ACCEPTED
    with pytest.raises(RefusedError, match="accepted"):
        pipeline.send(again, Decision(production_confirmed=True, resend_after_unknown=True))
