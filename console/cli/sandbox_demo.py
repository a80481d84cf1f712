"""What ``gateway-console sandbox`` tells the person who started it: the banner (address,
merchants, seeded first payments) with a ready-to-run ``send``, and the demo merchant's
private key file (0600, kept between runs so printed commands keep working).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from datetime import date
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from console.sandbox import SandboxHandle
from console.sandbox.seeds import SEEDS


def reusable_key(path: Path) -> rsa.RSAPrivateKey | None:
    """The demo key of an earlier run, so printed commands keep working (None: make one)."""
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return None
    return key if isinstance(key, rsa.RSAPrivateKey) else None


def write_private(path: Path, pem: bytes) -> None:
    """Write the demo private key readable by this user only (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    os.chmod(path, 0o600)


def example_send(handle: SandboxHandle, key_file: Path) -> list[str]:
    """A ready-to-run ``gateway-console send`` for the demo merchant (CVV2 123: approved)."""
    fields = {
        "client_orderid": "payout-1",
        "amount": "10.00",
        "currency": "USD",
        "credit_card_number": "4444444444444448",
        "card_printed_name": "JOHN SMITH",
        "expire_month": "12",
        "expire_year": str(date.today().year + 3),
        "cvv2": "123",
    }
    argv = [
        "gateway-console",
        "send",
        "payout-check",
        "--base-url",
        handle.base_url,
        "--login",
        handle.demo.login,
        "--endpoint-id",
        handle.demo.endpoint_id,
        "--key-file",
        str(key_file),
    ]
    for name, value in fields.items():
        argv += ["-f", f"{name}={value}"]
    return argv


def print_banner(handle: SandboxHandle, args: argparse.Namespace, key_file: Path | None) -> None:
    """Where the sandbox is, its merchants and seeds, and a command to try (stdout)."""
    out = sys.stdout
    sandbox = handle.sandbox
    print(f"Gateway Console sandbox at {handle.base_url}", file=out)
    print(f"  control paths: {handle.control_url} (GET it for the list)", file=out)
    print(f"  state: {args.state or 'in memory (gone when stopped)'}", file=out)
    print(
        f"  callback delay: {sandbox.callback_delay:g} s; faults: {sandbox.faults.spec or 'none'}",
        file=out,
    )
    print("Merchants:", file=out)
    for m in sandbox.merchants.all():
        groups = f", group {', '.join(m.groups)}" if m.groups else ""
        print(
            f"  {m.login}: endpoint {', '.join(m.endpoints)}{groups}; key {m.fingerprint}", file=out
        )
    print("Seeded first payments (for create-card-ref):", file=out)
    for seed in SEEDS:
        print(
            f"  orderid {seed.orderid}  client_orderid {seed.client_orderid}  {seed.status}",
            file=out,
        )
    if key_file is not None:
        print(f"Demo merchant's private key (0600): {key_file}", file=out)
        print("Try:", file=out)
        print("  " + shlex.join(example_send(handle, key_file)), file=out)
    print("Press Ctrl+C to stop.", file=out, flush=True)
