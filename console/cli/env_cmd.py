"""``gateway-console env list|show|add|edit|remove|use``: named environments.

Exit statuses: 0 done, 1 invalid settings or unknown environment, 2 usage error,
4 a production address change was not confirmed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from console.cli.failures import EXIT_ENV_NOT_CONFIRMED, EXIT_INVALID, EXIT_USAGE
from console.core.environments import (
    CallbackListenerSettings,
    ConfirmationRequiredError,
    Environment,
    EnvironmentStore,
    EnvironmentStoreError,
    EnvKind,
    InvalidEnvironmentError,
)
from console.core.spec import COMMANDS
from console.core.vault import Vault, VaultError

_KINDS = (str(EnvKind.SANDBOX), str(EnvKind.PRODUCTION))


def register(sub: Any) -> None:
    p = sub.add_parser("env", help="list, add, edit or remove named environments")
    actions = p.add_subparsers(dest="env_action", metavar="ACTION", required=True)

    p_list = actions.add_parser("list", help="list environments (* marks the active one)")
    p_list.add_argument("--json", action="store_true", help="machine-readable output")
    p_list.set_defaults(func=run_list)

    p_show = actions.add_parser("show", help="show one environment's settings")
    p_show.add_argument("name")
    p_show.add_argument("--json", action="store_true", help="machine-readable output")
    p_show.set_defaults(func=run_show)

    p_add = actions.add_parser("add", help="add an environment")
    p_add.add_argument("name")
    p_add.add_argument("--kind", choices=_KINDS, required=True)
    _setting_options(p_add)
    p_add.add_argument("--use", action="store_true", help="make it the active environment")
    p_add.set_defaults(func=run_add)

    p_edit = actions.add_parser("edit", help="change settings of an environment")
    p_edit.add_argument("name")
    p_edit.add_argument("--kind", choices=_KINDS)
    p_edit.add_argument("--rename", metavar="NEW_NAME", help="give it a new name")
    _setting_options(p_edit)
    p_edit.add_argument(
        "--yes", action="store_true", help="confirm a new address for a production environment"
    )
    p_edit.set_defaults(func=run_edit)

    p_rm = actions.add_parser("remove", help="remove an environment and its keyring secrets")
    p_rm.add_argument("name")
    p_rm.add_argument(
        "--keep-secrets", action="store_true", help="leave its key and secret in the keyring"
    )
    p_rm.set_defaults(func=run_remove)

    p_use = actions.add_parser("use", help="make an environment the active one")
    p_use.add_argument("name")
    p_use.set_defaults(func=run_use)


def _setting_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--base-url", help="scheme, host and prefix before /api/v4 (https)")
    p.add_argument("--login", help="the login the gateway issued (OAuth consumer key)")
    p.add_argument("--endpoint-id", help="endpoint id ('' removes it)")
    p.add_argument("--endpoint-group-id", help="endpoint group id ('' removes it)")
    p.add_argument(
        "--path",
        action="append",
        default=[],
        metavar="COMMAND:FORM=TEMPLATE",
        help="path template, e.g. payout-check:endpoint=/api/v4/payout-check/{endpoint_id}; "
        "an empty TEMPLATE goes back to the contract's path (repeatable)",
    )
    p.add_argument("--connect-timeout", type=float, metavar="SECONDS")
    p.add_argument("--read-timeout", type=float, metavar="SECONDS")
    p.add_argument("--ca-bundle", metavar="FILE", help="CA bundle for TLS ('' for the system's)")
    p.add_argument("--redirect-placeholder", metavar="URL", help="the 'no redirect' address")
    p.add_argument("--callback-listener", choices=("on", "off"), help="listen for callbacks")
    p.add_argument("--callback-host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--callback-port", type=int, help="port to listen on (default 8080)")


class UsageError(ValueError):
    """A malformed option value (exit status 2)."""


def _templates(base: Environment, items: list[str]) -> dict[str, dict[str, str]]:
    templates = {c: dict(t) for c, t in base.path_templates.items()}
    for item in items:
        target, sep, template = item.partition("=")
        command, colon, form = target.partition(":")
        if not sep or not colon or command not in COMMANDS:
            raise UsageError(
                f"--path {item!r}: write it as COMMAND:FORM=TEMPLATE with COMMAND one of "
                f"{', '.join(sorted(COMMANDS))} and FORM endpoint or group"
            )
        if template:
            templates.setdefault(command, {})[form] = template
        else:
            templates.get(command, {}).pop(form, None)
    return templates


def _apply(base: Environment, args: argparse.Namespace) -> Environment:
    templates = _templates(base, args.path)
    cb = base.callback
    listener = CallbackListenerSettings(
        enabled=cb.enabled if args.callback_listener is None else args.callback_listener == "on",
        host=cb.host if args.callback_host is None else args.callback_host,
        port=cb.port if args.callback_port is None else args.callback_port,
    )
    changes: dict[str, Any] = {"path_templates": templates, "callback": listener}
    for name in (
        "base_url",
        "login",
        "endpoint_id",
        "endpoint_group_id",
        "connect_timeout",
        "read_timeout",
        "ca_bundle",
        "redirect_placeholder",
    ):
        value = getattr(args, name)
        if value is not None:
            changes[name] = value
    if getattr(args, "kind", None):
        changes["kind"] = EnvKind(args.kind)
    if getattr(args, "rename", None):
        changes["name"] = args.rename
    return dataclasses.replace(base, **changes)


def _fail(args: argparse.Namespace, exc: Exception) -> int:
    if isinstance(exc, UsageError):
        print(f"gateway-console env {args.env_action}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if isinstance(exc, InvalidEnvironmentError) and exc.problems:
        for p in exc.problems:
            print(f"gateway-console env {args.env_action}: {p.field}: {p.message}", file=sys.stderr)
    else:
        print(f"gateway-console env {args.env_action}: {exc}", file=sys.stderr)
    return EXIT_INVALID


def _vault() -> Vault | None:
    try:
        return Vault()
    except VaultError:
        return None


def run_list(args: argparse.Namespace) -> int:
    store = EnvironmentStore()
    try:
        envs, active = store.environments(), store.active().name
    except EnvironmentStoreError as exc:
        return _fail(args, exc)
    vault = _vault()

    def key_state(env: Environment) -> str:
        if env.builtin:
            return "demo"
        if vault is None:
            return "?"
        try:
            return "yes" if vault.has_key(env.name) else "no"
        except VaultError:
            return "?"

    if args.json:
        out = [{**e.to_json(), "active": e.name == active, "key": key_state(e)} for e in envs]
        print(json.dumps(out, indent=2))
        return 0
    rows = [("", "NAME", "KIND", "BASE URL", "LOGIN", "ENDPOINT", "GROUP", "KEY")]
    for e in envs:
        rows.append(
            (
                "*" if e.name == active else "",
                e.name,
                str(e.kind),
                e.base_url or "(set when it starts)",
                e.login,
                e.endpoint_id,
                e.endpoint_group_id,
                key_state(e),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    if vault is None:
        print("(KEY '?': no OS keyring is available; see gateway-console keys show)")
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        env = EnvironmentStore().get(args.name)
    except EnvironmentStoreError as exc:
        return _fail(args, exc)
    data = env.to_json()
    data["path_templates"] = {c: env.templates_for(c) for c in sorted(COMMANDS)}
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    _print_tree(data, 0)
    if env.builtin:
        print("(built in: its address and demo merchant are set when the sandbox starts)")
    return 0


def _print_tree(data: dict[str, Any], depth: int) -> None:
    for key, value in data.items():
        if isinstance(value, dict):
            print(f"{'  ' * depth}{key}:")
            _print_tree(value, depth + 1)
        else:
            print(f"{'  ' * depth}{key}: {value}")


def run_add(args: argparse.Namespace) -> int:
    store = EnvironmentStore()
    try:
        env = store.add(_apply(Environment(args.name, EnvKind(args.kind)), args))
        if args.use:
            store.set_active(env.name)
    except (EnvironmentStoreError, UsageError) as exc:
        return _fail(args, exc)
    print(
        f"Added {env.kind} environment {env.name!r}. Add its key with: "
        f"gateway-console keys import FILE --env {env.name}"
    )
    return 0


def run_edit(args: argparse.Namespace) -> int:
    store = EnvironmentStore(vault=_vault())
    try:
        new = _apply(store.get(args.name), args)
        try:
            env = store.update(args.name, new, confirm=args.yes)
        except ConfirmationRequiredError as exc:
            if not _confirm(str(exc), new.name):
                print(
                    f"gateway-console env edit: not changed. {exc} Pass --yes to confirm.",
                    file=sys.stderr,
                )
                return EXIT_ENV_NOT_CONFIRMED
            env = store.update(args.name, new, confirm=True)
    except (EnvironmentStoreError, VaultError, UsageError) as exc:
        return _fail(args, exc)
    print(f"Saved environment {env.name!r}.")
    return 0


def _confirm(question: str, name: str) -> bool:
    """Ask on the terminal; never when input is not a terminal (scripts pass --yes)."""
    if not sys.stdin.isatty():
        return False
    answer = input(f"{question}\nType the environment name ({name}) to confirm: ")
    return answer.strip() == name


def run_remove(args: argparse.Namespace) -> int:
    vault = None if args.keep_secrets else _vault()
    store = EnvironmentStore(vault=vault)
    try:
        store.remove(args.name)
    except (EnvironmentStoreError, VaultError) as exc:
        return _fail(args, exc)
    kept = " Its keyring secrets were kept." if args.keep_secrets or vault is None else ""
    print(f"Removed environment {args.name!r}.{kept}")
    return 0


def run_use(args: argparse.Namespace) -> int:
    try:
        env = EnvironmentStore().set_active(args.name)
    except EnvironmentStoreError as exc:
        return _fail(args, exc)
    print(f"Active environment: {env.name}")
    return 0
