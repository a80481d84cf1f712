"""The approval queue pane against a real PostgreSQL server: a maker's submission appears in
a checker's window by itself (LISTEN/NOTIFY), the checker approves or rejects it there, and
the database's refusal of a self-approval is shown as it came."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.team import Approvals, TeamJournal
from console.core.team.storage.gateways import Target
from console.ui.tasks import TaskManager
from console.ui.team.queue_pane import HEADINGS, ApprovalQueuePane
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import prepared_payout, register_environment, register_policy

pytest.importorskip("psycopg")


@pytest.fixture
def pane_for(qtbot: Any, team_db: TeamDatabase) -> Any:
    made: list[ApprovalQueuePane] = []

    def factory(person: str) -> ApprovalQueuePane:
        pane = ApprovalQueuePane(Approvals(TeamJournal(team_db.dsn(person))), TaskManager())
        qtbot.addWidget(pane)
        made.append(pane)
        return pane

    yield factory
    for pane in made:
        pane.stop()


def test_a_submission_appears_live_and_a_checker_approves_it(
    qtbot: Any, pane_for: Any, team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all")
    pane = pane_for("bob")
    with qtbot.waitSignal(pane.refreshed, timeout=5000):
        pane.reload()
    assert not pane.empty.isHidden()
    pane.listen()
    with (
        TeamJournal(team_db.dsn("alice")) as alice,
        qtbot.waitSignal(pane.refreshed, timeout=2000),  # nobody pressed refresh
    ):
        sid = Approvals(alice).submit("prod", prepared_payout("http://127.0.0.1:9", rsa_key)).id
    qtbot.waitUntil(lambda: pane.table.rowCount() == 1, timeout=2000)
    assert pane.table.item(0, 6).text() == "alice"
    assert pane.empty.isHidden()
    pane.table.selectRow(0)
    assert pane.approve_button.isEnabled()
    pane.approve_button.click()
    qtbot.waitUntil(lambda: pane.message.text().startswith(f"#{sid} approved by bob"), timeout=3000)
    qtbot.waitUntil(lambda: pane.table.rowCount() == 0, timeout=3000)


def test_the_makers_own_approval_is_refused_in_the_window(
    qtbot: Any, pane_for: Any, team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all")
    pane = pane_for("dave")  # a maker and a checker
    Approvals(pane.approvals.journal).submit("prod", prepared_payout("http://127.0.0.1:9", rsa_key))
    with qtbot.waitSignal(pane.refreshed, timeout=5000):
        pane.reload()
    pane.table.selectRow(0)
    with qtbot.waitSignal(pane.refreshed, timeout=5000):
        pane.approve_button.click()
    assert "someone other than its maker" in pane.message.text()
    assert pane.table.rowCount() == 1


def test_view_menu_opens_the_queue_in_team_mode(
    qtbot: Any, make_window: Any, team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("bob"))
    w = make_window()
    w.actions_by_name["approval-queue"].trigger()
    qtbot.waitUntil(lambda: w.findChild(ApprovalQueuePane) is not None, timeout=5000)
    pane = w.findChild(ApprovalQueuePane)
    qtbot.waitUntil(lambda: not pane.empty.isHidden(), timeout=5000)
    w.close()  # the pane stops listening and closes its connection with the window


def test_one_person_has_no_approval_queue(make_window: Any) -> None:
    assert "approval-queue" not in make_window().actions_by_name


def test_history_details_name_who_sent_and_who_approved(
    qtbot: Any, team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    from console.core.pipeline import Pipeline
    from console.core.transport import Transport
    from console.ui.history.details import HistoryDetailsView
    from tests.helpers.http_server import Reply, serve
    from tests.helpers.team import FORM, accepted

    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all")
    with (
        serve(lambda r: Reply(200, accepted(), FORM)) as server,
        TeamJournal(team_db.dsn("alice")) as alice,
        TeamJournal(team_db.dsn("carol")) as carol,
    ):
        prepared = prepared_payout(server.url, rsa_key)
        sid = Approvals(alice).submit("prod", prepared).id
        Approvals(carol).approve(sid)
        pipeline = Pipeline(
            "prod",
            gateway=lambda _command: prepared.gateway,
            production=True,
            journal=alice,
            transport=Transport,
        )
        Approvals(alice).send_approved(pipeline, sid, prepared)
        view = HistoryDetailsView()
        qtbot.addWidget(view)
        view.show_detail(alice.details(alice.fetch()[0].id))
    shown = {
        view.summary.item(r, 0).text(): view.summary.item(r, 1).text()
        for r in range(view.summary.rowCount())
    }
    assert (shown["Sent by"], shown["Approved by"]) == ("alice", "carol")


def test_the_environment_dialog_shows_the_team_policy(
    qtbot: Any, make_window: Any, team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("bob"))
    window = make_window()
    env = window.session.environment
    assert env is not None
    assert env.name == "local-sandbox"
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_environment(admin, env, "above", {"EUR": "1000"})
    dialog = window.environment_menu.open_environments()
    qtbot.addWidget(dialog)
    assert dialog.policy is not None
    qtbot.waitUntil(lambda: "approval above 1000 EUR" in dialog.policy.text(), timeout=5000)
    dialog.policy.tasks.wait()


def test_a_batch_shows_its_totals_and_is_approved_as_a_whole(
    qtbot: Any, pane_for: Any, team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    rows = [
        prepared_payout("https://gw.example", rsa_key, order=order, amount="15.00")
        for order in ("a-1", "a-2")
    ]
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all", base_url="https://gw.example")
    with TeamJournal(team_db.dsn("alice")) as alice:
        sid = Approvals(alice).submit_batch(
            "prod",
            "payout-check",
            "0" * 64,
            {"lines": ["2 payouts from pay.csv", "Total EUR: 30.00 in 2 payouts"]},
            rows,
            card_data=False,
            source="pay.csv",
            target=Target.of(rows[0]),
        )
    pane = pane_for("bob")
    with qtbot.waitSignal(pane.refreshed, timeout=5000):
        pane.reload()
    assert pane.table.item(0, 2).text() == "batch"
    assert pane.table.item(0, 4).text() == "Total EUR: 30.00 in 2 payouts"
    pane.table.selectRow(0)
    pane.approve_button.click()
    qtbot.waitUntil(lambda: "It is a batch" in pane.message.text(), timeout=3000)
    assert pane.message.text().startswith(f"#{sid} approved by bob")


def test_the_queue_shows_the_rejection_a_submission_comes_after(
    qtbot: Any, pane_for: Any, team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all")
    payout = prepared_payout("http://127.0.0.1:9", rsa_key)
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("bob")) as bob:
        first = Approvals(alice).submit("prod", payout).id
        Approvals(bob).reject(first, "wrong month")
        Approvals(alice).submit("prod", payout, after_rejection=True)
    pane = pane_for("carol")
    with qtbot.waitSignal(pane.refreshed, timeout=5000):
        pane.reload()
    column = HEADINGS.index("Rejected before")
    shown = pane.table.item(0, column).text()
    assert shown.startswith(f"#{first} was rejected before by bob at ")
    assert shown.endswith(": wrong month; alice submitted it again")
