"""What the command line says, as separate processes: each team action's ``--help`` lists its
own exit statuses; ``--env`` without a keyring points at ``--key-file``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from console.cli import main


def _cli(
    *args: str, keyring: str = "keyring.backends.null.Keyring"
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": keyring}
    done = subprocess.run(
        [sys.executable, "-m", "console", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert "Traceback" not in done.stderr
    return done


def _exits(help_text: str) -> list[str]:
    """The exit statuses a --help lists (the first word of each line of its table)."""
    table = help_text.split("exit status:", 1)[1]
    return [
        line.split()[0] for line in table.splitlines() if line.startswith("  ") and line[2:3] != " "
    ]


@pytest.mark.parametrize(
    ("action", "statuses"),
    [
        ("init", ["0", "2", "10", "13", "70"]),
        ("add-user", ["0", "2", "10", "13", "70"]),
        ("policy", ["0", "2", "10", "13", "70"]),
        ("audit", ["0", "2", "10", "17", "70"]),
    ],
)
def test_team_actions_list_their_own_exit_statuses(action: str, statuses: list[str]) -> None:
    shown = _cli("team", action, "--help")
    assert shown.returncode == 0
    assert _exits(shown.stdout) == statuses
    assert "accepted by the gateway" not in shown.stdout  # send's table is send's
    assert "client_orderid" not in shown.stdout.split("exit status:", 1)[1]


def test_team_actions_that_send_keep_sends_exit_statuses() -> None:
    shown = _cli("team", "approve", "--help").stdout
    assert "accepted by the gateway" in shown
    assert "12 team mode: submitted for approval" in shown


def test_env_without_a_keyring_points_at_key_file() -> None:
    add = ["env", "add", "gw", "--kind", "sandbox", "--base-url", "http://127.0.0.1:9/paynet",
           "--login", "m", "--endpoint-id", "1001"]  # fmt: skip
    assert main(add) == 0
    done = _cli(
        "send", "status", "--env", "gw", "-f", "client_orderid=p-1", "-f", "orderid=1",
        keyring="keyring.backends.fail.Keyring",
    )  # fmt: skip
    assert done.returncode == 2
    said = " ".join(done.stderr.split())
    assert "No OS keyring is available" in said
    assert "give the private key with --key-file PEM instead" in said
    assert "--env gw still gives the address, login and endpoint" in said
