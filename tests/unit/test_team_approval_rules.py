"""The four-eyes rules of team mode, word for word, against a real PostgreSQL server: what a
maker, a checker or an admin is told when the database refuses a step, what the checker
reads of a submission (its masked fields, the request itself, the rejection it comes after),
one submission for one request, a rejection not undone by asking again, and the audit trail
said to go on past a page. Sending what was approved and waiting for a decision:
``test_team_approval_sending.py``."""

from __future__ import annotations

from uuid import uuid4

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.team import ApprovalRefusedError, Approvals, TeamJournal, connect
from console.core.team.errors import (
    RejectedBeforeError,
    TeamPermissionError,
    TeamSetupError,
    UnregisteredGatewayError,
)
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import (
    FORM,
    NOWHERE,
    accepted,
    audit_entries,
    pipeline,
    prepared_payout,
    prod_policy,
)

psycopg = pytest.importorskip("psycopg")


def test_a_checkers_refused_decisions_are_told_word_for_word(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    prod_policy(team_db)
    with (
        TeamJournal(team_db.dsn("dave")) as dave,
        TeamJournal(team_db.dsn("bob")) as bob,
        TeamJournal(team_db.dsn("carol")) as carol,
    ):
        sid = Approvals(dave).submit("prod", prepared_payout(NOWHERE, rsa_key)).id
        with pytest.raises(ApprovalRefusedError) as own:
            Approvals(dave).approve(sid)
        assert own.value.message == (
            "Refused by the team database: a submission is decided by someone other than its maker."
        )
        with pytest.raises(TeamSetupError, match="say in words why it is rejected"):
            Approvals(bob).reject(sid, "  \t ")
        rejected = Approvals(bob).reject(sid, "  wrong\n month ")
        assert (rejected.state, rejected.decided_by, rejected.reason) == (
            "rejected",
            "bob",
            "wrong month",
        )
        with pytest.raises(ApprovalRefusedError) as late:
            Approvals(carol).approve(sid)
        assert late.value.message == (
            "Refused by the team database: the submission is already rejected (by bob)."
        )
        with pytest.raises(ApprovalRefusedError) as sent:
            Approvals(dave).send_approved(pipeline(dave), sid, prepared_payout(NOWHERE, rsa_key))
        assert sent.value.message == f"#{sid} was rejected by bob: wrong month. Nothing was sent."
        assert Approvals(carol).submission(sid).state == "rejected"


def test_a_send_of_another_request_than_the_approved_one_voids_it_in_words(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    prod_policy(team_db)
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        sid = Approvals(alice).submit("prod", prepared_payout(NOWHERE, rsa_key)).id
        approved = Approvals(bob).approve(sid)
        assert (approved.state, approved.decided_by, approved.reason) == ("approved", "bob", None)
        changed = prepared_payout(NOWHERE, rsa_key, amount="10.51")
        with pytest.raises(ApprovalRefusedError) as refused:
            Approvals(alice).send_approved(pipeline(alice), sid, changed)
        assert refused.value.message == (
            "Not sent: the request is not the one approved, so the approval is void."
        )
        assert Approvals(bob).submission(sid).state == "void"
    assert ("bob", "approve", "") in audit_entries(team_db)  # an approval gives no reason


def test_admin_steps_say_what_changed_and_what_was_refused(team_db: TeamDatabase) -> None:
    newcomer = f"erin_{uuid4().hex[:8]}"
    idle = f"frank_{uuid4().hex[:8]}"
    with connect(team_db.dsn()) as owner:  # a login of the server with no team role yet
        owner.execute(f"CREATE ROLE {idle} LOGIN")
    with (
        TeamJournal(team_db.dsn("root_admin")) as admin,
        TeamJournal(team_db.dsn("alice")) as alice,
    ):
        with pytest.raises(TeamSetupError) as bad_role:
            Approvals(admin).add_user(newcomer, "boss")
        assert bad_role.value.message == (
            "--role must be one of maker, checker, admin, sender, not 'boss'"
        )
        made = Approvals(admin).add_user(newcomer, "maker")
        assert (made.name, made.role, made.before, made.after) == (
            newcomer,
            "maker",
            None,
            ("maker",),
        )
        assert made.describe() == f"{newcomer} is a new login, now a maker."
        both = Approvals(admin).add_user(newcomer, "checker")
        assert (both.before, both.after) == (("maker",), ("checker", "maker"))
        given = Approvals(admin).add_user(idle, "checker")
        assert (given.before, given.after) == ((), ("checker",))
        assert given.describe() == f"{idle} was no team role; now a checker."

        with pytest.raises(TeamPermissionError) as not_admin:
            Approvals(alice).add_user(f"mallory_{uuid4().hex[:8]}", "admin")
        assert not_admin.value.message == (
            "Refused by the team database: only an admin may add users."
        )
        with pytest.raises(TeamPermissionError) as secret:
            Approvals(alice).set_callback_secret("prod", "s3cret")
        assert secret.value.message == (
            "Refused by the team database: only an admin may set the callback secret."
        )
        Approvals(admin).set_callback_secret("prod", "s3cret")  # an admin's: no refusal
    audit = audit_entries(team_db)
    assert ("alice", "refused", "callback secret: not an admin") in audit
    assert ("root_admin", "callback secret", "the merchant control secret the database checks"
            " callbacks with was set") in audit  # fmt: skip


@pytest.mark.parametrize(
    ("login", "ends"), [("acme.", "for acme."), ("ACME.X", "for ACME.X.")], ids=["dot", "x"]
)
def test_a_submission_to_a_gateway_nobody_registered_names_it_and_its_login_as_typed(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey, login: str, ends: str
) -> None:
    """The database's refusal, in the maker's words: the login ends the sentence whole, one
    dot after it (not two: a login's own final dot ends the sentence)."""
    from console.core.prepared import prepare
    from tests.helpers.team import payout_values

    prod_policy(team_db)
    elsewhere = prepare(
        "payout-check",
        payout_values("u-1"),
        base_url="https://pay.example.com/paynet",
        login=login,
        private_key=rsa_key,
        endpoint_id="7",
    )
    with TeamJournal(team_db.dsn("alice")) as alice:
        with pytest.raises(UnregisteredGatewayError) as refused:
            Approvals(alice).submit("prod", elsewhere)
        assert refused.value.message == (
            "Not submitted: the team has not registered the gateway"
            f" https://pay.example.com:443/paynet/api/v4/payout-check/7 {ends}"
        )
        assert Approvals(alice).pending() == []


def test_only_payouts_and_recurring_profiles_are_held_by_a_policy_of_all(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    from console.core.prepared import prepare
    from console.core.spec import example_values

    prod_policy(team_db)
    card_ref = prepare(
        "create-card-ref",
        example_values("create-card-ref"),
        base_url=NOWHERE,
        login="merchant",
        private_key=rsa_key,
        endpoint_id="1",
    )
    with TeamJournal(team_db.dsn("alice")) as alice:
        assert Approvals(alice).needs_approval(prepared_payout(NOWHERE, rsa_key))
        assert not Approvals(alice).needs_approval(card_ref)


def test_the_same_request_submitted_twice_is_one_submission(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """Submitted again while it waits (for a decision, or approved for its send): the first
    submission, which the maker's console then sends with the card data it holds."""
    prod_policy(team_db)
    with (
        serve(lambda r: Reply(200, accepted("c-1"), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("bob")) as bob,
    ):
        card = prepared_payout(server.url, rsa_key, order="c-1", card=True)
        first = Approvals(alice).submit("prod", card)
        assert (first.environment, first.earlier) == ("prod", None)
        again = Approvals(alice).submit(
            "prod", prepared_payout(server.url, rsa_key, order="c-1", card=True)
        )
        assert (again.id, again.environment) == (first.id, "prod")
        assert again.earlier is not None
        assert (again.earlier.id, again.earlier.state, again.earlier.maker) == (
            first.id,
            "pending",
            "alice",
        )
        Approvals(bob).approve(first.id)
        approved = Approvals(alice).submit(
            "prod", prepared_payout(server.url, rsa_key, order="c-1", card=True)
        )
        assert approved.id == first.id
        assert approved.earlier is not None
        assert approved.earlier.state == "approved"
        other = Approvals(alice).submit("prod", prepared_payout(server.url, rsa_key, order="p-9"))
        assert other.id != first.id
        assert other.earlier is None
        assert [s.id for s in Approvals(bob).pending()] == [other.id]
        sent = Approvals(alice).send_approved(pipeline(alice), approved.id, approved.prepared)
        assert str(sent.result) == "accepted"
        assert len(server.received) == 1
    submits = [d for who, what, d in audit_entries(team_db) if (who, what) == ("alice", "submit")]
    assert len(submits) == 2


def test_a_checker_reads_the_masked_fields_and_the_request_itself(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    import json

    prod_policy(team_db)
    prepared = prepared_payout(NOWHERE, rsa_key, amount="12.34")
    card = prepared_payout(NOWHERE, rsa_key, order="c-1", card=True)
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        seen = Approvals(bob).submission(Approvals(alice).submit("prod", prepared).id)
        seen_card = Approvals(bob).submission(Approvals(alice).submit("prod", card).id)
    assert (seen.environment, seen.command, seen.client_orderid) == ("prod", "payout-check", "p-1")
    assert (seen.amount, seen.currency, seen.maker) == ("12.34", "USD", "alice")
    assert seen.receiver == "bank account 40817810099910004312"
    assert seen.values == dict(prepared.params)  # the request itself: a checker can send it
    assert dict(json.loads(seen.shown)) == dict(prepared.params)  # nothing to mask in it
    assert not seen.card_data
    assert seen_card.card_data
    assert seen_card.params is None  # the card data stays in the maker's console
    shown = dict(json.loads(seen_card.shown))
    assert shown["credit_card_number"] == "444444******4448"
    assert shown["client_orderid"] == "c-1"


def test_a_request_submitted_again_after_its_rejection_names_it_to_the_checkers(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    prod_policy(team_db)
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        first = Approvals(alice).submit("prod", prepared_payout(NOWHERE, rsa_key)).id
        other = Approvals(alice).submit("prod", prepared_payout(NOWHERE, rsa_key, order="p-2")).id
        Approvals(bob).reject(first, "wrong month")
        for same in (
            prepared_payout(NOWHERE, rsa_key),
            prepared_payout(NOWHERE, rsa_key, amount="9.00"),
        ):
            with pytest.raises(RejectedBeforeError) as refused:
                Approvals(alice).submit("prod", same)
            said = refused.value.message
            assert said.startswith(
                f"Not submitted: the same request #{first} was rejected before by bob at "
            )
            assert said.endswith(
                ": wrong month. Submit it again only after that rejection, on purpose"
                " (--after-rejection; in the window, the box under the question)."
            )
        again = Approvals(alice).submit(
            "prod", prepared_payout(NOWHERE, rsa_key), after_rejection=True
        )
        resubmitted = Approvals(bob).submission(again.id)
        assert resubmitted.after_rejection_of == first
        assert Approvals(bob).rejection(resubmitted).id == first  # type: ignore[union-attr]
        assert Approvals(bob).rejection(Approvals(bob).submission(other)) is None
        listed = {s.id: said for s, said in Approvals(bob).pending_with_rejections()}
    assert listed[other] == ""
    assert listed[again.id].startswith(f"#{first} was rejected before by bob at ")
    assert listed[again.id].endswith(": wrong month; alice submitted it again")
    assert list(listed) == [other, again.id]


def test_a_batch_rejected_before_is_refused_unless_the_maker_says_so(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    from console.core.team.storage.gateways import Target

    prod_policy(team_db)
    rows = [prepared_payout(NOWHERE, rsa_key, order=o, amount="5.00") for o in ("r-1", "r-2")]

    def submit(approvals: Approvals, digest: str = "e" * 64, **again: bool) -> int:
        return approvals.submit_batch(
            "prod", "payout-check", digest, {"lines": ["2 rows to Zürich"]}, rows,
            card_data=False, source="pay.csv", target=Target.of(rows[0]), **again,
        )  # fmt: skip

    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        first = submit(Approvals(alice))
        assert Approvals(alice).latest_batch("prod", "e" * 64).id == first  # type: ignore[union-attr]
        Approvals(bob).reject(first, "wrong month")
        assert Approvals(alice).latest_batch("prod", "e" * 64) is None
        for digest in ("e" * 64, "d" * 64):  # the same file, or another with its order ids
            with pytest.raises(RejectedBeforeError, match=f"#{first} was rejected before by bob"):
                submit(Approvals(alice), digest)
        again = submit(Approvals(alice), after_rejection=True)
        resubmitted = Approvals(bob).submission(again)
    assert (resubmitted.after_rejection_of, resubmitted.batch_rows) == (first, 2)
    assert resubmitted.batch_lines == ["2 rows to Zürich"]
    with connect(team_db.dsn()) as owner:  # as psql shows it: the words as written
        stored = owner.execute(
            "SELECT request_json FROM gateway.submissions WHERE id = %s", (again,)
        ).fetchone()
    assert stored is not None
    assert "Zürich" in stored[0]


def test_team_audit_says_when_the_trail_goes_on_past_a_page(
    team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`team audit` reads 1000 entries at a time, oldest first: when there may be more, it
    says so and from when to read on, instead of ending the trail there unsaid."""
    from console.cli import main

    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("carol"))
    assert main(["team", "audit"]) == 0
    out, err = capsys.readouterr()
    before = len(out.splitlines())
    assert 0 < before < 1000
    assert err == ""
    with connect(team_db.dsn()) as owner:
        owner.execute(
            "SELECT gateway.log('policy', NULL, NULL, 'prod', 'step ' || n)"
            " FROM generate_series(1, %s) AS n",
            (1000 - before,),
        )
    assert main(["team", "audit"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1000
    assert err == ""  # all of it: nothing follows
    with connect(team_db.dsn()) as owner:
        owner.execute("SELECT gateway.log('policy', NULL, NULL, 'prod', 'the last step')")
    assert main(["team", "audit"]) == 0
    out, err = capsys.readouterr()
    shown = out.splitlines()
    assert len(shown) == 1000
    assert shown[-1].endswith(f"step {1000 - before}")
    assert "the last step" not in out
    assert err.startswith("The first 1000 entries are shown; the trail goes on: --since ")
    assert main(["team", "audit", "--since", err.split("--since ")[1].strip()]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[-1].endswith("the last step")
    assert err == ""


def test_a_rejection_is_found_by_the_requests_hash_whatever_order_id_it_named(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    """A submission made in psql under the maker's login may name any order id with a
    request's hash (a maker reads the team's hash key): rejected, the request of that hash
    (a single request, or a batch file) is refused in the console's words all the same."""
    import json

    from console.core.team.approvals.approval import approved_row
    from console.core.team.hashing import batch_hash
    from console.core.team.storage.gateways import Target

    prod_policy(team_db)
    single = prepared_payout(NOWHERE, rsa_key, order="h-1")
    rows = [prepared_payout(NOWHERE, rsa_key, order=o, amount="5.00") for o in ("h-2", "h-3")]
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        key = alice.hash_key
        digest = approved_row("prod", single, key)["content_hash"]
        whole = batch_hash("prod", rows, key)
        with connect(team_db.dsn("alice")) as sql:
            forged = sql.execute(
                "SELECT gateway.submit('prod', 'payout-check', 'other', '10.50', 'USD', NULL, %s,"
                " '[]', NULL, false, %s, 'merchant')",
                (digest, single.url),
            ).fetchone()
            forged_batch = sql.execute(
                "SELECT gateway.submit_batch('prod', 'payout-check', %s, '{}', %s::jsonb, false,"
                " 'pay.csv', %s, 'merchant')",
                (
                    whole,
                    json.dumps([{"client_orderid": "other-2", "content_hash": "0" * 64}]),
                    single.url,
                ),
            ).fetchone()
        assert forged is not None
        assert forged_batch is not None
        for sid in (forged[0], forged_batch[0]):
            Approvals(bob).reject(sid, "made in psql")
        with pytest.raises(RejectedBeforeError) as refused:
            Approvals(alice).submit("prod", single)
        assert refused.value.message.startswith(
            f"Not submitted: the same request #{forged[0]} was rejected before by bob at "
        )
        with pytest.raises(RejectedBeforeError) as refused_batch:
            Approvals(alice).submit_batch(
                "prod", "payout-check", whole, {"lines": []}, rows, card_data=False,
                source="pay.csv", target=Target.of(rows[0]),
            )  # fmt: skip
        assert refused_batch.value.message.startswith(
            f"Not submitted: the same request #{forged_batch[0]} was rejected before by bob at "
        )
        assert Approvals(bob).pending() == []
