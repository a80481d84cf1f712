"""environments.json as people meet it: edited by hand, damaged, changed by many at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from console.cli import main
from console.core import paths
from console.core.environments import (
    EnvironmentFileError,
    EnvironmentStore,
    EnvKind,
    UnusableEnvironmentError,
    connect,
    prepare_kwargs,
)
from console.core.spec import example_values
from console.core.vault import Vault

PRODUCTION = {
    "name": "prod",
    "kind": "production",
    "base_url": "https://gw.example/paynet",
    "login": "merchant",
    "endpoint_id": "1001",
}


def _write(data: object) -> Path:
    file = paths.resolve().environments_file
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(data), encoding="utf-8")
    return file


def _hand_edited_to_http(rsa_key: object) -> Path:
    """A production environment with its key, then its address edited to plain http."""
    file = _write({"schema": 1, "active": "prod", "environments": [PRODUCTION]})
    Vault().store_key("prod", rsa_key)  # type: ignore[arg-type]
    text = file.read_text(encoding="utf-8").replace("https://gw.", "http://gw.")
    file.write_text(text, encoding="utf-8")
    return file


# -- safety hole 4: a hand-edited production address -------------------------------------


def test_a_hand_edited_http_production_address_loads_but_cannot_connect(rsa_key: object) -> None:
    file = _hand_edited_to_http(rsa_key)
    store = EnvironmentStore()
    prod = store.get("prod")  # still listed: the person must be able to see and fix it
    assert prod.kind is EnvKind.PRODUCTION
    for attempt in (lambda: connect("prod"), lambda: connect(None)):  # by name, or as active
        with pytest.raises(UnusableEnvironmentError) as err:
            attempt()
        message = str(err.value)
        assert "base_url" in message
        assert "must use https" in message
        assert "env edit prod" in message
        assert str(file) in message
    with pytest.raises(UnusableEnvironmentError, match="base_url"):
        prepare_kwargs(prod, rsa_key, "payout")  # type: ignore[arg-type]


def test_send_refuses_a_hand_edited_http_production_address(
    rsa_key: object, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _hand_edited_to_http(rsa_key)
    args = ["send", "payout-check", "--env", "prod", "--yes", "--json"]
    for name, value in example_values("payout-check").items():
        args += ["-f", f"{name}={value}"]
    for extra in ([], ["--key-file", str(key_file)]):
        assert main([*args, *extra]) != 0
        err = capsys.readouterr().err
        assert "cannot be used to send" in err
        assert "base_url" in err
        assert "must use https" in err


# -- safety hole 6: a file that is not UTF-8, or nested too deep ------------------------------

DAMAGED = {
    "not UTF-8": b'{"schema": 1, "environments": [{"name": "caf\xe9"}]}',
    "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("content", DAMAGED.values(), ids=DAMAGED.keys())
def test_a_damaged_file_is_refused_untouched(content: bytes) -> None:
    file = paths.resolve().environments_file
    file.parent.mkdir(parents=True)
    file.write_bytes(content)
    store = EnvironmentStore()
    for action in (store.environments, store.active, lambda: store.set_active("local-sandbox")):
        with pytest.raises(EnvironmentFileError) as err:
            action()
        assert str(file) in str(err.value)
        assert "move it away" in str(err.value)
    assert file.read_bytes() == content


@pytest.mark.parametrize("content", DAMAGED.values(), ids=DAMAGED.keys())
def test_the_command_line_says_where_the_damaged_file_is(
    content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    file = paths.resolve().environments_file
    file.parent.mkdir(parents=True)
    file.write_bytes(content)
    add = ["env", "add", "sb", "--kind", "sandbox", "--base-url", "https://sb.example/paynet",
           "--login", "m", "--endpoint-id", "1"]  # fmt: skip
    for argv in (["env", "list"], add, ["keys", "show", "--env", "sb"]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert str(file) in err
        assert "is damaged" in err
        assert "Traceback" not in err
    assert file.read_bytes() == content


# -- safety hole 5: many `env add` at the same time -------------------------------------------


def test_parallel_adds_all_stay(tmp_path: Path) -> None:
    home = tmp_path / "shared-profile"
    env = {**os.environ, paths.HOME_ENV: str(home)}
    count = 20
    add = ["-m", "console", "env", "add", "--kind", "sandbox", "--login", "m",
           "--base-url", "https://sb.example/paynet", "--endpoint-id", "1"]  # fmt: skip
    procs = [
        subprocess.Popen(
            [sys.executable, *add, f"e{i:02d}"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(count)
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * count, [err for _, err in outputs]
    assert sum(out.count("Added") for out, _ in outputs) == count
    stored = EnvironmentStore(paths.resolve(home)).names()
    assert stored == ["local-sandbox", *(f"e{i:02d}" for i in range(count))]
