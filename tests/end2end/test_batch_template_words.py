"""A finance person's first batch, as separate processes of the command line: the template's
columns explained, a dry run of the template's rows on the local sandbox that says nothing
about callbacks it cannot make, a repeated warning said once; rp_card_type in plain words;
a missing or unreadable file and an empty --max-total are usage errors."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from console.cli.failures import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from console.core.spec import example_values


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


def _rows_of_template(kind: str, path: Path, count: int, **extra: str) -> Path:
    """``count`` rows of the template's example row, each with its own client_orderid."""
    template = _cli("batch", "template", kind)
    assert template.returncode == EXIT_OK
    header, example = list(csv.reader(template.stdout.splitlines()))
    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow([*header, *extra])
        for n in range(count):
            row = dict(zip(header, example, strict=True)) | {"client_orderid": f"batch-{n:04d}"}
            out.writerow([*row.values(), *extra.values()])
    return path


@pytest.mark.parametrize("kind", ["bank-account", "card", "ewallet"])
def test_explain_says_what_every_column_of_the_template_holds(kind: str) -> None:
    header = _cli("batch", "template", kind).stdout.splitlines()[0].split(",")
    explained = _cli("batch", "template", kind, "--explain")
    assert explained.returncode == EXIT_OK
    lines = explained.stdout.splitlines()
    described = [line.split()[0] for line in lines if line.startswith("  ")]
    assert described == header  # every column, in the file's order
    said = " ".join(explained.stdout.split())
    assert "client_orderid required your own id for this payout" in said
    assert "the three-letter currency code" in said
    assert "add a server_callback_url column with an address of yours" in said


def test_a_dry_run_of_the_template_says_nothing_of_callbacks_it_cannot_make(
    tmp_path: Path,
) -> None:
    path = _rows_of_template("bank-account", tmp_path / "payouts.csv", 50)
    assert "server_callback_url" not in path.read_text(encoding="utf-8").splitlines()[0]
    dry = _cli("batch", "run", str(path), "--dry-run", "sandbox")
    assert dry.returncode == EXIT_OK, dry.stderr
    assert "50 rows in" in dry.stdout
    assert "callback" not in dry.stderr

    checked = _cli("batch", "validate", str(path), "--warnings")
    warned = [line for line in checked.stdout.splitlines() if "Neither server_callback_url" in line]
    assert len(warned) == 1  # one line for the 50 rows
    assert warned[0].endswith("(the same in 50 rows: 2-51)")


def test_one_callback_address_that_cannot_be_called_is_said_once(tmp_path: Path) -> None:
    far = "https://payouts.example/callback"
    path = _rows_of_template("bank-account", tmp_path / "p.csv", 50, server_callback_url=far)
    dry = _cli("batch", "run", str(path), "--dry-run", "sandbox")
    assert dry.returncode == EXIT_OK, dry.stderr
    failed = [line for line in dry.stderr.splitlines() if "failed" in line]
    assert len(failed) == 1, dry.stderr
    assert far in failed[0]
    assert failed[0].endswith("(and 49 more like it)")

    one = _rows_of_template("ewallet", tmp_path / "one.csv", 1)
    assert "1 row in " in _cli("batch", "run", str(one), "--dry-run", "sandbox").stdout


def test_rp_card_type_is_said_in_plain_words(tmp_path: Path) -> None:
    values = example_values("create-recurring-payment")
    values["rp_card_type"] = "SRC"
    values.pop("email", None)
    fields = tmp_path / "profile.json"
    fields.write_text(json.dumps(values), encoding="utf-8")
    checked = _cli("validate", "create-recurring-payment", "--fields-file", str(fields))
    assert checked.returncode == EXIT_INVALID
    said = " ".join((checked.stdout + checked.stderr).split())
    assert "email is required when rp_card_type is SRC (the card is the payer's" in said
    assert "SRC profiles" not in said


def test_a_missing_or_unreadable_file_and_an_empty_limit_are_usage_errors(
    tmp_path: Path,
) -> None:
    missing = _cli("batch", "validate", str(tmp_path / "none.csv"))
    assert missing.returncode == EXIT_USAGE
    assert "cannot read it" in missing.stderr
    latin = tmp_path / "latin1.csv"
    latin.write_bytes("client_orderid,amount\nM\xfcller,1.00\n".encode("latin-1"))
    unreadable = _cli("batch", "validate", str(latin))
    assert unreadable.returncode == EXIT_USAGE
    assert "line 2 is not UTF-8" in unreadable.stderr
    empty = _cli("batch", "limits", "--env", "live", "--max-total", "")
    assert empty.returncode == EXIT_USAGE
    assert "--max-total: give an amount above 0" in empty.stderr
