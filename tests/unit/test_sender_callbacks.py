"""The team sender's callback listeners in one process: where they listen (the environment's
saved settings, or the one given), and the line the sender says about each callback."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.callbacks import CallbackListenerError, control_code
from console.core.environments import CallbackListenerSettings, Environment, EnvKind
from console.core.history import History
from console.sender.callbacks import Listening, SenderCallbacks, listening
from console.sender.callbacks import said as said_about
from tests.helpers.history_data import answered, prepared

SECRET = "merchant-control-secret"


def _env(enabled: bool) -> Environment:
    return Environment(
        "live", EnvKind.PRODUCTION, callback=CallbackListenerSettings(enabled, "0.0.0.0", 8080)
    )


def test_the_sender_listens_where_the_environments_saved_settings_say() -> None:
    assert listening(_env(True), SECRET) == Listening("live", "0.0.0.0", 8080, SECRET)
    assert listening(_env(False), SECRET) is None  # its listener is off: none
    given = listening(_env(False), None, ("127.0.0.1", 8443))  # --callback-listen
    assert given == Listening("live", "127.0.0.1", 8443, None)


@pytest.fixture
def team_journal(tmp_path: Path, rsa_key: rsa.RSAPrivateKey) -> Iterator[History]:
    """A journal standing in for the team's, with the sender's payout p-1 (order 9001)."""
    with History(tmp_path / "team.sqlite") as journal:
        hooks = journal.journal("live")
        req = prepared(rsa_key, client_orderid="p-1")
        answer = answered(req, "type=async-response&gateway-order-id=9001")
        hooks.after_answer(hooks.before_send(req), answer)
        yield journal


def _get(url: str, status: str, orderid: str, order: str, secret: str = SECRET) -> int:
    control = control_code(status, orderid, order, secret)
    params = {"status": status, "orderid": orderid, "client_orderid": order, "control": control}
    return requests.get(url, params=params, timeout=5).status_code


def test_the_sender_says_what_each_callback_did(tmp_path: Path, team_journal: History) -> None:
    said: list[str] = []
    with (
        History(tmp_path / "own.sqlite") as own,
        SenderCallbacks(own, team_journal, say=said.append) as callbacks,
    ):
        (listener,) = callbacks.start([Listening("live", "127.0.0.1", 0, SECRET)])
        assert said == [
            f"listens for live's callbacks at http://127.0.0.1:{listener.port}/callback."
        ]
        url = listener.url
        assert _get(url, "declined", "9001", "p-1", secret="a guess") == 200
        assert _get(url, "approved", "9001", "p-1") == 200
        assert _get(url, "approved", "9001", "p-1") == 200
        assert _get(url, "processing", "9001", "p-1") == 200
        assert _get(url, "approved", "9002", "p-9") == 200
        own_events = own.recent_callbacks()
        assert len(own_events) == 5
    assert [line.split(": ", 1)[1] for line in said[1:]] == [
        "mismatch; recorded, nothing changed",
        "verified; final status approved on row 1",
        "a repeat of callback 2; nothing changed",
        "verified here, but the team database settled nothing (its secret, set by `team "
        "callback-secret live`, differs from this sender's, or the order is settled already)",
        "verified, but the team sent no such order; nothing changed",
    ]
    assert said[1].startswith("callback live p-1 declined from 127.0.0.1")
    first = own_events[0]
    assert said_about(dataclasses.replace(first, remote="")).startswith(
        "callback live p-1 declined: mismatch"
    )  # no address: none said
    assert team_journal.get(1).final_status == "approved"
    assert callbacks.listeners == []  # stopped with the sender
    with pytest.raises(requests.ConnectionError):
        requests.get(url, timeout=2)


def test_without_a_secret_no_listener_beyond_loopback_starts(
    tmp_path: Path, team_journal: History
) -> None:
    said: list[str] = []
    plans = [
        Listening("live", "127.0.0.1", 0, None),  # on this computer only: it may
        Listening("live", "0.0.0.0", 0, None),  # reachable from others: refused
    ]
    with History(tmp_path / "own.sqlite") as own:
        callbacks = SenderCallbacks(own, team_journal, say=said.append)
        with pytest.raises(CallbackListenerError, match="without the merchant control secret"):
            callbacks.start(plans)
    assert callbacks.listeners == []  # the first one was stopped again
    assert len(said) == 1
