"""Bad input on the command line: a clear message and its exit status, never an internal
error (70), a traceback or a hang, and nothing written or sent.

Each case runs the command line as a real process, as a person or a script would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from console.core.paths import resolve
from console.core.spec import example_values
from tests.helpers.history_data import journal_rows
from tests.helpers.http_server import Reply, TestServer, serve

FORM = {"Content-Type": "text/html;charset=utf-8"}
ASYNC_OK = b"type=async-response\n&merchant-order-id=p-1\n&gateway-order-id=9001\n"
DEEP = "[" * 100_000 + "]" * 100_000


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command line in its own process, with this test's profile (see conftest)."""
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    done = subprocess.run(
        [sys.executable, "-m", "console", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )
    assert "Traceback" not in done.stderr
    assert "internal error" not in done.stderr
    return done


@pytest.fixture
def gateway() -> Iterator[TestServer]:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        yield server


def _send(
    server: TestServer, key_file: Path, *extra: str, omit: str = "", **fields: str
) -> list[str]:
    """``send payout-check`` of the example values, ``fields`` changed, ``omit`` left out."""
    args = ["send", "payout-check", "--base-url", server.url, "--login", "m"]
    args += ["--endpoint-id", "1", "--key-file", str(key_file), *extra]
    for name, value in {**example_values("payout-check"), **fields}.items():
        args += ["-f", f"{name}={value}"] if name != omit else []
    return args


def test_a_deeply_nested_fields_file_is_refused(tmp_path: Path) -> None:
    for text in (DEEP, '{"order_desc": ' + DEEP + "}", '{"a":' * 100_000 + "1" + "}" * 100_000):
        fields = tmp_path / "fields.json"
        fields.write_text(text)
        done = _cli("validate", "payout-check", "--fields-file", str(fields))
        assert done.returncode == 2
        assert f"--fields-file {fields}" in done.stderr
        assert "too deeply" in done.stderr


def test_a_fields_file_that_never_ends_is_refused_at_once() -> None:
    done = _cli("validate", "payout-check", "--fields-file", "/dev/zero", timeout=30)
    assert done.returncode == 2
    assert "--fields-file /dev/zero" in done.stderr
    assert "larger than 1 MiB" in done.stderr


def test_a_deeply_nested_json_lines_row_is_a_row_problem(
    tmp_path: Path, key_file: Path, gateway: TestServer
) -> None:
    batch = tmp_path / "payouts.jsonl"
    batch.write_text(DEEP + "\n")
    done = _cli("batch", "validate", str(batch))
    assert done.returncode == 1  # rows have errors
    assert "too deeply" in done.stdout
    done = _cli(
        "batch", "run", str(batch), "--base-url", gateway.url, "--login", "m",
        "--endpoint-id", "1", "--key-file", str(key_file),
    )  # fmt: skip
    assert done.returncode == 1
    assert gateway.received == []


@pytest.mark.parametrize(
    ("option", "value"),
    [("--timeout", "-1"), ("--timeout", "nan"), ("--timeout", "1e308"),
     ("--connect-timeout", "0"), ("--connect-timeout", "inf")],
)  # fmt: skip
def test_a_send_timeout_that_is_not_a_positive_number_sends_and_journals_nothing(
    key_file: Path, gateway: TestServer, option: str, value: str
) -> None:
    done = _cli(*_send(gateway, key_file, f"{option}={value}"))
    assert done.returncode == 2
    assert f"argument {option}: give a number of seconds above 0" in done.stderr
    assert gateway.received == []
    assert journal_rows() == 0
    # the client_orderid is not blocked: nothing was sent under it
    assert _cli(*_send(gateway, key_file, f"{option}=30")).returncode == 0


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["history", "--limit", "99999999999999999999999"], "--limit"),
        (["history", "--limit", "-1"], "--limit"),
        (["batch", "limits", "--env", "local-sandbox", "--max-total", "NaN"], "--max-total"),
        (["batch", "limits", "--env", "local-sandbox", "--max-total=-Infinity"], "--max-total"),
        (["batch", "limits", "--env", "local-sandbox", "--max-rows", "0"], "--max-rows"),
        (["sandbox", "--port", "99999"], "--port"),
        (["sandbox", "--callback-delay", "nan"], "--callback-delay"),
        (["sandbox", "--callback-delay", "-1"], "--callback-delay"),
        (["sandbox", "seed", "--url", "http://x", "--client-orderid", "a", "--orderid", "9" * 30],
         "--orderid"),
        (["sign", "payout-check", "--timestamp", "9" * 30], "--timestamp"),
    ],
)  # fmt: skip
def test_a_number_out_of_range_is_a_usage_error(args: list[str], option: str) -> None:
    done = _cli(*args, timeout=30)
    assert done.returncode == 2
    assert f"argument {option}: give " in done.stderr
    config = resolve().config_dir
    assert not config.exists() or not any(config.iterdir())  # no limits written


def test_history_export_into_a_missing_folder_creates_nothing(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "dir" / "x.csv"
    done = _cli("history", "export", str(target))
    assert done.returncode == 1  # the export file cannot be written
    assert f"there is no folder '{target.parent}'" in done.stderr
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("client_orderid", "po-1\n", "a line feed"),
        ("card_printed_name", "JOHN\nSMITH", "a line feed"),
        ("card_printed_name", "JOHN\rSMITH", "a carriage return"),
    ],
)
def test_a_control_character_in_a_field_is_not_sent(
    key_file: Path, gateway: TestServer, name: str, value: str, said: str
) -> None:
    done = _cli(*_send(gateway, key_file, **{name: value}))
    assert done.returncode == 1  # invalid input: nothing was sent
    assert f"{name}: {name} holds {said}" in done.stderr
    assert gateway.received == []
    assert journal_rows() == 0


@pytest.mark.parametrize("name", ["client_orderid", "card_printed_name"])
def test_a_nul_from_a_fields_file_is_not_sent(
    tmp_path: Path, key_file: Path, gateway: TestServer, name: str
) -> None:
    fields = tmp_path / "fields.json"
    fields.write_text(json.dumps({name: "JOHN\u0000SMITH"}))
    done = _cli(*_send(gateway, key_file, "--fields-file", str(fields), omit=name))
    assert done.returncode == 1
    assert f"{name}: {name} holds a NUL" in done.stderr
    assert gateway.received == []
    assert journal_rows() == 0
