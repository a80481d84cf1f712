"""``team gateway`` and ``team policy``: the team's gateways, registered in the team database
by an admin, and the approval policy of each (the front of
:mod:`console.core.team.storage.gateways`; the database keeps and enforces both).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from console.cli.failures import EXIT_OK, TEAM_READ_EXIT_TABLE, TEAM_STEP_EXIT_TABLE
from console.cli.request_args import UsageError
from console.cli.team_db import team_journal
from console.core.team.inputs import expiry

Action = Callable[..., argparse.ArgumentParser]


def register(action: Action) -> None:
    """Add ``team gateway add|list`` and ``team policy`` (``action`` makes one team action)."""
    g = action("gateway", "the team's gateways: register one (admin), list them", None)
    sub = g.add_subparsers(dest="gateway_command", metavar="ACTION", required=True)
    add = sub.add_parser(
        "add",
        help="register a gateway of the team (admin)",
        epilog=TEAM_STEP_EXIT_TABLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add.add_argument("name", help="the name policies and people call it by")
    add.add_argument("--base-url", required=True, help="e.g. https://gateway.example/paynet")
    add.add_argument("--login", required=True, help="the merchant login its requests sign for")
    add.add_argument("--endpoint-id", help="the endpoint its URLs name (or --group-id)")
    add.add_argument("--group-id", help="the endpoint group its URLs name")
    add.add_argument("--dsn", help="team database (default: the one `team init` saved)")
    add.set_defaults(func=run_gateway_add)
    listed = sub.add_parser(
        "list",
        help="the registered gateways and their policies",
        epilog=TEAM_READ_EXIT_TABLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    listed.add_argument("--json", action="store_true")
    listed.add_argument("--dsn", help="team database (default: the one `team init` saved)")
    listed.set_defaults(func=run_gateway_list)

    q = action("policy", "show or set a registered gateway's approval policy (admin)", run_policy)
    q.add_argument("gateway", help="a gateway's name (team gateway list)")
    q.add_argument("--mode", help="none, all, or above")
    q.add_argument("--above", action="append", default=[], metavar="CUR=AMOUNT", help="repeatable")
    q.add_argument("--expiry-hours", default="24", help="pending submissions expire (hours)")


def run_gateway_add(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.registry import GatewayRegistry

    with team_journal(args) as journal:
        found = GatewayRegistry(journal).add(
            args.name,
            base_url=args.base_url,
            login=args.login,
            endpoint_id=args.endpoint_id,
            group_id=args.group_id,
        )
    print(
        f"{found.name}: {found.identity} for {found.login} ({found.endpoint}) is a gateway of "
        f"the team; its policy: {_policy_words(found.mode, found.thresholds)}. Consoles of the "
        "team send only to registered gateways (and to this computer)."
    )
    return EXIT_OK


def run_gateway_list(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.registry import GatewayRegistry

    with team_journal(args) as journal:
        found = GatewayRegistry(journal).listed()
    if args.json:
        rows = [
            {
                "name": g.name,
                "base_url": g.base_url,
                "identity": g.identity,
                "login": g.login,
                "endpoint_id": g.endpoint_id,
                "group_id": g.group_id,
                "mode": g.mode,
                "above": g.thresholds,
                "expiry_hours": g.expiry.total_seconds() / 3600,
                "registered_by": g.registered_by,
            }
            for g in found
        ]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_OK
    if not found:
        print("No gateway is registered: an admin registers one with `team gateway add`.")
    for g in found:
        print(
            f"{g.name}  {g.identity}  {g.login}  {g.endpoint}  "
            f"{_policy_words(g.mode, g.thresholds)}"
        )
    return EXIT_OK


def run_policy(args: argparse.Namespace) -> int:
    # boundary: the approvals (pipeline, client, journals) load for the commands that use them
    from console.core.team.approvals.registry import GatewayRegistry

    lifetime = expiry(args.expiry_hours)
    limits = dict(_pair(item) for item in args.above)
    with team_journal(args) as journal:
        registry = GatewayRegistry(journal)
        if args.mode is None:
            policy = registry.policy(args.gateway)
        else:
            policy = registry.set_policy(args.gateway, args.mode, limits, lifetime)
    print(
        f"{policy.gateway}: {policy.describe()}; pending submissions expire after {policy.expiry}."
    )
    return EXIT_OK


def _policy_words(mode: str, thresholds: dict[str, str]) -> str:
    # boundary: the approvals' words (a few ms) load for the commands that use them
    from console.core.team.approvals.submissions import Policy

    return Policy("", mode, thresholds).describe()


def _pair(item: str) -> tuple[str, str]:
    currency, sep, amount = item.partition("=")
    if not sep or not currency.strip() or not amount.strip():
        raise UsageError(f"--above {item!r}: write it as CURRENCY=AMOUNT, e.g. EUR=1000.00")
    return currency.strip().upper(), amount.strip()
