"""``team audit --verify`` and ``team audit-key``: checking the audit trail, and the key that
signs it.

``team audit-key create`` (an admin) makes the team's audit key: its private half in this
account's OS keyring (or, with ``--key-file``, a new file encrypted with a passphrase), its
public half in the team database, pinned here. ``team audit-key sign`` signs what is new in
the trail once (the team sender does it in its loop). The rules are the core's
(:mod:`console.core.team.audit.verify`, :mod:`console.core.team.audit.signing`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import getpass
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from console.cli.failures import EXIT_AUDIT_BROKEN, EXIT_OK
from console.cli.request_args import UsageError
from console.core.secret_store import KeyringStore
from console.core.team.audit.key import (
    drop_from_keyring,
    from_keyring,
    generate,
    public_text,
    read_key_file,
    store_in_keyring,
    write_key_file,
)
from console.core.team.audit.state import AuditState, Kept, database_of

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

PASSPHRASE_ENV = "GATEWAY_CONSOLE_AUDIT_KEY_PASSPHRASE"  # noqa: S105 (a variable's name)


def add_key_options(q: argparse.ArgumentParser) -> None:
    """The options of ``team audit-key``."""
    q.add_argument("step", choices=("create", "sign"), help="create the key, or sign now")
    q.add_argument(
        "--key-file",
        type=Path,
        help="the audit key in a file encrypted with a passphrase (create: a new file, "
        "readable by you only); default: this account's OS keyring",
    )
    q.add_argument(
        "--passphrase-env",
        default=PASSPHRASE_ENV,
        metavar="NAME",
        help=f"variable holding the key file's passphrase (default {PASSPHRASE_ENV}); "
        "asked on a terminal otherwise",
    )


def run_audit_key(args: argparse.Namespace, dsn: str) -> int:
    """``team audit-key create|sign``."""

    database = database_of(dsn)
    if args.step == "create":
        return _create(args, dsn, database)
    return _sign(args, dsn, _key(args, database))


def _create(args: argparse.Namespace, dsn: str, database: str) -> int:
    # boundary: the team journal (client, SQLite, psycopg) loads for the command that uses it, not
    # for `team --help`
    from console.core.team.audit.signing import publish_key
    from console.core.team.storage.journal import TeamJournal  # boundary: as above

    key = generate()
    if args.key_file:
        write_key_file(args.key_file, key, _passphrase(args, confirm=True))
        kept_in = f"{args.key_file} (encrypted with its passphrase; readable by you only)"
    else:
        store = KeyringStore()
        store_in_keyring(store, database, key)
        kept_in = f"this account's {store.description}"
    try:
        with TeamJournal(dsn) as journal:
            shown = publish_key(journal, key)
    except BaseException:
        # the database did not take it: a key nobody can use must not stay behind
        if args.key_file:
            with contextlib.suppress(OSError):
                args.key_file.unlink()
        else:
            drop_from_keyring(KeyringStore(), database)
        raise
    state = AuditState.for_dsn(dsn)
    state.keep(Kept(public_text(key), state.kept().head))
    print(f"The team's audit key is {shown}; this console pinned it.")
    print(
        "Publish this fingerprint to the team (each console pins the key at `team init` or "
        "its first `team audit --verify`, and should show the same)."
    )
    print(
        f"Its private half is in {kept_in}: it belongs to the team sender, which signs the "
        "trail (`team audit-key sign` signs it now)."
    )
    return EXIT_OK


def _sign(args: argparse.Namespace, dsn: str, key: Ed25519PrivateKey) -> int:
    # boundary: the team journal (client, SQLite, psycopg) loads for the command that uses it, not
    # for `team --help`
    from console.core.team.audit.signing import sign_new_entries
    from console.core.team.storage.journal import TeamJournal  # boundary: as above

    with TeamJournal(dsn) as journal:
        checkpoint = sign_new_entries(journal, key)
    if checkpoint is None:
        print("Nothing new to sign: the newest entry is signed already.")
    else:
        print(f"Signed the audit trail up to entry {checkpoint.seq} ({checkpoint.head}).")
    return EXIT_OK


def _key(args: argparse.Namespace, database: str) -> Ed25519PrivateKey:
    if args.key_file:
        return read_key_file(args.key_file, _passphrase(args))
    return from_keyring(KeyringStore(), database)


def _passphrase(args: argparse.Namespace, *, confirm: bool = False) -> str:
    value = os.environ.get(args.passphrase_env)
    if value is not None:
        return value
    if not sys.stdin.isatty():
        raise UsageError(
            f"--key-file: put the key file's passphrase in ${args.passphrase_env} or run this "
            "in a terminal"
        )
    value = getpass.getpass("Passphrase of the audit key file: ")
    if confirm and getpass.getpass("The same passphrase again: ") != value:
        raise UsageError("the two passphrases differ: nothing was created")
    return value


def run_verify(args: argparse.Namespace, dsn: str) -> int:
    """``team audit --verify``: check the trail here; exit 17 at the first problem."""
    # boundary: the team journal (client, SQLite, psycopg) loads for the command that uses it, not
    # for `team --help`
    from console.core.team.audit.verify import verify
    from console.core.team.storage.journal import TeamJournal  # boundary: as above

    with TeamJournal(dsn) as journal:
        check = verify(journal, args.expect, AuditState.for_dsn(dsn))
    if args.json:
        shown = dataclasses.asdict(check) | {"intact": check.intact, "unsigned": check.unsigned}
        print(json.dumps(shown, indent=2))
    if not check.intact:
        print(
            f"gateway-console team audit: the audit trail was tampered with: {check.problem}. "
            f"The {check.entries} entries before it are intact (the last of them: "
            f"{check.head or 'none'}).",
            file=sys.stderr,
        )
        return EXIT_AUDIT_BROKEN
    if not args.json:
        signed = (
            f" {check.signed} of them are signed with the audit key {check.key}."
            if check.key
            else ""
        )
        print(
            f"The audit trail is intact: {check.entries} entries, each chained to the one "
            f"before it, every journal row with its audit entry.{signed} Its head is "
            f"{check.head}: this console keeps it and checks that the trail still extends it; "
            "keep it elsewhere too and check later with --verify --expect HEAD."
        )
        for note in check.notes:
            print(note)
    return EXIT_OK
