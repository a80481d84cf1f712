"""``team sender``: run the team sender (:mod:`console.sender.service`) on a machine of the
team's, as a ``gateway_sender`` login. It alone holds the keys of the environments it serves
(``--env NAME``, repeatable: each environment's key from this account's keyring, or
``--key-file`` for a single environment, a file only this account can read) and sends what
makers submit to it, until SIGTERM or Ctrl+C (the send on its way finishes first). It
receives the gateway's callbacks itself (:mod:`console.sender.callbacks`) for each
environment whose callback listener is on, or at ``--callback-listen HOST:PORT``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console.cli import arg_types
from console.cli.arg_types import listen_address
from console.cli.failures import EXIT_OK
from console.cli.keys_cmd import CONTROL_ENV
from console.cli.request_args import UsageError
from console.cli.team_audit_cmd import PASSPHRASE_ENV
from console.core.gateway_identity import gateway_for
from console.core.secret_store import KeyringStore, VaultError
from console.core.team.audit.key import AuditKeyError, from_keyring, read_key_file
from console.core.team.audit.state import database_of

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from console.core.batch import TransportPool
    from console.core.environments import Connection
    from console.core.team.storage.journal import TeamJournal
    from console.core.transport import Timeouts
    from console.sender.service import Route


def add_options(q: argparse.ArgumentParser) -> None:
    q.add_argument(
        "--env",
        action="append",
        required=True,
        metavar="NAME",
        help="an environment this sender serves (repeatable); its key: this account's keyring",
    )
    q.add_argument(
        "--key-file",
        type=Path,
        help="the private key of the one --env, from a file only this account can read (0600)",
    )
    q.add_argument(
        "--seal-key-file",
        type=Path,
        help="the key card data is sealed to (a file only this account can read; default: "
        "this account's keyring, made at the first start)",
    )
    q.add_argument(
        "--audit-key-file",
        type=Path,
        help="the team's audit key, to sign the audit trail (a file from `team audit-key "
        "create --key-file`); default: this account's keyring, if it holds one",
    )
    q.add_argument(
        "--audit-passphrase-env",
        default=PASSPHRASE_ENV,
        metavar="NAME",
        help=f"variable holding the audit key file's passphrase (default {PASSPHRASE_ENV})",
    )
    q.add_argument(
        "--callback-listen",
        type=listen_address,
        metavar="HOST:PORT",
        help="listen for the one --env's callbacks there (default: each environment's saved "
        "callback listener, `env edit NAME --callback-listener on --callback-host HOST "
        "--callback-port PORT`)",
    )
    q.add_argument(
        "--control-secret-env",
        default=CONTROL_ENV,
        metavar="NAME",
        help="variable holding the one --env's merchant control secret, to check callbacks "
        f"(default {CONTROL_ENV}; unset: this account's keyring, `keys control-secret`)",
    )
    q.add_argument(
        "--concurrency",
        type=_concurrency,
        default=1,
        metavar="N",
        help="submissions in flight at once, as batch run's --concurrency (default 1)",
    )
    q.add_argument("--poll", type=float, default=1.0, help=argparse.SUPPRESS)


def _concurrency(text: str) -> int:
    # boundary: the batch package loads only when the option is given (every team command
    # builds this parser): its limit is batch run's
    from console.core.batch.limits import MAX_CONCURRENCY

    return arg_types.whole(1, MAX_CONCURRENCY)(text)


def say(line: str) -> None:
    # one write a line: the sending threads' lines never run into each other
    sys.stderr.write(f"team sender: {line}\n")
    sys.stderr.flush()


def run_sender(args: argparse.Namespace, dsn: str) -> int:
    # boundary: the sender's half (its service, the pipeline, requests) loads for `team sender`
    # only, not with the team commands that register its options
    from console.core.team.storage.journal import TeamJournal
    from console.sender.service import Sender, leadership  # boundary: as above

    if args.key_file is not None and len(args.env) != 1:
        raise UsageError("--key-file is the key of one environment: give one --env with it")
    if args.callback_listen is not None and len(args.env) != 1:
        raise UsageError("--callback-listen is the listener of one environment: give one --env")
    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.set())
    seal_key = _seal_key(args.seal_key_file)
    found = _connections(args)
    with leadership(dsn, say, stop) as leading:
        if leading:
            with (
                # a connection for each sending thread, and one for this one's upkeep
                TeamJournal(dsn, connections=args.concurrency + 1) as journal,
                _transports() as transports,
                _callbacks(args, found, journal),
            ):
                audit_key = _audit_key(args, dsn)
                sender = Sender(
                    journal,
                    _routes(found, journal, transports),
                    seal_key,
                    say=say,
                    audit_key=audit_key,
                    concurrency=args.concurrency,
                )
                sender.start()
                served = ", ".join(sorted(args.env))
                say(f"serves {served} as {journal.user}; waiting for submissions.")
                sender.run(stop, args.poll)
    say("stopped.")
    return EXIT_OK


def _connections(args: argparse.Namespace) -> dict[str, Connection]:
    """Each --env's saved settings and key (and the keyring's control secret, if any)."""
    # boundary: as in run_sender
    from console.core.environments import EnvironmentStoreError, connect
    from console.core.team.storage.sealing import private_key_file  # boundary: as in run_sender

    key = private_key_file(args.key_file) if args.key_file is not None else None
    found: dict[str, Connection] = {}
    for name in args.env:
        try:
            found[name] = connect(name, private_key=key)
        except (EnvironmentStoreError, VaultError) as exc:
            raise UsageError(f"--env {name}: {exc}") from exc
    return found


@contextmanager
def _callbacks(
    args: argparse.Namespace, found: dict[str, Connection], journal: TeamJournal
) -> Iterator[None]:
    """The sender's callback listeners while the body runs (none when no --env listens):
    each callback in the sender's own journal, in the team journal the statuses the
    database verified."""
    # the HTTP server and the local journal load only where the sender listens
    from console.core.callbacks import CallbackListenerError
    from console.core.history import History  # boundary: as above
    from console.sender.callbacks import SenderCallbacks, listening  # boundary: as above

    where = args.callback_listen
    plans = [
        plan
        for conn in found.values()
        if (plan := listening(conn.environment, conn.merchant_control, where))
    ]
    if not plans:
        yield
        return
    variable = os.environ.get(args.control_secret_env)
    if variable and len(found) != 1:
        raise UsageError(
            f"${args.control_secret_env} holds the control secret of one environment: serve "
            "one --env, or keep each one's secret in this account's keyring"
        )
    if variable:
        plans = [dataclasses.replace(plans[0], secret=variable)]
    with History() as history, SenderCallbacks(history, journal, say=say) as callbacks:
        try:
            callbacks.start(plans)
        except CallbackListenerError as exc:
            raise UsageError(f"callbacks: {exc}") from exc
        yield


@contextmanager
def _transports() -> Iterator[Callable[[Timeouts, str | None], TransportPool]]:
    """Makes each environment's transports: a kept-alive connection per sending thread (as
    ``batch run``'s), all closed when the sender stops."""
    from console.core.batch import TransportPool  # boundary: as in run_sender
    from console.core.transport import Transport  # boundary: as in run_sender

    pools: list[TransportPool] = []

    def pool(timeouts: Timeouts, ca: str | None) -> TransportPool:
        pools.append(TransportPool(lambda: Transport(timeouts=timeouts, verify=ca or True)))
        return pools[-1]

    try:
        yield pool
    finally:
        for made in pools:
            made.close()


def _routes(
    found: dict[str, Connection],
    journal: TeamJournal,
    transports: Callable[[Timeouts, str | None], TransportPool],
) -> dict[str, Route]:
    from console.core.environments import EnvKind  # boundary: as in run_sender
    from console.core.pipeline import Pipeline  # boundary: as in run_sender
    from console.core.transport import Timeouts  # boundary: as in run_sender
    from console.sender.service import Route  # boundary: as in run_sender

    routes: dict[str, Route] = {}
    for name, conn in found.items():
        env = conn.environment
        timeouts = Timeouts(connect=env.connect_timeout, read=env.read_timeout)

        def gateway(command: str, c: Any = conn) -> str | None:
            return gateway_for(command, **c.prepare_kwargs(command))

        pipeline = Pipeline(
            name,
            gateway=gateway,
            production=env.kind is EnvKind.PRODUCTION,
            journal=journal,
            transport=transports(timeouts, env.ca_bundle or None),
            close_transport=False,  # kept alive, closed when the sender stops
            connect_timeout=env.connect_timeout,
            read_timeout=env.read_timeout,
        )
        routes[name] = Route(pipeline, conn.prepare_kwargs)
    return routes


def _seal_key(path: Path | None) -> rsa.RSAPrivateKey:
    """The key card data is sealed to: a file only this account reads, else the keyring's
    (made at the first start)."""
    # boundary: the sealing key and the keyring's vault, for `team sender` only
    from console.core.team.storage.sealing import SEAL_KEY_SLOT, private_key_file
    from console.core.vault import Vault  # boundary: as above

    if path is not None:
        return private_key_file(path)
    try:
        vault = Vault()
        if not vault.has_key(SEAL_KEY_SLOT):
            vault.generate_key(SEAL_KEY_SLOT, 3072)
            say("made the key card data is sealed to, in this account's keyring.")
        return vault.private_key(SEAL_KEY_SLOT)
    except VaultError as exc:
        raise UsageError(
            f"the sealing key: {exc} Give one with --seal-key-file PEM (chmod 600)."
        ) from exc


def _audit_key(args: argparse.Namespace, dsn: str) -> Ed25519PrivateKey | None:
    """The team's audit key: --audit-key-file, else this account's keyring; None (said)
    when neither holds it: the sender then sends, and the trail waits to be signed."""
    database = database_of(dsn)
    try:
        if args.audit_key_file is not None:
            passphrase = os.environ.get(args.audit_passphrase_env)
            return read_key_file(args.audit_key_file, passphrase)
        return from_keyring(KeyringStore(), database)
    except AuditKeyError as exc:
        if args.audit_key_file is not None:
            raise UsageError(f"--audit-key-file: {exc}") from exc
        say(f"signs no audit entries: {exc}")
        return None
    except VaultError as exc:  # no usable keyring on this account
        say(f"signs no audit entries: the keyring cannot be read ({exc}); give --audit-key-file")
        return None
