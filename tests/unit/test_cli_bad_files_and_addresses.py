"""Bad input ends in a clear message, never an internal error or a hang: a --base-url an
environment could not hold (one rule for both), a folder or file that cannot be written, and
file arguments that never end (/dev/zero, /dev/urandom) read only up to a named size."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import EXIT_INVALID, EXIT_USAGE
from tests.helpers.batch_files import card_row, write_csv
from tests.helpers.http_server import Reply, serve

FORM = {"Content-Type": "text/html;charset=utf-8"}
ASYNC_OK = b"type=status-response\n&status=approved\n"


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in its own process (this test's profile), within 30 s."""
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    done = subprocess.run(
        [sys.executable, "-m", "console", *args],
        capture_output=True,
        timeout=30,
        env=env,
        input=stdin,
        check=False,
    )
    out = subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )
    assert "Traceback" not in out.stderr
    assert "internal error" not in out.stderr
    return out


def _status(base_url: str, key_file: Path | str) -> list[str]:
    return [
        "send", "status", "--base-url", base_url, "--login", "m", "--endpoint-id", "1",
        "--key-file", str(key_file), "-f", "client_orderid=a",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("https://gateway.example/paynet?x=1", "Remove the ?query or #fragment"),
        ("https://gateway.example/paynet#top", "Remove the ?query or #fragment"),
        ("http://[::1:18201", "is not a valid address"),
        ("https://user:pw@gateway.example/paynet", "Remove the user name and password"),
        ("gateway.example/paynet", "is not an address: write https://HOST/PATH"),
    ],
)
def test_a_base_url_env_add_refuses_is_refused_by_send_alike(
    key_file: Path, url: str, said: str
) -> None:
    with serve(lambda r: Reply(200, ASYNC_OK, FORM)) as server:
        done = _cli(*_status(url, key_file))
        assert done.returncode == EXIT_USAGE
        assert "error: argument --base-url: " in done.stderr
        assert said in done.stderr
        added = _cli("env", "add", "x", "--kind", "sandbox", "--base-url", url, "--login", "m",
                     "--endpoint-id", "1")  # fmt: skip
        assert added.returncode != 0  # env add's own statuses
        assert said in added.stderr
        assert server.received == []


def test_export_into_a_device_or_a_pipe_is_a_usage_error_and_replaces_nothing(
    tmp_path: Path,
) -> None:
    done = _cli("export", "postman", "--output-dir", "/dev/full")
    assert done.returncode == EXIT_USAGE
    assert "--output-dir /dev/full: cannot write there" in done.stderr
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    done = _cli("export", "openapi", "--output", str(pipe))
    assert done.returncode == EXIT_USAGE
    assert "not a regular file" in done.stderr
    assert pipe.is_fifo()  # still the pipe: not replaced by a file


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (_status("http://127.0.0.1:9/paynet", "/dev/zero"), "--key-file /dev/zero: it is "
         "larger than 64 KiB"),
        (["verify", "/dev/urandom", "--key-file", "KEY"], "/dev/urandom: it is larger than 4 MiB"),
        (["verify", "REQ", "--key-file", "/dev/zero"], "/dev/zero: it is larger than 64 KiB"),
        (["import-curl", "/dev/zero"], "/dev/zero: it is larger than 4 MiB"),
        (["export", "postman", "--output-dir", "OUT", "--with-key", "/dev/zero"],
         "--with-key /dev/zero: it is larger than 64 KiB"),
    ],
)  # fmt: skip
def test_a_file_argument_that_never_ends_is_refused_quickly_with_its_size_limit(
    key_file: Path, tmp_path: Path, args: list[str], said: str
) -> None:
    request = tmp_path / "request.http"
    request.write_text(
        "POST /paynet/api/v4/status/1 HTTP/1.1\nHost: x\n"
        'Authorization: OAuth oauth_consumer_key="m", oauth_signature="x"\n\nclient_orderid=a\n'
    )
    swap = {"KEY": str(key_file), "REQ": str(request), "OUT": str(tmp_path / "out")}
    started = time.monotonic()
    done = _cli(*[swap.get(a, a) for a in args])
    assert time.monotonic() - started < 20
    assert done.returncode == EXIT_USAGE
    assert said in done.stderr


def test_standard_input_that_never_ends_is_refused_at_its_limit(key_file: Path) -> None:
    done = _cli("verify", "--key-file", str(key_file), stdin=b"\0" * (5 * 1024 * 1024))
    assert done.returncode == EXIT_USAGE
    assert "standard input: it is larger than 4 MiB" in done.stderr


def test_keys_import_of_a_file_that_never_ends_is_refused_at_its_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = ["--base-url", "http://127.0.0.1:9/paynet", "--login", "m", "--endpoint-id", "1"]
    assert main(["env", "add", "sb", "--kind", "sandbox", *base]) == 0
    capsys.readouterr()
    assert main(["keys", "import", "/dev/zero", "--env", "sb"]) != 0
    assert "/dev/zero: it is larger than 64 KiB, the most read here" in capsys.readouterr().err


def test_code_and_batch_results_into_a_pipe_are_usage_errors_and_replace_nothing(
    tmp_path: Path, key_file: Path
) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    conn = ["--base-url", "http://127.0.0.1:9/paynet", "--login", "m", "--endpoint-id", "1"]
    done = _cli("code", "python", "status", *conn, "-f", "client_orderid=a", "--output", str(pipe))
    assert done.returncode == EXIT_USAGE
    assert f"--output {pipe}: cannot write there" in done.stderr
    batch = write_csv(tmp_path / "b.csv", [card_row("b-1")])
    done = _cli("batch", "run", str(batch), *conn, "--key-file", str(key_file), "--results",
                str(pipe))  # fmt: skip
    assert done.returncode == EXIT_INVALID  # as --results naming the input file
    assert "is not a regular file" in done.stderr
    assert pipe.is_fifo()
