"""What the team database refuses of a submission that a console's own checks let through
(an address the team never registered, a login that may not submit), said in a person's
words and never as a bare database error."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.team import Approvals, TeamJournal
from console.core.team.errors import ApprovalRefusedError, UnregisteredGatewayError
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import prepared_payout

psycopg = pytest.importorskip("psycopg")


def test_a_submission_to_an_unregistered_address_is_refused_by_the_database_in_words(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    far = prepared_payout("https://never-registered.example/paynet", rsa_key, order="u-1")
    with (
        TeamJournal(team_db.dsn("alice")) as alice,
        pytest.raises(UnregisteredGatewayError) as refused,
    ):
        Approvals(alice).submit("far", far)
    assert str(refused.value).startswith("Not submitted: ")
    assert "not registered" in str(refused.value)


def test_another_refusal_of_the_team_database_is_said_as_refused_with_its_reason(
    team_db: TeamDatabase,
) -> None:
    """A step the database does not let a maker take (here: a function kept for its own
    rules): refused, and the person reads the database's reason, not a bare error."""
    asked = "SELECT * FROM gateway.submission_target('ftp://gw.example/p', 'm')"
    with TeamJournal(team_db.dsn("alice")) as alice:

        def ask() -> None:
            with Approvals(alice).refusals(), alice.writing() as db:
                db.execute(asked)

        with pytest.raises(ApprovalRefusedError) as refused:
            ask()
    said = str(refused.value)
    assert said.startswith("Refused by the team database: ")
    assert "permission denied for function submission_target" in said
