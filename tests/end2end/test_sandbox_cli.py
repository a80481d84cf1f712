"""``gateway-console sandbox`` as a person runs it: the banner, the demo key file, the example
command that works as printed, Ctrl+C, and ``sandbox seed``."""

from __future__ import annotations

import os
import shlex
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from tests.helpers.sandbox_client import form_fields, pem_of, public_pem_of, signed_post, start

ROOT = Path(__file__).resolve().parents[2]


def _set_sigint_aside() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def launch(
    home: Path, *options: str, sigint_set_aside: bool = False
) -> tuple[subprocess.Popen[str], list[str]]:
    """Start ``gateway-console sandbox`` and read its banner (up to "Press Ctrl+C").

    ``sigint_set_aside``: started as a shell script's background job is, SIGINT ignored."""
    env = {**os.environ, "GATEWAY_CONSOLE_HOME": str(home), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "console",
            "sandbox",
            "--port",
            "0",
            "--callback-delay",
            "0",
            *options,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_set_sigint_aside if sigint_set_aside else None,
    )
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("Press Ctrl+C"):
            break
    watchdog.cancel()
    return proc, lines


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    proc, lines = launch(tmp_path / "profile")  # the profile conftest points to
    try:
        yield proc, lines
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_banner_key_file_and_example_command(
    running: tuple[subprocess.Popen[str], list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    proc, lines = running
    assert lines[0].startswith("Gateway Console sandbox at http://127.0.0.1:")
    assert any("demo: endpoint 1001, group 2001" in line for line in lines)
    assert any(
        "orderid 9000001  client_orderid first-payment-1  approved" in line for line in lines
    )
    key_line = next(line for line in lines if line.startswith("Demo merchant's private key"))
    key_file = Path(key_line.split(": ", 1)[1])
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in key_file.read_bytes()
    example = shlex.split(lines[lines.index("Try:") + 1])
    assert example[:3] == ["gateway-console", "send", "payout-check"]
    capsys.readouterr()
    assert main(example[1:]) == 0  # the printed command works as it is
    assert "async-response" in capsys.readouterr().out
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert "Sandbox stopped." in err


def test_ctrl_c_stops_a_sandbox_a_script_started_in_the_background(tmp_path: Path) -> None:
    proc, lines = launch(tmp_path / "profile", sigint_set_aside=True)
    try:
        assert lines[-1].startswith("Press Ctrl+C")
        proc.send_signal(signal.SIGINT)  # what `kill -INT` or the script's Ctrl+C sends
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0
    assert "Sandbox stopped." in err


def test_sigterm_stops_cleanly(running: tuple[subprocess.Popen[str], list[str]]) -> None:
    proc, _ = running
    proc.terminate()
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert "Sandbox stopped." in err


def test_refusals_are_explained_in_the_sandbox_log(
    running: tuple[subprocess.Popen[str], list[str]],
) -> None:
    proc, lines = running
    base_url = lines[0].rsplit(" ", 1)[1]
    response = requests.post(
        base_url + "/api/v4/status/1001", data={"client_orderid": "x"}, timeout=10
    )
    assert response.status_code == 403
    proc.terminate()
    _, err = proc.communicate(timeout=30)
    assert "403 for POST /paynet/api/v4/status/1001" in err
    assert "no Authorization header" in err


def test_a_merchant_of_ones_own(tmp_path: Path, other_rsa_key: rsa.RSAPrivateKey) -> None:
    home = tmp_path / "profile"
    pem = tmp_path / "shop.pub.pem"
    pem.write_text(public_pem_of(other_rsa_key))
    proc, lines = launch(
        home,
        "--merchant",
        "shop",
        "--public-key",
        str(pem),
        "--endpoint",
        "4001",
        "--endpoint-group",
        "5001",
    )
    try:
        assert any(line.startswith("  shop: endpoint 4001, group 5001") for line in lines)
        assert not any("private key" in line for line in lines)  # the person has their own
        assert not (home / "state" / "sandbox-demo-key.pem").exists()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_merchant_options_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sandbox", "--port", "0", "--merchant", "shop"]) == 2
    assert "--merchant needs --public-key and --endpoint" in capsys.readouterr().err


def test_bad_faults_are_reported_before_starting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sandbox", "--port", "0", "--faults", "explode"]) == 2
    assert "--faults" in capsys.readouterr().err


def test_a_host_off_this_machine_is_warned_about(capsys: pytest.CaptureFixture[str]) -> None:
    # 192.0.2.1 (TEST-NET-1) is not an address of this machine: binding fails, nothing listens
    assert main(["sandbox", "--host", "192.0.2.1", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "not on a loopback address" in err
    assert "cannot listen on 192.0.2.1" in err


def _seed(*args: str) -> int:
    """Run ``gateway-console sandbox seed`` with ``args``; returns the exit code."""
    return main(["sandbox", "seed", *args])


def test_seed_into_a_state_file_then_use_it(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "sandbox.sqlite3"
    mine = ["--client-orderid", "mine", "--orderid", "777"]
    assert _seed("--state", str(state), *mine, "--card-number", "5555555555554444") == 0
    assert "orderid 777" in capsys.readouterr().out
    assert _seed("--state", str(state), "--client-orderid", "bad", "--card-number", "1234") == 2
    assert "Luhn" in capsys.readouterr().err
    with start(rsa_key, state_path=state) as sandbox:
        answer = signed_post(
            sandbox, "create-card-ref", {"client_orderid": "mine", "orderid": "777"}, key=rsa_key
        )
        assert form_fields(answer)["type"] == "create-card-ref-response"


def test_seed_a_running_sandbox(
    rsa_key: rsa.RSAPrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    with start(rsa_key) as sandbox:
        live = ["--client-orderid", "live", "--status", "processing"]
        assert _seed("--url", sandbox.base_url, *live) == 0
        orderid = capsys.readouterr().out.split("orderid ")[1].split(",")[0]
        answer = signed_post(
            sandbox, "create-card-ref", {"client_orderid": "live", "orderid": orderid}, key=rsa_key
        )
        assert form_fields(answer)["error-code"] == "204"  # not final yet
        assert _seed("--url", sandbox.base_url, "--client-orderid", "live") == 2
        assert "exists already" in capsys.readouterr().err


def test_a_merchant_of_ones_own_may_take_the_demo_endpoints(
    tmp_path: Path, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    home = tmp_path / "profile"
    pem = tmp_path / "shop.pub.pem"
    pem.write_text(public_pem_of(other_rsa_key))
    key_file = tmp_path / "shop.pem"
    key_file.write_bytes(pem_of(other_rsa_key))
    proc, lines = launch(home, "--merchant", "shop", "--public-key", str(pem), "--endpoint", "1001")
    try:
        assert lines, proc.stderr.read() if proc.stderr else ""
        merchants = lines[lines.index("Merchants:") + 1 : lines.index("Merchants:") + 3]
        assert merchants[0].startswith("  shop: endpoint 1001;")
        assert not merchants[1].startswith("  demo")  # no demo merchant made beside it
        base_url = lines[0].rsplit(" ", 1)[1]
        status = subprocess.run(
            [
                sys.executable, "-m", "console", "send", "status", "--base-url", base_url,
                "--login", "shop", "--endpoint-id", "1001", "--key-file", str(key_file),
                "-f", "client_orderid=nothing-yet",
            ],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert status.returncode == 3, status.stdout + status.stderr  # its own: no such order
        assert "REJECTED" in status.stdout
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
