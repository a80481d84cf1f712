"""Fixtures the team sender's tests share: a stand-in gateway on this computer, and a team
whose sender runs as its own process (``tests.helpers.sender``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.helpers.http_server import TestServer, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.sender import Gateway, SenderTeam, sender_team, serving, stop, wait_for


@pytest.fixture
def gateway() -> Iterator[tuple[Gateway, TestServer]]:
    """A gateway stand-in that answers payouts and status questions, and counts payouts."""
    stand_in = Gateway()
    with serve(stand_in) as server:
        yield stand_in, server


@pytest.fixture
def idle_team(
    team_db: TeamDatabase,
    tmp_path: Path,
    gateway: tuple[Gateway, TestServer],
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
) -> SenderTeam:
    """alice (maker, no key), bob (checker) and the sender's profile for ``gateway``; no
    sender started yet."""
    return sender_team(team_db, tmp_path, gateway[1].url, rsa_key, other_rsa_key)


@pytest.fixture
def team(team_db: TeamDatabase, idle_team: SenderTeam) -> Iterator[SenderTeam]:
    """:func:`idle_team` with its team sender running."""
    sender = idle_team.start_sender()
    assert wait_for(lambda: serving(team_db), 60), idle_team.sender.logs(sender)
    yield idle_team
    stop(sender)
