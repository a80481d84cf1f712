"""Reading the request commands' arguments: the connection options (an environment or
explicit ones), the key file and the fields. Problems raise :class:`UsageError` (exit status 2).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console.cli import arg_types
from console.core.errors import InputError
from console.core.gateway_identity import gateway_for
from console.core.input_files import MAX_KEY_FILE, InputFileError, parse_json, read_capped
from console.core.keys import KeyProblem, load_private_key
from console.core.masking import mask_text

if TYPE_CHECKING:
    from console.core.environments import Environment

# A fields file is one request's fields: merchant_data (64k) and the rest fit many times over.
MAX_FIELDS_FILE = 1024 * 1024


class UsageError(InputError):
    """A problem with the command line itself, reported with exit status 2."""


@dataclass(frozen=True, slots=True)
class Connection:
    """Where and as whom this invocation's requests go: from --env, else the options.

    Attributes:
        settings: keyword arguments for ``console.core.prepared.prepare`` (address, login,
            endpoint, key).
        production: the environment is production (real money): a send is confirmed.
        connect_timeout, read_timeout: seconds: the option, else the environment's, else
            10 and 60.
        ca_bundle: the CA bundle file: the option, else the environment's (None: the
            system's).
        templates_of: an environment's path templates of each command (None: the
            contract's paths; ``settings`` holds those of this invocation's command only).
    """

    settings: dict[str, Any]
    production: bool = False
    connect_timeout: float = 10.0
    read_timeout: float = 60.0
    ca_bundle: str | None = None
    templates_of: Callable[[str], dict[str, str]] | None = None

    def gateway(self, command: str) -> str:
        """The identity of the gateway ``command`` goes to with these settings and that
        command's own path templates (a status look-up asks of the profile's command too)."""
        settings = dict(self.settings)
        if self.templates_of is not None:
            settings["path_templates"] = self.templates_of(command)
        return gateway_for(command, **settings)


def add_connection_options(p: argparse.ArgumentParser) -> None:
    """--env, or --base-url, --login, --endpoint-id / --group-id and the key file."""
    g = p.add_argument_group("connection (--env, or the options below; explicit options win)")
    g.add_argument("--env", metavar="NAME", help="a saved environment (see `env list`)")
    g.add_argument(
        "--base-url", type=arg_types.base_url, help="scheme, host and prefix before /api/v4"
    )
    g.add_argument("--login", help="your login (sent as oauth_consumer_key)")
    ids = g.add_mutually_exclusive_group()
    ids.add_argument("--endpoint-id", help="endpoint id (path /<endpoint_id>)")
    ids.add_argument("--group-id", help="endpoint group id (path /group/<id>)")
    g.add_argument("--key-file", type=Path, help="RSA private key PEM (PKCS#1 or PKCS#8)")
    g.add_argument(
        "--key-passphrase-env",
        metavar="VAR",
        help="name of the environment variable holding the key's passphrase",
    )


def add_field_options(p: argparse.ArgumentParser) -> None:
    """--field, --fields-file, --json and --reveal."""
    g = p.add_argument_group("fields")
    g.add_argument(
        "--field", "-f", action="append", default=[], metavar="NAME=VALUE", help="repeatable"
    )
    g.add_argument("--fields-file", type=Path, help="JSON object of name: value")
    g.add_argument("--json", action="store_true", help="machine-readable output")
    g.add_argument("--reveal", action="store_true", help="print card data unmasked")


def read_fields(args: argparse.Namespace) -> dict[str, str]:
    """Fields from --fields-file, then --field (later wins)."""
    values: dict[str, str] = {}
    if args.fields_file is not None:
        where = f"--fields-file {args.fields_file}"
        try:
            text = read_capped(args.fields_file, MAX_FIELDS_FILE).decode("utf-8")
            data = parse_json(text, exact_numbers=True)  # 10.50 stays 10.50, as written
        except OSError as exc:
            raise UsageError(f"{where}: cannot read it ({exc.strerror or exc})") from exc
        except ValueError as exc:  # not UTF-8, not JSON, too large, nested too deeply
            raise UsageError(f"{where}: cannot read it ({exc})") from exc
        if not isinstance(data, dict):
            raise UsageError(f"{where} must hold a JSON object of field name: value")
        for name, value in data.items():
            if isinstance(value, list | dict):
                raise UsageError(f"{where}: {name} must be a string or a number")
            values[str(name)] = "" if value is None else str(value)
    for item in args.field:
        name, sep, value = item.partition("=")
        if not sep or not name:
            # the item may be a card number typed without its name: mask it in the echo
            raise UsageError(f"--field {mask_text(item)!r}: write it as NAME=VALUE")
        values[name] = value
    return values


def connection(
    args: argparse.Namespace, command: str | None = None, env: str | None = None
) -> Connection:
    """Where requests go and how, from --env (its key: --key-file, else the keyring), else
    the options.

    Args:
        command: the command sent (default: the one the command line names).
        env: the saved environment to connect through (default: --env's).
    """
    env = env or args.env
    if env:
        return _env_connection(args, command or args.api_command, env)
    missing = [
        opt
        for opt, val in (
            ("--base-url", args.base_url),
            ("--login", args.login),
            ("--key-file", args.key_file),
        )
        if not val
    ]
    if not (args.endpoint_id or args.group_id):
        missing.append("--endpoint-id or --group-id")
    if missing:
        raise UsageError("missing " + ", ".join(missing))
    settings = {
        "base_url": args.base_url,
        "login": args.login,
        "private_key": load_key(args),
        "endpoint_id": args.endpoint_id,
        "endpoint_group_id": args.group_id,
    }
    return Connection(
        settings,
        connect_timeout=getattr(args, "connect_timeout", None) or 10.0,
        read_timeout=getattr(args, "timeout", None) or 60.0,
        ca_bundle=getattr(args, "ca_bundle", None) or None,
    )


def _env_connection(args: argparse.Namespace, command: str, name: str) -> Connection:
    """Connection from the saved environment ``name`` and its key: --key-file, else the
    keyring."""
    # boundary: the environments file and the keyring, only for --env (sign with --key-file loads
    # neither)
    from console.core.environments import EnvironmentStoreError, connect
    from console.core.secret_store import KeyringUnavailableError, VaultError  # boundary: as above

    key = load_key(args) if args.key_file else None  # an explicit key: no keyring needed
    try:
        conn = connect(name, private_key=key)
    except KeyringUnavailableError as exc:  # the window's "in memory" has no match here
        raise UsageError(
            f"--env {name}: {exc} On the command line, give the private key with "
            f"--key-file PEM instead: --env {name} still gives the address, login and "
            "endpoint, and no keyring is needed."
        ) from exc
    except (EnvironmentStoreError, VaultError) as exc:
        raise UsageError(f"--env {name}: {exc}") from exc
    kwargs = conn.prepare_kwargs(command)
    kwargs.update({k: v for k, v in (("base_url", args.base_url), ("login", args.login)) if v})
    if args.endpoint_id or args.group_id:
        kwargs["endpoint_id"], kwargs["endpoint_group_id"] = args.endpoint_id, args.group_id
    env = conn.environment
    return _environment_connection(args, env, kwargs, templates_of=env.templates_for)


def _environment_connection(
    args: argparse.Namespace,
    env: Environment,
    settings: dict[str, Any],
    templates_of: Callable[[str], dict[str, str]] | None = None,
) -> Connection:
    """``settings`` with ``env``'s production flag, timeouts and CA bundle, the command
    line's --connect-timeout, --timeout and --ca-bundle first."""
    from console.core.environments import EnvKind  # boundary: as its callers' imports

    return Connection(
        settings,
        production=env.kind is EnvKind.PRODUCTION,
        connect_timeout=getattr(args, "connect_timeout", None) or env.connect_timeout,
        read_timeout=getattr(args, "timeout", None) or env.read_timeout,
        ca_bundle=getattr(args, "ca_bundle", None) or env.ca_bundle or None,
        templates_of=templates_of,
    )


def sender_connection(args: argparse.Namespace, journal: Any) -> Connection:
    """Where and as whom: where the team sender serves --env, it signs (this profile needs
    no key for it: requests are prepared with a throwaway key that never leaves the
    process); else :func:`connection`."""
    if journal.shared and args.env:  # boundary: team mode only (psycopg)
        from console.core.team.approvals.via_sender import placeholder_key, serving

        if serving(journal, args.env) is not None:
            return keyless_connection(args, placeholder_key())
    return connection(args)


def keyless_connection(args: argparse.Namespace, private_key: Any) -> Connection:
    """--env's address, login and endpoint signed with ``private_key`` (the team sender's
    environments: the key is the sender's, never read here)."""
    # boundary: the environments file, only for --env
    from console.core.environments import EnvironmentStore, EnvironmentStoreError

    try:
        env = EnvironmentStore().get(args.env)
    except EnvironmentStoreError as exc:
        raise UsageError(f"--env {args.env}: {exc}") from exc
    settings = address_settings(args, args.api_command)
    settings["private_key"] = private_key
    return _environment_connection(args, env, settings)


def gateway_of(args: argparse.Namespace, command: str) -> str | None:
    """The identity of the gateway ``command`` reaches with --env and the connection options
    (the double-payout guard's key), without reading any key; None when neither names one
    (a results file's environment of connection options)."""
    if not args.env and not args.base_url:
        return None
    settings = address_settings(args, command)
    try:
        return gateway_for(command, **settings)
    except (KeyError, ValueError, TypeError) as exc:
        raise UsageError(f"the gateway's address cannot be made: {exc}") from exc


def address_settings(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """Base URL, login, endpoint or group id and path templates of ``command`` from --env
    and the connection options (explicit options win), without reading any key."""
    settings: dict[str, Any] = {}
    if args.env:
        # boundary: the environments file, only for --env
        from console.core.environments import EnvironmentStore, EnvironmentStoreError

        try:
            env = EnvironmentStore().get(args.env)
        except EnvironmentStoreError as exc:
            raise UsageError(f"--env {args.env}: {exc}") from exc
        settings = {
            "base_url": env.base_url,
            "login": env.login,
            "endpoint_id": env.endpoint_id or None,
            "endpoint_group_id": env.endpoint_group_id or None,
            "path_templates": env.templates_for(command),
        }
    settings.update({k: v for k, v in (("base_url", args.base_url), ("login", args.login)) if v})
    if args.endpoint_id or args.group_id or not args.env:
        settings["endpoint_id"], settings["endpoint_group_id"] = args.endpoint_id, args.group_id
    return settings


def load_key(args: argparse.Namespace) -> Any:
    """The private key of --key-file (passphrase from --key-passphrase-env); warns on stderr."""
    passphrase = None
    if args.key_passphrase_env:
        passphrase = os.environ.get(args.key_passphrase_env)
        if passphrase is None:
            raise UsageError(f"environment variable {args.key_passphrase_env} is not set")
    try:
        pem = read_capped(args.key_file, MAX_KEY_FILE)
    except OSError as exc:
        raise UsageError(f"--key-file {args.key_file}: {exc.strerror}") from exc
    except InputFileError as exc:  # /dev/zero, or not a key at all
        raise UsageError(f"--key-file {args.key_file}: {exc}: a key PEM is a few KiB") from exc
    try:
        loaded = load_private_key(pem, passphrase)
    except KeyProblem as exc:
        hint = ""
        if exc.kind == "passphrase-needed" and not args.key_passphrase_env:
            hint = " Put the passphrase in an environment variable and name it with "
            hint += "--key-passphrase-env VAR."
        raise UsageError(f"--key-file {args.key_file}: {exc}{hint}") from exc
    for warning in loaded.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return loaded.private_key
