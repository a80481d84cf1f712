"""Request addresses: base URL + the command's path template, overridable per environment."""

from __future__ import annotations

import pytest

from console.core.spec import command_url

BASE = "https://gateway.example/paynet"


@pytest.mark.parametrize(
    ("command", "kwargs", "url"),
    [
        ("payout-check", {"endpoint_id": "123"}, f"{BASE}/api/v4/payout-check/123"),
        ("payout-check", {"endpoint_group_id": 77}, f"{BASE}/api/v4/payout-check/group/77"),
        ("create-card-ref", {"endpoint_id": 5}, f"{BASE}/api/v4/create-card-ref/5"),
        ("create-card-ref", {"endpoint_group_id": "9"}, f"{BASE}/api/v4/create-card-ref/group/9"),
        (
            "create-recurring-payment",
            {"endpoint_id": "123"},
            f"{BASE}/api/v4/create-recurring-payment/123",
        ),
        ("status", {"endpoint_id": "1"}, f"{BASE}/api/v4/status/1"),
        ("status", {"endpoint_group_id": "2"}, f"{BASE}/api/v4/status/group/2"),
        # the endpoint form wins when both ids are known
        (
            "payout-check",
            {"endpoint_id": "1", "endpoint_group_id": "2"},
            f"{BASE}/api/v4/payout-check/1",
        ),
        # an empty id counts as not given
        (
            "payout-check",
            {"endpoint_id": " ", "endpoint_group_id": "2"},
            f"{BASE}/api/v4/payout-check/group/2",
        ),
    ],
)
def test_contract_paths(command: str, kwargs: dict[str, str | int], url: str) -> None:
    assert command_url(BASE, command, **kwargs) == url


def test_trailing_slash_of_the_base_is_not_doubled() -> None:
    assert command_url(BASE + "/", "payout-check", endpoint_id="1") == (
        f"{BASE}/api/v4/payout-check/1"
    )


@pytest.mark.parametrize(
    "template",
    ["/api/v5/payout/{endpoint_id}", "/api/v5/payout/<endpoint_id>", "api/v5/payout/{endpoint_id}"],
)
def test_environment_templates_override_the_contract(template: str) -> None:
    url = command_url(BASE, "payout-check", endpoint_id="42", templates={"endpoint": template})
    assert url == f"{BASE}/api/v5/payout/42"


def test_an_override_of_one_form_keeps_the_other() -> None:
    url = command_url(
        BASE, "payout-check", endpoint_group_id="3", templates={"endpoint": "/x/{endpoint_id}"}
    )
    assert url == f"{BASE}/api/v4/payout-check/group/3"


def test_ids_are_percent_encoded() -> None:
    assert command_url(BASE, "status", endpoint_id="a/b c") == f"{BASE}/api/v4/status/a%2Fb%20c"


def test_recurring_has_no_group_form() -> None:
    with pytest.raises(ValueError, match="no endpoint group form"):
        command_url(BASE, "create-recurring-payment", endpoint_group_id="7")


def test_a_group_template_from_the_environment_is_honoured() -> None:
    url = command_url(
        BASE,
        "create-recurring-payment",
        endpoint_group_id="7",
        templates={"group": "/api/v4/create-recurring-payment/group/{endpoint_group_id}"},
    )
    assert url.endswith("/create-recurring-payment/group/7")


def test_missing_ids() -> None:
    with pytest.raises(ValueError, match="needs an endpoint id"):
        command_url(BASE, "payout-check")


@pytest.mark.parametrize("base", ["gateway.example/paynet", "ftp://gateway.example", ""])
def test_base_url_must_be_http(base: str) -> None:
    with pytest.raises(ValueError, match="must start with https://"):
        command_url(base, "payout-check", endpoint_id="1")


def test_unknown_command() -> None:
    with pytest.raises(KeyError, match="create-recurring-payment"):
        command_url(BASE, "sale", endpoint_id="1")
