"""``gateway-console sandbox``: run the local gateway emulator until Ctrl+C.

``gateway-console sandbox seed``: add a first payment (for create-card-ref) to a running
sandbox (``--url``) or to a state file (``--state``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import signal
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from types import FrameType
from typing import Any

from console.cli import arg_types
from console.cli.sandbox_demo import example_send as example_send
from console.cli.sandbox_demo import print_banner, reusable_key, write_private
from console.core import paths
from console.core.addresses import is_loopback_host
from console.core.http_service import raise_file_limit
from console.core.input_files import MAX_KEY_FILE, InputFileError, read_capped
from console.core.logs import RedactingFilter
from console.sandbox import SandboxHandle, start_sandbox
from console.sandbox.faults import parse_faults
from console.sandbox.ids import Ids
from console.sandbox.seeds import Seed, seed_first_payment
from console.sandbox.state import Database, StateError

DEFAULT_PORT = 8085
DEMO_KEY_FILE = "sandbox-demo-key.pem"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sandbox",
        help="run the local gateway emulator (offline, stateful, signs nothing for you)",
        description="Run a local v4 gateway on this machine until Ctrl+C.",
    )
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=arg_types.port,
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    p.add_argument(
        "--state",
        type=Path,
        metavar="FILE",
        help="SQLite file keeping orders, profiles and seeds across restarts",
    )
    m = p.add_argument_group("merchant (without these, a demo merchant is made)")
    m.add_argument("--merchant", metavar="LOGIN", help="a merchant's login")
    m.add_argument("--public-key", type=Path, metavar="PEM", help="its public key PEM file")
    m.add_argument("--endpoint", metavar="ID", help="its endpoint id")
    m.add_argument("--endpoint-group", metavar="ID", help="its endpoint group id")
    p.add_argument(
        "--merchant-control", metavar="SECRET", help="secret for the callbacks' control parameter"
    )
    p.add_argument(
        "--callback-delay",
        type=arg_types.delay,
        default=2.0,
        metavar="S",
        help="seconds a payout stays processing (default 2; 0 allowed)",
    )
    p.add_argument(
        "--faults",
        metavar="SPEC",
        help="inject failures, e.g. 'latency=2.5', '500', 'payout-check:drop'",
    )
    p.add_argument(
        "--remote-callbacks",
        action="store_true",
        help="also call back addresses that are not on this machine",
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="log every request, not only refusals, orders and callbacks",
    )
    p.set_defaults(func=run)
    actions = p.add_subparsers(dest="sandbox_action", metavar="ACTION")
    s = actions.add_parser("seed", help="add a first payment for create-card-ref")
    target = s.add_mutually_exclusive_group(required=True)
    target.add_argument("--url", help="a running sandbox, e.g. http://127.0.0.1:8085")
    target.add_argument(
        "--state", dest="seed_state", type=Path, metavar="FILE", help="a sandbox state file"
    )
    s.add_argument("--client-orderid", required=True)
    s.add_argument(
        "--orderid",
        type=arg_types.whole(0, arg_types.LONG_MAX),
        default=0,
        help="default: the next free order id",
    )
    s.add_argument(
        "--status", default="approved", help="approved (default), declined, processing ..."
    )
    s.add_argument("--card-number", default="4444444444444448")
    s.add_argument("--dst-card-number", default="")
    s.add_argument("--amount", default="10.00")
    s.add_argument("--currency", default="USD")
    s.set_defaults(func=run_seed)


def _fail(message: str) -> int:
    print(f"gateway-console sandbox: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Start the sandbox, print how to use it, serve until Ctrl+C (or SIGTERM)."""
    host = args.host or "127.0.0.1"
    if args.host and not is_loopback_host(args.host):
        print(
            f"warning: listening on {args.host}, not on a loopback address: other machines "
            "can reach this sandbox and its unauthenticated control paths.",
            file=sys.stderr,
        )
    merchant_opts = (args.merchant, args.public_key, args.endpoint)
    if any(merchant_opts) and not all(merchant_opts):
        return _fail("--merchant needs --public-key and --endpoint (and they need --merchant)")
    try:
        parse_faults(args.faults)
        public_pem = read_capped(args.public_key, MAX_KEY_FILE) if args.public_key else None
    except InputFileError as exc:
        return _fail(f"--public-key {args.public_key}: {exc}: a key PEM is a few KiB")
    except ValueError as exc:
        return _fail(f"--faults: {exc}")
    except OSError as exc:
        return _fail(f"--public-key {args.public_key}: {exc.strerror}")
    key_file = None if args.merchant else paths.resolve().ensure().state_dir / DEMO_KEY_FILE
    raise_file_limit()  # this process is the sandbox: every connection is an open file
    try:
        handle = start_sandbox(
            host=host,
            port=args.port,
            state_path=args.state,
            callback_delay=args.callback_delay,
            faults=args.faults,
            merchant_control=args.merchant_control,
            demo_key=reusable_key(key_file) if key_file else None,
            demo_merchant=key_file is not None,  # --merchant: its ids are free for it
            remote_callbacks=args.remote_callbacks,
        )
    except StateError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(
            f"cannot listen on {host}:{args.port} ({exc.strerror}); give another "
            "--port, or --port 0 for any free one"
        )
    try:
        if args.merchant:
            handle.add_merchant(
                args.merchant, public_pem or b"", args.endpoint, args.endpoint_group
            )
        elif key_file is not None:
            write_private(key_file, handle.demo.private_key_pem)
    except (ValueError, OSError) as exc:
        handle.stop()
        return _fail(str(exc))
    handler = _log_to_stderr(args.verbose)
    try:
        return _serve(handle, args, key_file)
    finally:
        logging.getLogger("console.sandbox").removeHandler(handler)


def _log_to_stderr(verbose: bool) -> logging.Handler:
    """Show the sandbox's log (why a request got 403, orders, callbacks), card data masked."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%H:%M:%S"))
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger("console.sandbox")
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.addHandler(handler)
    return handler


def _serve(handle: SandboxHandle, args: argparse.Namespace, key_file: Path | None) -> int:
    """Print the banner and serve until Ctrl+C (SIGINT) or SIGTERM, then stop cleanly."""
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    # Installed before the banner: whoever reads it may stop the sandbox right away. SIGINT
    # is taken too, not left to Python's own handling: a shell script that starts the
    # sandbox in the background hands it SIGINT set aside, and its Ctrl+C (or a `kill -INT`)
    # must still stop it as the banner says.
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        print_banner(handle, args, key_file)
        while not stop.wait(0.5):
            pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        print("\nStopping the sandbox...", file=sys.stderr)
        handle.stop()
    print("Sandbox stopped.", file=sys.stderr)
    return 0


def run_seed(args: argparse.Namespace) -> int:
    """Add a first payment through the control path or straight into a state file."""
    fields = {
        "client_orderid": args.client_orderid,
        "status": args.status,
        "card_number": args.card_number,
        "dst_card_number": args.dst_card_number,
        "amount": args.amount,
        "currency": args.currency,
    }
    if args.orderid:
        fields["orderid"] = str(args.orderid)
    if args.url:
        return _seed_remote(args.url, fields)

    try:
        db = Database(args.seed_state)
    except StateError as exc:
        return _fail(str(exc))
    try:
        order = seed_first_payment(
            db,
            Ids(db),
            Seed(
                args.orderid,
                args.client_orderid,
                args.status,
                args.card_number,
                args.dst_card_number,
                args.amount,
                args.currency.upper(),
            ),
        )
    except ValueError as exc:
        return _fail(str(exc))
    finally:
        db.close()
    print(
        f"First payment orderid {order.orderid}, client_orderid {order.client_orderid}, "
        f"{order.status}"
    )
    return 0


def _seed_remote(url: str, fields: dict[str, str]) -> int:
    if not url.startswith(("http://", "https://")):
        return _fail(f"--url {url!r}: give the sandbox's address, e.g. http://127.0.0.1:8085")
    origin = url.split("/paynet")[0].split("/_sandbox")[0].rstrip("/")
    request = urllib.request.Request(  # noqa: S310 (http and https only, checked above)
        origin + "/_sandbox/first-payments",
        data=json.dumps(fields).encode("utf-8"),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=10) as response:
            data = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        detail = exc.read().decode("utf-8", "replace")
        exc.close()
        with contextlib.suppress(ValueError, AttributeError):
            detail = json.loads(detail).get("error", detail)
        return _fail(f"the sandbox refused: {detail}")
    except (OSError, ValueError) as exc:
        return _fail(f"cannot reach the sandbox at {origin}: {exc}")
    print(
        f"First payment orderid {data['orderid']}, client_orderid {data['client_orderid']}, "
        f"{data['status']}"
    )
    return 0
