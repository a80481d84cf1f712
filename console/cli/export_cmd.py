"""``gateway-console export postman|bruno|openapi``: the commands for other tools.

``export postman`` writes a Postman collection (v2.1) with one request per command, signed by
Postman itself with OAuth 1.0 RSA-SHA256, and an environment holding the base URL, login and
endpoint ids (from --env or the connection options) and the private key as an empty secret.
``--with-key FILE`` fills the key in, for a sandbox only (a local sandbox's address or an
environment that is not production); the sandbox's test card then fills the card variables.

``export bruno`` writes a Bruno collection folder (bruno.json, collection.bru with the OAuth 1.0
RSA-SHA256 settings, one .bru file per command) and environments/NAME.bru; the private key is
a secret variable with no value, given to Bruno's runner with --env-var when it runs.

``export openapi`` prints an OpenAPI 3.1 description of the commands (JSON), generated from
the same contract tables as the forms.

Exit statuses: 0 written, 1 a key for a gateway that is not a sandbox, 2 a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from console.cli import arg_types
from console.cli.failures import EXIT_OK
from console.cli.output_files import writing
from console.cli.parser import RawDescriptionHelpFormatter
from console.cli.request_args import UsageError, address_settings
from console.core.addresses import is_loopback_host
from console.core.atomic import write_text_atomic
from console.core.exports import openapi_document
from console.core.exports.bruno import write_bruno
from console.core.exports.collection_plan import CollectionTarget
from console.core.exports.postman_files import COLLECTION_FILE, environment_path, write_postman
from console.core.input_files import MAX_KEY_FILE, InputFileError, read_capped
from console.core.keys import KeyProblem, load_private_key

ENVIRONMENT_FILE = environment_path(Path(COLLECTION_FILE)).name
BRUNO_FOLDER = "gateway-v4-bruno"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="a Postman collection and environment, or an OpenAPI description",
        description=__doc__,
        formatter_class=RawDescriptionHelpFormatter,
    )
    targets = p.add_subparsers(dest="target", metavar="TARGET", required=True)
    pm = targets.add_parser("postman", help="a Postman collection v2.1 and its environment")
    _address_options(pm)
    pm.add_argument("--group-id", help="endpoint group id (path /group/<id>)")
    pm.add_argument(
        "--with-key",
        type=Path,
        metavar="FILE",
        help="fill the environment's privateKey with this PEM file (sandboxes only)",
    )
    pm.add_argument(
        "--output-dir",
        type=Path,
        default=Path("."),
        metavar="DIR",
        help=f"where {COLLECTION_FILE} and {ENVIRONMENT_FILE} go (default: here)",
    )
    pm.set_defaults(func=run_postman)
    br = targets.add_parser("bruno", help="a Bruno collection folder and its environment")
    _address_options(br)
    br.add_argument("--group-id", help="endpoint group id (path /group/<id>)")
    br.add_argument(
        "--output-dir",
        type=Path,
        default=Path(BRUNO_FOLDER),
        metavar="DIR",
        help=f"the collection's folder (default: {BRUNO_FOLDER})",
    )
    br.set_defaults(func=run_bruno)
    oa = targets.add_parser("openapi", help="an OpenAPI 3.1 description (JSON)")
    oa.add_argument("--env", metavar="NAME", help="take the server address from an environment")
    oa.add_argument(
        "--base-url", type=arg_types.base_url, help="the server address (scheme, host and prefix)"
    )
    oa.add_argument("--output", "-o", type=Path, metavar="FILE", help="default: standard output")
    oa.set_defaults(func=run_openapi, login=None, endpoint_id=None, group_id=None)


def _address_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--env", metavar="NAME", help="a saved environment (see `env list`)")
    p.add_argument(
        "--base-url", type=arg_types.base_url, help="scheme, host and prefix before /api/v4"
    )
    p.add_argument("--login", help="your login (oauth_consumer_key)")
    p.add_argument("--endpoint-id", help="endpoint id (path /<endpoint_id>)")


def _is_sandbox(args: argparse.Namespace, base_url: str | None) -> bool:
    """A sandbox: an environment that is not production, or a loopback address."""
    if args.env:
        # boundary: the environments file, only when --env names one
        from console.core.environments import EnvironmentStore, EnvironmentStoreError, EnvKind

        try:
            kind = EnvironmentStore().get(args.env).kind
        except EnvironmentStoreError as exc:
            raise UsageError(f"--env {args.env}: {exc}") from exc
        if kind is EnvKind.PRODUCTION:
            return False
        return args.base_url is None or is_loopback_host(urlsplit(args.base_url).hostname or "")
    return bool(base_url) and is_loopback_host(urlsplit(base_url or "").hostname or "")


def _key_text(path: Path) -> str:
    """The PEM text of --with-key, checked to be an unencrypted RSA private key."""
    try:
        pem = read_capped(path, MAX_KEY_FILE)
    except OSError as exc:
        raise UsageError(f"--with-key {path}: {exc.strerror or exc}") from exc
    except InputFileError as exc:
        raise UsageError(f"--with-key {path}: {exc}: a key PEM is a few KiB") from exc
    try:
        load_private_key(pem, None)
    except KeyProblem as exc:
        raise UsageError(
            f"--with-key {path}: {exc} (Postman needs an unencrypted PEM key)"
        ) from exc
    return pem.decode("ascii")


def _target(args: argparse.Namespace, default_name: str) -> CollectionTarget:
    """The gateway of the options: an environment, or the connection options."""
    settings = address_settings(args, "payout-check") if (args.env or args.base_url) else {}
    base_url = settings.get("base_url")
    return CollectionTarget(
        name=args.env or default_name,
        base_url=base_url,
        login=settings.get("login") or args.login,
        endpoint_id=settings.get("endpoint_id") or args.endpoint_id,
        endpoint_group_id=settings.get("endpoint_group_id") or args.group_id,
        path_templates={} if not args.env else _templates(args.env),
        sandbox=_is_sandbox(args, base_url),
    )


def run_postman(args: argparse.Namespace) -> int:
    key = _key_text(args.with_key) if args.with_key else None
    target = _target(args, "gateway v4")
    with writing("--output-dir", args.output_dir):
        paths = write_postman(args.output_dir / COLLECTION_FILE, target, private_key_pem=key)
    for path in paths:
        print(path)
    if key is None:
        print(
            "note: set the environment's secret privateKey (PEM) in Postman before sending",
            file=sys.stderr,
        )
    return EXIT_OK


def run_bruno(args: argparse.Namespace) -> int:
    target = _target(args, "gateway-v4")
    with writing("--output-dir", args.output_dir):
        environment = write_bruno(args.output_dir, target)
    print(args.output_dir)
    print(
        f"note: run it from that folder with: bru run --env {environment.stem} "
        '--env-var privateKey="$(awk \'{printf "%s\\\\n", $0}\' KEY.pem)"',
        file=sys.stderr,
    )
    return EXIT_OK


def _templates(env: str) -> Mapping[str, Mapping[str, str]]:
    # boundary: the environments file, only when --env names one
    from console.core.environments import EnvironmentStore, EnvironmentStoreError

    try:
        return EnvironmentStore().get(env).path_templates
    except EnvironmentStoreError as exc:
        raise UsageError(f"--env {env}: {exc}") from exc


def run_openapi(args: argparse.Namespace) -> int:
    base_url = args.base_url
    if args.env and not base_url:
        base_url = address_settings(args, "payout-check").get("base_url")
    text = json.dumps(openapi_document(server_url=base_url), indent=2, ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        with writing("--output", args.output):
            write_text_atomic(args.output, text)
        print(args.output)
    return EXIT_OK
