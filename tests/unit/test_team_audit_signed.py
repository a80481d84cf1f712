"""The audit trail against its owner, on a real PostgreSQL server: the owner turns the
triggers off, rewrites an entry and recomputes the whole chain and its head with the
database's own ``gateway.audit_hash``, or deletes the newest entries of a payout that went
out. The chain alone cannot show it; the head a console verified before, the journal rows
without their entries and the checkpoints signed with the audit key (whose private half
the database never holds) do, and ``team audit --verify`` exits 17."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from console.cli import main
from console.cli.failures import EXIT_AUDIT_BROKEN, EXIT_OK
from console.core.pipeline import Decision
from console.core.team import Approvals, TeamJournal, connect
from console.core.team.audit.key import public_text, sign
from console.core.team.audit.signing import Checkpoint, sign_new_entries
from console.core.team.audit.verify import verify
from console.core.team.errors import AuditTamperedError
from tests.helpers.http_server import Reply, serve
from tests.helpers.postgres import TeamDatabase
from tests.helpers.team import FORM, accepted, pipeline, prepared_payout, register_policy

psycopg = pytest.importorskip("psycopg")

# The attack of the issue, as the owner in psql: entry 3 changed, then every hash from it
# on recomputed with the database's own function, and the head moved with them.
REWRITE_ENTRY_3 = """
ALTER TABLE gateway.audit DISABLE TRIGGER USER;
UPDATE gateway.audit SET detail = 'nothing happened here' WHERE seq = 3;
DO $$
DECLARE a gateway.audit; prev text;
BEGIN
    SELECT hash INTO prev FROM gateway.audit WHERE seq = 2;
    FOR a IN SELECT * FROM gateway.audit WHERE seq >= 3 ORDER BY seq LOOP
        UPDATE gateway.audit SET prev_hash = prev, hash = gateway.audit_hash(prev, a)
            WHERE id = a.id RETURNING hash INTO prev;
    END LOOP;
    UPDATE gateway.audit_head SET hash = prev;
END $$;
ALTER TABLE gateway.audit ENABLE TRIGGER USER;
"""

DROP_NEWEST_TWO = """
ALTER TABLE gateway.audit DISABLE TRIGGER USER;
DELETE FROM gateway.audit WHERE seq > (SELECT max(seq) - 2 FROM gateway.audit);
UPDATE gateway.audit_head SET (seq, hash) =
    (SELECT seq, hash FROM gateway.audit ORDER BY seq DESC LIMIT 1);
ALTER TABLE gateway.audit ENABLE TRIGGER USER;
"""
_DROP_ROW = """
DELETE FROM gateway.request_details WHERE request_id = {row};
DELETE FROM gateway.requests WHERE id = {row};
"""


@pytest.fixture
def carol(team_db: TeamDatabase, monkeypatch: pytest.MonkeyPatch) -> TeamDatabase:
    """carol's console (a checker) on the team database: ``main`` runs as her."""
    monkeypatch.setenv("GATEWAY_CONSOLE_TEAM_DSN", team_db.dsn("carol"))
    return team_db


def _some_history(db: TeamDatabase, key: rsa.RSAPrivateKey) -> None:
    """A policy, a submission and its approval: a few entries."""
    with TeamJournal(db.dsn("root_admin")) as admin:
        register_policy(admin, "prod", "all", base_url="https://gw.example")
    with TeamJournal(db.dsn("alice")) as alice:
        sid = Approvals(alice).submit("prod", prepared_payout("https://gw.example", key)).id
    with TeamJournal(db.dsn("bob")) as bob:
        Approvals(bob).approve(sid)


def _bob_pays(db: TeamDatabase, key: rsa.RSAPrivateKey, order: str) -> int:
    """A payout that went out: its journal row and two audit entries (send, outcome)."""
    with (
        serve(lambda r: Reply(200, accepted(order, "9001"), FORM)) as server,
        TeamJournal(db.dsn("bob")) as bob,
    ):
        sent = pipeline(bob, "gw", production=False).send(
            prepared_payout(server.url, key, order=order), Decision()
        )
        assert sent.result == "accepted"
        return max(r.id for r in bob.fetch())


def _owner(db: TeamDatabase, sql: str) -> None:
    with connect(db.dsn()) as owner:  # the superuser, who owns the tables
        owner.execute(sql)


def _verify(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["team", "audit", "--verify", *extra])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_a_rewritten_and_rechained_entry_is_found_by_the_console_that_verified_it(
    carol: TeamDatabase, rsa_key: rsa.RSAPrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    _some_history(carol, rsa_key)
    assert _verify(capsys)[0] == EXIT_OK  # carol's console keeps the head it verified
    _owner(carol, REWRITE_ENTRY_3)
    with TeamJournal(carol.dsn("carol")) as journal:
        assert verify(journal).intact  # the chain alone: rewritten from 3 on, it holds
    status, said = _verify(capsys)
    assert status == EXIT_AUDIT_BROKEN
    assert "is broken: it is not the entry" in said
    assert "this console verified before: the chain was rewritten up to here" in said


def test_a_payout_whose_two_entries_were_removed_is_named(
    carol: TeamDatabase, rsa_key: rsa.RSAPrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    _some_history(carol, rsa_key)
    assert _verify(capsys)[0] == EXIT_OK  # a head taken before the payout
    row = _bob_pays(carol, rsa_key, "p-out")
    _owner(carol, DROP_NEWEST_TWO)  # its send and outcome; the chain still holds
    status, said = _verify(capsys)
    assert status == EXIT_AUDIT_BROKEN
    assert f"journal rows {row} were sent but have no audit entry" in said


def test_the_two_newest_entries_removed_are_found_without_expect(
    carol: TeamDatabase, rsa_key: rsa.RSAPrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    _some_history(carol, rsa_key)
    row = _bob_pays(carol, rsa_key, "p-out")
    assert _verify(capsys)[0] == EXIT_OK  # carol's console verified the payout's entries
    # the owner removes them, the journal row with them, and moves the head back
    _owner(carol, DROP_NEWEST_TWO + _DROP_ROW.format(row=row))
    with TeamJournal(carol.dsn("carol")) as journal:
        assert verify(journal).intact  # nothing in the database shows it any more
    status, said = _verify(capsys)  # no --expect
    assert status == EXIT_AUDIT_BROKEN
    assert "this console verified before is missing" in said
    assert "its newest entries were removed" in said


def _create_key(
    db: TeamDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, who: str = "root_admin"
) -> list[str]:
    """The admin makes the audit key in a key file, on a console of their own; the options
    that name the file."""
    monkeypatch.setenv("AUDIT_PASS", "correct horse battery staple")
    options = ["--key-file", str(tmp_path / "audit.pem"), "--passphrase-env", "AUDIT_PASS"]
    with monkeypatch.context() as admins:
        admins.setenv("GATEWAY_CONSOLE_HOME", str(tmp_path / "admin-console"))
        assert main(["team", "audit-key", "create", "--dsn", db.dsn(who), *options]) == EXIT_OK
    return options


def test_the_audit_key_file_is_encrypted_and_readable_by_its_owner_only(
    carol: TeamDatabase,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _create_key(carol, tmp_path, monkeypatch)
    said = capsys.readouterr().out
    assert "The team's audit key is SHA256:" in said
    pem = (tmp_path / "audit.pem").read_bytes()
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert stat.S_IMODE((tmp_path / "audit.pem").stat().st_mode) == 0o600
    with connect(carol.dsn()) as owner:
        assert owner.execute("SELECT count(*) FROM gateway.audit_key").fetchone()[0] == 1


def test_signed_checkpoints_find_a_rewrite_that_no_console_saw(
    carol: TeamDatabase,
    rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _some_history(carol, rsa_key)
    options = _create_key(carol, tmp_path, monkeypatch)
    assert main(["team", "audit-key", "sign", "--dsn", carol.dsn("root_admin"), *options]) == 0
    assert "Signed the audit trail up to entry" in capsys.readouterr().out
    _owner(carol, REWRITE_ENTRY_3)
    # carol's console never checked before: it pins the key now, and the signature holds it
    status, said = _verify(capsys)
    assert status == EXIT_AUDIT_BROKEN
    assert "it is not the entry that was signed: the chain was rewritten" in said
    # and the signer will not sign the rewritten trail
    signing = ["team", "audit-key", "sign", "--dsn", carol.dsn("root_admin"), *options]
    assert main(signing) == EXIT_AUDIT_BROKEN
    assert "Nothing was signed" in capsys.readouterr().err


def test_signed_entries_removed_are_found_by_a_console_that_never_checked(
    carol: TeamDatabase,
    rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    options = _create_key(carol, tmp_path, monkeypatch)
    row = _bob_pays(carol, rsa_key, "p-out")
    assert main(["team", "audit-key", "sign", "--dsn", carol.dsn("root_admin"), *options]) == 0
    _owner(carol, DROP_NEWEST_TWO + _DROP_ROW.format(row=row))
    status, said = _verify(capsys)
    assert status == EXIT_AUDIT_BROKEN
    assert "were signed, but the trail ends at" in said


def test_entries_after_the_last_signature_are_reported_not_yet_signed(
    carol: TeamDatabase,
    rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    options = _create_key(carol, tmp_path, monkeypatch)
    main(["team", "audit-key", "sign", "--dsn", carol.dsn("root_admin"), *options])
    status, said = _verify(capsys)
    assert status == EXIT_OK
    assert "This console pinned the team's audit key SHA256:" in said
    assert "not yet signed" not in said
    _bob_pays(carol, rsa_key, "p-later")
    status, said = _verify(capsys)
    assert status == EXIT_OK
    assert "2 newest entries" in said
    assert "are not yet signed" in said


def test_a_forged_checkpoint_or_a_replaced_audit_key_is_found(
    carol: TeamDatabase,
    rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _create_key(carol, tmp_path, monkeypatch)
    _some_history(carol, rsa_key)
    assert _verify(capsys)[0] == EXIT_OK  # carol pins the team's key
    forger = Ed25519PrivateKey.generate()
    with connect(carol.dsn()) as owner:
        seq, digest = owner.execute("SELECT seq, hash FROM gateway.audit_head").fetchone()
        owner.execute(
            "INSERT INTO gateway.audit_checkpoints (seq, hash, signature) VALUES (%s, %s, %s)",
            (seq, digest, sign(forger, seq, digest)),
        )
    status, said = _verify(capsys)
    assert status == EXIT_AUDIT_BROKEN
    assert f"the signature of entry {seq} does not verify with the audit key" in said
    # the owner puts the forger's key in its place: what it signs now verifies with it
    with connect(carol.dsn()) as owner:
        owner.execute("ALTER TABLE gateway.audit_key DISABLE TRIGGER USER")
        owner.execute("UPDATE gateway.audit_key SET public_key = %s", (public_text(forger),))
    status, said = _verify(capsys)
    assert status == EXIT_AUDIT_BROKEN
    assert "the audit key in the database is SHA256:" in said
    assert "not SHA256:" in said
    assert "the one this console pinned: it was replaced" in said


def test_the_core_signs_only_what_is_new_with_the_teams_key(
    team_db: TeamDatabase,
    rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The loop of the team sender: sign what is new, pass the last checkpoint back."""
    from console.core.team.audit.key import read_key_file

    options = _create_key(team_db, tmp_path, monkeypatch)
    key = read_key_file(Path(options[1]), "correct horse battery staple")
    with TeamJournal(team_db.dsn("root_admin")) as admin:
        first = sign_new_entries(admin, key)
        assert first is not None
        assert sign_new_entries(admin, key, first) is None  # nothing new
        _bob_pays(team_db, rsa_key, "p-1")
        second = sign_new_entries(admin, key, first)
        assert second is not None
        assert second.seq == first.seq + 2
        with pytest.raises(AuditTamperedError, match="signed before is gone"):
            sign_new_entries(admin, key, Checkpoint(second.seq + 5, second.hash))
        with pytest.raises(Exception, match="is not the team's audit key"):
            sign_new_entries(admin, Ed25519PrivateKey.generate())
    with connect(team_db.dsn("alice")) as alice:  # a maker may not sign, nor set the key
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            alice.execute("SELECT gateway.sign_audit(1, 'x', 'y')")
        answer = alice.execute("SELECT gateway.set_audit_key('x', 'y')").fetchone()[0]
        assert answer == "refused: only an admin may set the audit key"


def test_the_keyring_keeps_the_audit_key_and_team_init_pins_it(
    team_db: TeamDatabase,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    admin = team_db.dsn("root_admin")
    assert main(["team", "audit-key", "create", "--dsn", admin]) == EXIT_OK
    assert "this account's OS keyring" in capsys.readouterr().out
    assert main(["team", "audit-key", "sign", "--dsn", admin]) == EXIT_OK
    assert "Signed the audit trail" in capsys.readouterr().out
    monkeypatch.setenv("GATEWAY_CONSOLE_HOME", str(tmp_path / "alice"))  # another console
    assert main(["team", "init", "--dsn", team_db.dsn("alice")]) == EXIT_OK
    assert "Pinned the team's audit key SHA256:" in capsys.readouterr().out


def test_a_member_who_is_not_an_admin_cannot_make_the_audit_key_and_none_stays_behind(
    team_db: TeamDatabase,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("AUDIT_PASS", "a passphrase")
    path = tmp_path / "audit.pem"
    options = ["--key-file", str(path), "--passphrase-env", "AUDIT_PASS"]
    assert main(["team", "audit-key", "create", "--dsn", team_db.dsn("alice"), *options]) == 13
    assert "only an admin may set the audit key" in capsys.readouterr().err
    assert not path.exists()


def test_a_key_file_is_never_written_in_clear_nor_over_another(tmp_path: Path) -> None:
    from console.core.team.audit.key import AuditKeyError, read_key_file, write_key_file

    key, path = Ed25519PrivateKey.generate(), tmp_path / "audit.pem"
    with pytest.raises(AuditKeyError, match="needs a passphrase"):
        write_key_file(path, key, "")
    write_key_file(path, key, "right")
    with pytest.raises(AuditKeyError, match="exists already"):
        write_key_file(path, key, "right")
    with pytest.raises(AuditKeyError, match="wrong passphrase"):
        read_key_file(path, "wrong")
    assert public_text(read_key_file(path, "right")) == public_text(key)
