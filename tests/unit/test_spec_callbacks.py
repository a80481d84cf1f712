"""A callback address on this computer where no listener of this console runs is said."""

from __future__ import annotations

import pytest

from console.core.spec.callbacks import loopback_without_listener


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8123/cb", "http://localhost:9/callback", "https://[::1]/cb"],
)
def test_a_loopback_callback_with_no_listener_is_a_warning(url: str) -> None:
    (problem,) = loopback_without_listener({"server_callback_url": url}, "")
    assert problem.code == "callback-unheard"
    assert problem.fields == ("server_callback_url",)
    assert str(problem.severity) == "warning"
    assert url in problem.message
    assert "final status will not arrive" in problem.message


def test_a_loopback_callback_elsewhere_than_the_listener_names_where_it_runs() -> None:
    found = loopback_without_listener(
        {"notify_url": "http://127.0.0.1:41000/cb"}, "http://127.0.0.1:42000/callback"
    )
    assert [p.fields for p in found] == [("notify_url",)]
    assert "runs at http://127.0.0.1:42000/callback" in found[0].message


@pytest.mark.parametrize(
    "values",
    [
        {"server_callback_url": "http://127.0.0.1:42000/other-path"},  # the listener's port
        {"server_callback_url": "https://merchant.example/cb"},  # not this computer
        {"server_callback_url": ""},
        {"notify_url": "not a url"},
    ],
)
def test_nothing_to_say(values: dict[str, str]) -> None:
    assert loopback_without_listener(values, "http://127.0.0.1:42000/callback") == []
