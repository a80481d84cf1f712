"""``gateway-console keys import|generate|export-public|show|delete|control-secret --env NAME``.

Keys live in the OS keyring only. Passphrases and secrets are never command-line arguments
(they would show in the process list and shell history): they come from an environment
variable or a prompt on the terminal.

Exit statuses: 0 done, 1 bad key, unknown environment or nothing to do, 2 usage error,
3 no OS keyring (the message says what to install).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from pathlib import Path
from typing import Any

from console.cli.failures import EXIT_FAILED, EXIT_NO_KEYRING
from console.core.environments import EnvironmentStore, EnvironmentStoreError
from console.core.errors import ConsoleError
from console.core.input_files import MAX_KEY_FILE, InputFileError, read_capped, read_stream_capped
from console.core.keys import KeyProblem
from console.core.vault import (
    KEY_SIZES,
    KeyInfo,
    KeyringUnavailableError,
    Vault,
    VaultError,
)

PASSPHRASE_ENV = "GATEWAY_CONSOLE_KEY_PASSPHRASE"  # noqa: S105 (a variable name, not a secret)
CONTROL_ENV = "GATEWAY_CONSOLE_MERCHANT_CONTROL"


def register(sub: Any) -> None:
    p = sub.add_parser("keys", help="private keys and control secrets in the OS keyring")
    actions = p.add_subparsers(dest="keys_action", metavar="ACTION", required=True)

    def action(name: str, help: str) -> argparse.ArgumentParser:
        # no abbreviations: "--secret VALUE" must not pass as "--secret-env" and echo the secret
        a: argparse.ArgumentParser = actions.add_parser(name, help=help, allow_abbrev=False)
        a.add_argument("--env", required=True, metavar="NAME", help="the environment")
        return a

    a = action("import", "import a PEM private key (PKCS#1, PKCS#8, encrypted or not)")
    a.add_argument("file", type=Path, help="the PEM file ('-' reads standard input)")
    a.add_argument(
        "--passphrase-env",
        metavar="VAR",
        default=PASSPHRASE_ENV,
        help=f"variable holding the file's passphrase (default {PASSPHRASE_ENV}); "
        "asked on the terminal when unset",
    )
    a.add_argument("--replace", action="store_true", help="replace the key already stored")
    a.set_defaults(func=_guard(run_import))

    a = action("generate", "generate a new key and print its public key")
    a.add_argument("--bits", type=int, choices=KEY_SIZES, default=2048)
    a.add_argument("--replace", action="store_true", help="replace the key already stored")
    a.add_argument("--public-out", type=Path, metavar="FILE", help="also write the public key")
    a.set_defaults(func=_guard(run_generate))

    a = action("export-public", "print (or write) the public key PEM to hand to the gateway")
    a.add_argument("--out", type=Path, metavar="FILE")
    a.set_defaults(func=_guard(run_export))

    a = action("show", "show key size, fingerprint and whether a control secret is set")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(func=_guard(run_show))

    a = action("delete", "delete the stored private key")
    a.add_argument("--yes", action="store_true", help="do not ask")
    a.set_defaults(func=_guard(run_delete))

    a = action("control-secret", "set (or --clear) the merchant control secret for callbacks")
    a.add_argument(
        "--secret-env",
        metavar="VAR",
        default=CONTROL_ENV,
        help=f"variable holding the secret (default {CONTROL_ENV}); asked when unset",
    )
    a.add_argument("--clear", action="store_true", help="forget the secret")
    a.set_defaults(func=_guard(run_control))


class _FailedError(Exception):
    """A failure already explained in its message (exit status 1)."""


def _guard(func: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        where = f"gateway-console keys {args.keys_action}"
        try:
            env = EnvironmentStore().get(args.env)
            if env.builtin:
                raise _FailedError("the local sandbox uses its demo key; it keeps no key here.")
            if args.keys_action == "show" and (sender := _team_sender(args.env)) is not None:
                return _held_by_sender(args, sender)
            return int(func(args, Vault()))
        except KeyringUnavailableError as exc:
            print(f"{where}: {exc}", file=sys.stderr)
            print(
                "The command line keeps nothing between runs without a keyring: meanwhile "
                "sign and send with --key-file FILE.",
                file=sys.stderr,
            )
            return EXIT_NO_KEYRING
        except (EnvironmentStoreError, VaultError, KeyProblem, _FailedError, OSError) as exc:
            print(f"{where}: {exc}", file=sys.stderr)
            return EXIT_FAILED

    return run


def _team_sender(environment: str) -> str | None:
    """The login of the team sender serving ``environment`` (None: not in team mode, the
    team database cannot be reached, or no sender serves it)."""
    from console.core.team.storage.dsn import configured_dsn  # boundary: team mode only

    dsn = configured_dsn()
    if not dsn:
        return None
    # boundary: team mode only (the team database's modules)
    from console.core.team.approvals.via_sender import serving
    from console.core.team.storage.journal import TeamJournal  # boundary: team mode only (psycopg)

    try:
        with TeamJournal(dsn) as journal:
            return serving(journal, environment)
    except ConsoleError:
        return None


def _held_by_sender(args: argparse.Namespace, sender: str) -> int:
    """``keys show`` of an environment the team sender serves: its key is the sender's."""
    where = (
        f"the team sender ({sender}) holds the key of {args.env} on the team's machine; "
        "this profile needs none (sends go through the sender)"
    )
    if args.json:
        data = {"environment": args.env, "key": None, "held_by": f"team sender {sender}"}
        print(json.dumps(data, indent=2))
    else:
        print(f"Environment {args.env!r}: {where}.")
    return 0


def _secret(variable: str, prompt: str) -> str | None:
    """From the environment variable, else asked on the terminal; None when neither."""
    value = os.environ.get(variable)
    if value is not None:
        return value
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return None


def _print_info(info: KeyInfo) -> None:
    print(f"environment: {info.environment}")
    print(f"key size:    {info.bits} bits")
    print(f"fingerprint: {info.fingerprint} (SHA-256 of the public key)")
    print(f"stored in:   {info.stored_in}")
    for warning in info.warnings:
        print(f"warning:     {warning}")


def run_import(args: argparse.Namespace, vault: Vault) -> int:
    try:  # /dev/zero, or a file that is no key: refused at the cap, not read on and on
        if str(args.file) == "-":
            pem = read_stream_capped(sys.stdin.buffer, MAX_KEY_FILE)
        else:
            pem = read_capped(args.file, MAX_KEY_FILE)
    except InputFileError as exc:
        raise _FailedError(f"{args.file}: {exc}: a key PEM is a few KiB") from exc
    try:
        info = vault.import_key(args.env, pem, replace=args.replace)
    except KeyProblem as exc:
        if exc.kind not in ("passphrase-needed", "wrong-passphrase"):
            raise
        passphrase = _secret(args.passphrase_env, "Passphrase of the key file: ")
        if passphrase is None:
            raise _FailedError(
                f"{exc} Put the passphrase in ${args.passphrase_env} or run this in a terminal."
            ) from exc
        info = vault.import_key(args.env, pem, passphrase, replace=args.replace)
    _print_info(info)
    return 0


def run_generate(args: argparse.Namespace, vault: Vault) -> int:
    info = vault.generate_key(args.env, args.bits, replace=args.replace)
    _print_info(info)
    if args.public_out:
        args.public_out.write_text(info.public_pem, encoding="ascii")
        print(f"Public key written to {args.public_out}: hand it to the gateway.")
    else:
        print("\nPublic key to hand to the gateway:\n" + info.public_pem, end="")
    return 0


def run_export(args: argparse.Namespace, vault: Vault) -> int:
    pem = vault.public_key_pem(args.env)
    if args.out:
        args.out.write_text(pem, encoding="ascii")
        print(f"Public key of {args.env!r} written to {args.out}.")
    else:
        print(pem, end="")
    return 0


def run_show(args: argparse.Namespace, vault: Vault) -> int:
    info = vault.key_info(args.env)
    control = vault.merchant_control(args.env) is not None
    if args.json:
        data: dict[str, Any] = {"environment": args.env, "key": None, "control_secret": control}
        if info:
            data["key"] = {
                "bits": info.bits,
                "fingerprint": info.fingerprint,
                "public_pem": info.public_pem,
                "stored_in": info.stored_in,
            }
        print(json.dumps(data, indent=2))
        return 0
    if info is None:
        print(
            f"Environment {args.env!r} has no key. Add one with: "
            f"gateway-console keys import FILE --env {args.env}"
        )
    else:
        _print_info(info)
    print(f"merchant control secret: {'set' if control else 'not set'}")
    return 0 if info else EXIT_FAILED


def run_delete(args: argparse.Namespace, vault: Vault) -> int:
    info = vault.key_info(args.env)
    if info is None:
        raise _FailedError(f"environment {args.env!r} has no key to delete.")
    if not args.yes:
        if not sys.stdin.isatty():
            raise _FailedError("deleting a key cannot be undone: pass --yes to confirm.")
        answer = input(f"Delete the key {info.fingerprint} of {args.env!r}? Type yes: ")
        if answer.strip().lower() != "yes":
            raise _FailedError("not deleted.")
    vault.delete_key(args.env)
    print(f"Deleted the key of {args.env!r}.")
    return 0


def run_control(args: argparse.Namespace, vault: Vault) -> int:
    if args.clear:
        done = vault.delete_merchant_control(args.env)
        print("Merchant control secret forgotten." if done else "No secret was set.")
        return 0
    secret = _secret(args.secret_env, "Merchant control secret: ")
    if not secret:
        raise _FailedError(f"no secret given: put it in ${args.secret_env} or run in a terminal.")
    vault.set_merchant_control(args.env, secret)
    print(f"Merchant control secret of {args.env!r} kept in the keyring.")
    return 0
