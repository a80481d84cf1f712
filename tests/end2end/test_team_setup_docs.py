"""The team section of the manual (docs/team.md), run command by command as printed on a fresh
PostgreSQL cluster: the owner is a role with CREATEROLE (not a superuser), and every command
of the set-up exits 0, in a shell, as separate processes of the command line."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.helpers.team import payout_values

ROOT = Path(__file__).resolve().parents[2]
TEAM_PAGE = ROOT / "docs" / "team.md"
SECRET = "merchant-control-secret"


def setup_lines(page: str) -> list[str]:
    """The set-up block's commands, comments dropped, continued lines joined."""
    start = page.index("```sh", page.index("Setup"))
    block = page[start + len("```sh") : page.index("```", start + 5)]
    lines = [line.split("  #")[0].rstrip() for line in block.strip().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def each_person_line(page: str) -> str:
    """The line each person runs in their own profile (the prose after the block)."""
    found = re.search(r"`(team init --dsn postgresql://alice@db\.example/payments)`", page)
    assert found, "docs/team.md no longer says how each person joins"
    return f"gateway-console {found.group(1)}"


@pytest.fixture
def shell_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A PATH where `gateway-console` is this worktree's command line, and own profiles."""
    if shutil.which("psql") is None or not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        pytest.skip("no PostgreSQL binaries (initdb, psql): apt-get install postgresql")
    pytest.importorskip("psycopg")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "gateway-console"
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -m console "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "GATEWAY_CONSOLE_HOME": str(tmp_path / "owner-profile"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    env.pop("GATEWAY_CONSOLE_TEAM_DSN", None)
    yield env
    if env.get("CLUSTER_DIR"):  # the cluster the printed dev-postgres.sh line started
        subprocess.run(
            ["scripts/dev-postgres.sh", "stop", env["CLUSTER_DIR"]],
            cwd=ROOT,
            check=False,
            capture_output=True,
        )


def run_line(line: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One printed line in bash, on a terminal of its own: a question asked there (the
    merchant control secret) is answered once its prompt is shown."""
    main_fd, terminal = os.openpty()
    proc = subprocess.Popen(
        ["bash", "-c", f"set -euo pipefail\n{line}"],
        cwd=ROOT,
        env=env,
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # the terminal becomes the line's own, never the test's
    )
    os.close(terminal)
    shown = bytearray()

    def answer() -> None:  # getpass writes its prompt on the terminal, then reads the answer
        try:
            while chunk := os.read(main_fd, 1024):
                shown.extend(chunk)
                if shown.endswith(b"secret of acme-live: "):
                    os.write(main_fd, f"{SECRET}\n".encode())
        except OSError:  # the line ended and closed the terminal
            return

    reader = threading.Thread(target=answer, daemon=True)
    reader.start()
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        reader.join(timeout=5)
        os.close(main_fd)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, out.decode(), err.decode() + shown.decode(errors="replace")
    )


def run_setup(lines: list[str], shell_env: dict[str, str]) -> tuple[str, list[str]]:
    """Run the set-up lines as printed, each to a clean exit: the first starts a throwaway
    cluster (its DSN and where to stop it go into ``shell_env``), the others reach it where
    the page says db.example. The cluster's address and each other line's output."""
    address = ""
    said: list[str] = []
    for line in lines:
        if line.startswith("DSN="):  # the throwaway cluster: its DSN, and where to stop it
            done = run_line(line.removeprefix("DSN=$(").rsplit(")", 1)[0], shell_env)
            assert done.returncode == 0, done.stderr
            shell_env["DSN"] = done.stdout.strip()
            shell_env["CLUSTER_DIR"] = done.stderr.split("stop with: ")[1].split()[-1]
            address = shell_env["DSN"].split("@")[1].split("/")[0]
            continue
        done = run_line(line.replace("db.example", address), shell_env)
        said.append(done.stdout)
        assert done.returncode == 0, f"{line}\nexit {done.returncode}\n{done.stderr}"
    return address, said


def test_the_team_set_up_runs_as_printed_with_a_createrole_owner(
    shell_env: dict[str, str], tmp_path: Path
) -> None:
    page = TEAM_PAGE.read_text(encoding="utf-8")
    lines = setup_lines(page)
    assert lines[0].startswith("DSN=$(scripts/dev-postgres.sh)")
    address, said = run_setup(lines, shell_env)

    assert "Team database created at schema" in said[1]
    assert "owner is a team admin" in said[1]
    assert "alice is a new login, now a maker." in said[2]
    assert "Consoles of the team send only to gateways the team registered" in said[1]
    assert "erin is a new login, now an admin." in said[4]
    assert "acme-live: https://gateway.example:443/paynet for acme (endpoint 1234)" in said[5]
    assert "holds every payout" not in said[5]  # its words: the policy it has now
    assert "every payout and recurring profile needs approval" in said[5]
    assert "approval above" in said[6]
    assert "verifies acme-live's callbacks" in said[7]

    # each person, in their own profile, as printed; then the saved DSN is theirs
    shell_env["GATEWAY_CONSOLE_HOME"] = str(tmp_path / "alice-profile")
    joined = run_line(each_person_line(page).replace("db.example", address), shell_env)
    assert joined.returncode == 0, joined.stderr
    assert "admin" not in joined.stdout  # the team has its admins: alice is made nothing
    pending = run_line("gateway-console team pending", shell_env)
    assert (pending.returncode, pending.stdout.strip()) == (0, "Nothing waits for approval.")

    shell_env["GATEWAY_CONSOLE_HOME"] = str(tmp_path / "owner-profile")
    audit = run_line("gateway-console team audit", shell_env)
    assert audit.returncode == 0, audit.stderr
    listed = run_line("gateway-console team gateway list", shell_env)
    assert listed.returncode == 0, listed.stderr
    assert "acme-live  https://gateway.example:443/paynet  acme  endpoint 1234  approval above" in (
        listed.stdout
    )
    # a console of the team sends only to the registered gateway (or this computer)
    key = tmp_path / "key.pem"
    pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    key.write_bytes(pem)
    fields = " ".join(f"-f {shlex.quote(f'{n}={v}')}" for n, v in payout_values("x-1").items())
    elsewhere = run_line(
        "gateway-console send payout-check --base-url https://elsewhere.example/paynet "
        f"--login acme --endpoint-id 1234 --key-file {key} {fields}",
        shell_env,
    )
    assert elsewhere.returncode == 19, elsewhere.stderr
    assert "has not registered the gateway https://elsewhere.example:443/paynet" in (
        elsewhere.stderr
    )
    for change in ("owner is now admin", "alice is now maker", "erin is now admin"):
        assert change in audit.stdout, audit.stdout
    assert "acme-live" in audit.stdout
    assert "gateway  acme-live  registered https://gateway.example/paynet as https://" in (
        audit.stdout
    )
    assert shlex.quote(SECRET) not in audit.stdout


def sender_lines(page: str) -> list[str]:
    """The team sender's block (run on its machine, as its account), comments dropped."""
    start = page.index("```sh", page.index("**The team sender**"))
    block = page[start + len("```sh") : page.index("```", start + 5)]
    lines = [line.split("  #")[0].rstrip() for line in block.strip().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def test_the_team_sender_set_up_runs_as_printed(
    shell_env: dict[str, str], tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    """The set-up as printed, then the sender's block as its account runs it, with one change:
    there is no OS keyring here, so the production key and the sealing key come from files
    only that account can read (the options the page names for it)."""
    page = TEAM_PAGE.read_text(encoding="utf-8")
    address, said = run_setup(setup_lines(page), shell_env)
    assert "sendbot is a new login, now a sender." in said[-1]

    sender_env = {**shell_env, "GATEWAY_CONSOLE_HOME": str(tmp_path / "sender-profile")}
    lines = sender_lines(page)
    assert lines[-1] == "gateway-console team sender --env acme-live"
    assert lines[-2].startswith("gateway-console keys import merchant.pem --env acme-live")
    for line in lines[:-2]:
        done = run_line(line.replace("db.example", address), sender_env)
        assert done.returncode == 0, f"{line}\nexit {done.returncode}\n{done.stderr}"
    keys = [owner_only(tmp_path / name, rsa_key) for name in ("merchant.pem", "seal.pem")]
    with (tmp_path / "sender.log").open("w") as log:
        sender = subprocess.Popen(
            [*shlex.split(lines[-1]), "--key-file", str(keys[0]), "--seal-key-file", str(keys[1])],
            env=sender_env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(600):
            if "serves acme-live as sendbot" in (tmp_path / "sender.log").read_text():
                break
            time.sleep(0.1)
        said = (tmp_path / "sender.log").read_text()
        assert "serves acme-live as sendbot" in said, said

        maker_env = {**shell_env, "GATEWAY_CONSOLE_HOME": str(tmp_path / "alice-profile")}
        joined = run_line(each_person_line(page).replace("db.example", address), maker_env)
        assert joined.returncode == 0, joined.stderr
        assert run_line(lines[1], maker_env).returncode == 0  # the environment, no key
        shown = run_line("gateway-console keys show --env acme-live", maker_env)
        assert shown.returncode == 0, shown.stderr
        assert "the team sender (sendbot) holds the key of acme-live" in shown.stdout
    finally:
        sender.terminate()
        assert sender.wait(timeout=30) == 0
    assert "team sender: stopped." in (tmp_path / "sender.log").read_text()


def owner_only(path: Path, key: rsa.RSAPrivateKey) -> Path:
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    path.chmod(0o600)
    return path
