"""The log file: where it goes, rotation, and that card data and secrets never reach it."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from hypothesis import given, settings
from hypothesis import strategies as st

from console import __version__
from console.core import logs, paths

PAN = "4444444444444448"
MASKED_PAN = "444444******4448"

log = logging.getLogger("console.test_logs")


@pytest.fixture
def log_file() -> Iterator[Path]:
    """The console's log set up as at start-up; removed again afterwards."""
    level = logging.getLogger().level
    path = logs.configure()
    assert path is not None
    yield path
    logs.unconfigure()
    logging.getLogger().setLevel(level)


def written(path: Path) -> str:
    for handler in logging.getLogger().handlers:
        handler.flush()
    return path.read_text(encoding="utf-8")


def test_configure_writes_to_the_profile_log_file_with_a_startup_line(log_file: Path) -> None:
    assert log_file == paths.resolve().log_file
    text = written(log_file)
    assert "starting: Python" in text
    assert __version__ in text
    assert "Resources: all" in text


def test_nothing_is_configured_at_import(tmp_path: Path) -> None:
    probe = "import logging, console.core.logs; print(logging.getLogger().handlers)"
    env = dict(os.environ, GATEWAY_CONSOLE_HOME=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout.strip() == "[]"
    assert not any(tmp_path.iterdir())


def test_card_number_and_cvv2_are_masked_in_the_file(log_file: Path) -> None:
    log.info("sending body credit_card_number=%s&cvv2=123&amount=10.00", PAN)
    log.warning("params %s", [("credit_card_number", "4444 4444 4444 4448"), ("cvv2", "1234")])
    text = written(log_file)
    assert PAN not in text
    assert "4444 4444 4444 4448" not in text
    assert "cvv2=123" not in text
    assert "'1234'" not in text
    assert f"credit_card_number={MASKED_PAN}&cvv2=***&amount=10.00" in text
    assert "('cvv2', '***')" in text


def test_a_card_number_in_a_traceback_is_masked(log_file: Path) -> None:
    try:
        raise ValueError(f"gateway rejected credit_card_number={PAN}, cvv2=987")
    except ValueError:
        log.exception("request failed")
    text = written(log_file)
    assert "Traceback" in text
    assert "ValueError" in text
    assert PAN not in text
    assert "987" not in text


def test_private_keys_never_reach_the_file(log_file: Path, rsa_key: rsa.RSAPrivateKey) -> None:
    pem = rsa_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    body_line = pem.splitlines()[1]
    log.info("loaded key %s", pem)
    log.info("repr of the key text %r", pem[:200])  # cut off before its END line
    text = written(log_file)
    assert body_line not in text
    assert pem[40:80] not in text
    assert "PRIVATE KEY-----" not in text
    assert text.count(logs.PEM_PLACEHOLDER) == 2


def test_authorization_header_and_passphrases_are_redacted(log_file: Path) -> None:
    header = 'OAuth oauth_consumer_key="merchant", oauth_signature="c2lnbmF0dXJl"'
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Authorization": header}
    log.info("headers %s", headers)
    log.info("passphrase=hunter2 merchant_control=B1E2C3")
    text = written(log_file)
    for secret in ("c2lnbmF0dXJl", "hunter2", "B1E2C3"):
        assert secret not in text
    assert "'Content-Type': 'application/x-www-form-urlencoded'" in text
    assert "'Authorization': '[redacted]'" in text


def test_ordinary_text_is_left_alone(log_file: Path) -> None:
    message = "payout-check client_orderid=hf-1 amount=10.50 currency=EUR answered 200 in 0.31 s"
    log.info(message)
    assert message in written(log_file)


@pytest.mark.parametrize(
    "message",
    [
        "validation-error 109 for payout-check: The card details credit_card_number, "
        "card_printed_name, expire_month and expire_year go together",
        "cvv2: cvv2 must contain digits only (Numeric)",
        "credit_card_number: credit_card_number fails the card number check digit (Luhn)",
    ],
)
def test_field_names_in_plain_words_are_not_masked_as_card_data(
    log_file: Path, message: str
) -> None:
    # A sentence naming the card fields carries no card data: the next word must survive.
    log.info(message)
    assert message in written(log_file)


def test_records_from_other_libraries_are_redacted_too(log_file: Path) -> None:
    logging.getLogger("urllib3.connectionpool").warning("POST /x body=%s", "cvv2%3D321%26a%3D1")
    text = written(log_file)
    assert "cvv2%3D***%26a%3D1" in text


def test_reconfiguring_does_not_duplicate_lines(log_file: Path) -> None:
    logs.configure()
    log.info("only once please")
    assert written(log_file).count("only once please") == 1


def test_the_log_rotates_and_keeps_a_bounded_number_of_files() -> None:
    path = logs.configure(max_bytes=2_000, backup_count=2)
    assert path is not None
    try:
        for n in range(200):
            log.info("line %04d %s", n, "x" * 60)
    finally:
        logs.unconfigure()
    names = sorted(p.name for p in path.parent.iterdir())
    assert names == [path.name, f"{path.name}.1", f"{path.name}.2"]
    assert all(p.stat().st_size <= 2_000 for p in path.parent.iterdir())
    assert "line 0199" in path.read_text(encoding="utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_only_the_owner_can_read_the_log(log_file: Path) -> None:
    assert stat.S_IMODE(os.stat(log_file).st_mode) == 0o600


def test_an_unwritable_log_folder_does_not_stop_the_console(
    capsys: pytest.CaptureFixture[str],
) -> None:
    blocker = paths.resolve().log_dir
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("a file where the log folder should be")
    assert logs.configure() is None
    assert "no log file" in capsys.readouterr().err
    logging.getLogger("console").info("still fine")


def luhn_complete(prefix: str) -> str:
    digits = [int(d) for d in prefix]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 0:
            d *= 2
            d = d - 9 if d > 9 else d
        total += d
    return prefix + str((10 - total % 10) % 10)


@settings(max_examples=100, deadline=None)
@given(
    prefix=st.text("0123456789", min_size=12, max_size=18),
    cvv=st.text("0123456789", min_size=3, max_size=4),
    shape=st.sampled_from(["form", "spaced", "dashed", "encoded", "double", "json", "tuple"]),
)
def test_redact_never_leaves_a_full_card_number_or_cvv(prefix: str, cvv: str, shape: str) -> None:
    pan = luhn_complete(prefix)
    spaced = " ".join(pan[i : i + 4] for i in range(0, len(pan), 4))
    text = {
        "form": f"credit_card_number={pan}&cvv2={cvv}",
        "spaced": f"credit-card-number={spaced.replace(' ', '')}&cvv2={cvv} card {spaced}",
        "dashed": f"card {spaced.replace(' ', '-')} cvv2: {cvv}",
        "encoded": quote(f"credit_card_number={spaced}&cvv2={cvv}", safe=""),
        "double": quote(quote(f"credit_card_number={spaced}&cvv2={cvv}", safe=""), safe=""),
        "json": f'{{"credit_card_number": "{spaced}", "cvv2": "{cvv}"}}',
        "tuple": f"[('credit_card_number', '{spaced}'), ('cvv2', '{cvv}')]",
    }[shape]
    out = logs.redact(text)
    # Read the output as a person would after decoding it: digits and masks only.
    readable = "".join(c for c in unquote(unquote(out)) if c.isdigit() or c == "*")
    assert pan not in readable
    assert pan[:6] + "*" * (len(pan) - 10) + pan[-4:] in readable
    for leaked in (f"cvv2={cvv}", f"'{cvv}'", f'"{cvv}"', f"cvv2: {cvv}", f"cvv2%3D{cvv}"):
        assert leaked not in out
