"""A recurring profile sent again, as separate processes of the command line against the local
sandbox: the refusal names the profile by its recurring-payment-id, never by the order id of
one of its charges."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from console.cli.failures import EXIT_ALREADY_ACCEPTED, EXIT_OK
from console.sandbox import SandboxHandle
from tests.end2end.test_recurring_schedule_cli import profile_file


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    done = subprocess.run(
        [sys.executable, "-m", "console", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert "Traceback" not in done.stderr
    return done


def test_a_profile_sent_again_is_named_by_its_recurring_payment_id(
    sandbox: SandboxHandle, conn: list[str], tmp_path: Path
) -> None:
    start = sandbox.sandbox.clock.today()  # charged at once: its charge has an order id
    fields = ["--fields-file", str(profile_file(tmp_path, start))]
    created = _cli("send", "create-recurring-payment", *conn, *fields)
    assert created.returncode == EXIT_OK, created.stderr
    found = re.search(r"recurring-payment-id (\d+)", created.stdout)
    assert found
    profile = found.group(1)
    status = _cli("send", "status", *conn, "-f", "client_orderid=rp-1")
    charge = re.search(r"gateway-order-id = (\d+)", status.stdout)
    assert charge, status.stdout
    assert charge.group(1) != profile  # a charge's own order id

    again = _cli("send", "create-recurring-payment", *conn, *fields)
    assert again.returncode == EXIT_ALREADY_ACCEPTED
    assert f"(recurring-payment-id {profile}): rp-1" in again.stderr
    assert charge.group(1) not in again.stderr
    assert "gateway order" not in again.stderr
