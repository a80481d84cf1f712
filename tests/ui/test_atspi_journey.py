"""A payout sent with the keyboard only, heard as a screen reader hears it: the console runs
as its own process under Xvfb with Qt's accessibility on, and the system's pyatspi reads the
AT-SPI tree (``atspi_journey.py``, run by /usr/bin/python3 in a D-Bus session of its own).

Skipped where Xvfb, D-Bus, at-spi2-core or pyatspi are missing, except under CI, where
.ci/run installs them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

SYSTEM_PYTHON = "/usr/bin/python3"
JOURNEY = Path(__file__).with_name("atspi_journey.py")


def _missing() -> str:
    for tool in ("Xvfb", "dbus-run-session"):
        if shutil.which(tool) is None:
            return tool
    if not any(
        Path(d, "at-spi-bus-launcher").exists() for d in ("/usr/libexec", "/usr/lib/at-spi2-core")
    ):
        return "at-spi2-core"
    probe = [SYSTEM_PYTHON, "-c", "import pyatspi"]
    if not Path(SYSTEM_PYTHON).exists() or subprocess.run(probe, capture_output=True).returncode:
        return "pyatspi (python3-pyatspi)"
    return ""


@pytest.fixture
def display() -> Iterator[str]:
    """A private X server."""
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{missing} is missing: .ci/run installs it")
        pytest.skip(f"{missing} is not installed")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as numbers:
        number = numbers.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def _journey(display: str, home: Path) -> dict[str, Any]:
    env = dict(
        os.environ,
        DISPLAY=display,  # the accessibility bus's registry sends keys on this server
        GATEWAY_CONSOLE_HOME=str(home),
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",  # the built-in sandbox only
    )
    env.pop("QT_QPA_PLATFORM", None)
    console = [sys.executable, "-m", "console"]
    run = subprocess.run(
        ["dbus-run-session", "--", SYSTEM_PYTHON, str(JOURNEY), *console],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    assert lines, f"the journey said nothing:\n{run.stdout}\n{run.stderr[-3000:]}"
    report: dict[str, Any] = json.loads(lines[-1])
    return report


def test_a_payout_sent_by_keyboard_is_heard(display: str, tmp_path: Path) -> None:
    report = _journey(display, tmp_path)
    assert report["ready"], report
    assert report["summary"].startswith("Ready to send"), report["summary"]
    stops = [s for s in report["steps"] if s]
    assert stops[-1]["name"] == "Skip to Send", [s["name"] for s in stops]
    # every field on the way is read by its visible label, and stood on the screen
    names = [s["name"] for s in stops]
    assert "Card number" in names
    assert "credit_card_number" not in names
    assert all(s["showing"] for s in stops)
    assert all(s["box"] and s["box"][1] >= 0 for s in stops), stops
    assert report["after_skip"]["name"] == "Send"
    # Enter on Send: the cursor stays in sight, on the line where the answer comes
    after = report["after_send"]
    assert after["description"] == "Last outcome"
    assert after["box"][1] >= 0
    # the outcome is in the tree as text, and was announced
    outcome = report["outcome"]
    assert isinstance(outcome, dict), (outcome, report["why_send_is_off"], report["heard"][-8:])
    # accepted, or already the final status the sandbox's callback brought right after
    assert "Accepted" in outcome["name"] or "Final status approved" in outcome["name"], outcome
    assert outcome["description"] == "Last outcome"
    announced = [h["text"] for h in report["heard"] if h["type"] == "object:announcement"]
    assert any("Accepted" in text for text in announced), announced
    why = report["why_send_is_off"]
    assert why
    assert why[0]["name"].startswith("Already sent and accepted")
