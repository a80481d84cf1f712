"""The team journal's number of requests: read, never counted, and exact whoever writes.

The history pane asks for it each time it opens; counting a million rows scans the table
(about 150 ms), so the database keeps the number (schema 5) and the journal reads it.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.team import TeamJournal, connect, initialise
from console.core.team.storage import schema as team_schema
from tests.helpers.history_data import answered, env_base_url, prepared
from tests.helpers.postgres import Cluster, TeamDatabase
from tests.helpers.team import register_policy

_BULK = """
INSERT INTO gateway.requests (created, environment, command, url, client_orderid, outcome,
    made_by, writer_backend)
SELECT extract(epoch FROM now()) + n, 'acme-sb', 'payout-check', 'https://gw.example/x',
    %s || n, 'accepted', 'alice', 0
FROM generate_series(1, %s) AS n
"""


def _registered(team_db: TeamDatabase) -> None:
    """The team's gateway acme-sb (no approval), where these tests send."""
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        register_policy(
            admin,
            "acme-sb",
            "none",
            base_url=env_base_url("acme-sb"),
            login="acme",
            endpoint_id="1234",
        )


def _send(journal: TeamJournal, key: rsa.RSAPrivateKey, order: str) -> None:
    hooks = journal.journal("acme-sb")
    req = prepared(key, "payout-check", base_url=env_base_url("acme-sb"), client_orderid=order)
    hooks.after_answer(hooks.before_send(req), answered(req, "type=async-response"))


def _scanned(db: Any) -> int:
    found = db.execute(
        "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_xact_user_tables"
        " WHERE relid = 'gateway.requests'::regclass"
    ).fetchone()
    return int(found[0]) if found else 0


def _truth(team_db: TeamDatabase) -> int:
    with connect(team_db.dsn()) as owner:
        return int(owner.execute("SELECT count(*) FROM gateway.requests").fetchone()[0])


def test_counting_every_row_reads_none_of_them(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _registered(team_db)
    with TeamJournal(team_db.dsn("alice")) as journal:
        for n in range(3):
            _send(journal, rsa_key, f"po-{n}")
        with journal.writing() as db:  # one transaction: its statistics are this count's
            before = _scanned(db)
            assert journal.count() == 3
            assert _scanned(db) == before


def test_the_number_stays_exact_whoever_writes_and_however(
    team_db: TeamDatabase, rsa_key: rsa.RSAPrivateKey
) -> None:
    _registered(team_db)
    with TeamJournal(team_db.dsn("alice")) as alice, TeamJournal(team_db.dsn("dave")) as dave:

        def five(journal: TeamJournal, prefix: str) -> None:
            for n in range(5):
                _send(journal, rsa_key, f"{prefix}-{n}")

        senders = [threading.Thread(target=five, args=a) for a in ((alice, "a"), (dave, "d"))]
        for t in senders:
            t.start()
        for t in senders:
            t.join()
        assert alice.count() == dave.count() == _truth(team_db) == 10
        with connect(team_db.dsn()) as owner:
            owner.execute("SET session_replication_role = replica")  # a bulk load, no triggers
            owner.execute(_BULK, ("bulk-", 500))
            owner.execute("DELETE FROM gateway.requests WHERE client_orderid LIKE 'bulk-1%%'")
        assert alice.count() == _truth(team_db) == 10 + 500 - 111


def test_a_database_upgraded_with_rows_in_it_counts_them(
    pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"team_upgrade_{int(time.time() * 1000)}"
    with connect(pg_cluster.dsn()) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    dsn = pg_cluster.dsn("postgres", name)
    with monkeypatch.context() as old:
        old.setattr(team_schema, "MIGRATIONS", team_schema.MIGRATIONS[:4])
        old.setattr(team_schema, "SCHEMA_VERSION", 4)
        with connect(dsn) as conn:
            initialise(conn)
            conn.execute(_BULK, ("old-", 42))
    with connect(dsn) as conn:
        assert initialise(conn) == (4, team_schema.SCHEMA_VERSION)
    with TeamJournal(dsn) as journal:
        assert journal.count() == 42
