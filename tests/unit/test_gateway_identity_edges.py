"""A gateway's identity at the edges of how its address is written: no host, an IPv6 literal,
trailing dots, the root path, user information, an endpoint group and an environment's own
paths. Two spellings of one gateway give one identity (one client_orderid goes out once);
two gateways give two (a send to one is not refused for the other's)."""

from __future__ import annotations

import pytest

from console.core.gateway_identity import ascii_host, ascii_url, gateway_for, normalised_url

BASE = "https://gw.example/paynet"


def test_an_address_without_a_host_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match=r"https:///paynet"):
        normalised_url("https:///paynet")


def test_an_ipv6_gateway_keeps_its_brackets_and_port() -> None:
    assert normalised_url("https://[2001:DB8::1]:8443/api/") == "https://[2001:db8::1]:8443/api"


def test_an_internationalised_host_with_trailing_dots_is_the_same_gateway() -> None:
    assert normalised_url("https://gatewäy.example../api") == normalised_url(
        "https://xn--gatewy-fua.example/api"
    )


@pytest.mark.parametrize(
    ("written", "asked"),
    [
        ("PAY.EXAMPLE.BOX", "pay.example.box"),
        ("PAY.GATEWÄY.BOX", "pay.xn--gatewy-fua.box"),  # upper case mapped before IDNA
    ],
)
def test_a_host_is_asked_for_in_lower_case_whole(written: str, asked: str) -> None:
    assert ascii_host(written) == asked


def test_the_root_path_and_a_path_ending_in_x_are_kept_apart() -> None:
    assert normalised_url("https://gw.example") == "https://gw.example:443/"
    assert normalised_url("https://gw.example/X") == "https://gw.example:443/X"
    assert normalised_url("https://gw.example/api/X/") == "https://gw.example:443/api/X"


@pytest.mark.parametrize(
    ("written", "reached"),
    [
        ("https://gatewäy.example:8443/x", "https://xn--gatewy-fua.example:8443/x"),
        ("https://ops@gatewäy.example/x", "https://ops@xn--gatewy-fua.example/x"),
        # user information holding an @ of its own is kept whole
        ("https://ops@team:pw@gatewäy.example/x", "https://ops@team:pw@xn--gatewy-fua.example/x"),
    ],
)
def test_an_internationalised_address_keeps_its_port_and_user(written: str, reached: str) -> None:
    assert ascii_url(written) == reached


def test_two_endpoint_groups_are_two_gateways() -> None:
    seven = gateway_for("payout-check", base_url=BASE, login="m", endpoint_group_id="7")
    eight = gateway_for("payout-check", base_url=BASE, login="m", endpoint_group_id="8")
    assert seven == "https://gw.example:443/paynet/api/v4/payout-check/group/7 m"
    assert seven != eight


def test_an_environments_own_paths_make_its_gateway() -> None:
    own = {"endpoint": "/v4/payouts/{endpoint_id}"}
    found = gateway_for(
        "payout-check", base_url=BASE, login="m", endpoint_id="1", path_templates=own
    )
    assert found == "https://gw.example:443/paynet/v4/payouts/1 m"
