"""A sandbox environment's test-data hint (shown under the payout form of a remote sandbox
as the window is built) reads the sandbox's tables without loading the local sandbox's
server, its HTTP stack and its key generation: those are a fifth of a second of start-up."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import sys
from console.ui.forms.sandbox_hints import hint_for
hint = hint_for("payout-check", "sandbox")
assert hint is not None and "CVV2" in hint.full, hint
loaded = sorted(m for m in ("console.sandbox.server", "console.sandbox.app", "http.server",
    "cryptography.hazmat.primitives.asymmetric.rsa") if m in sys.modules)
print(",".join(loaded))
"""


def test_a_sandbox_hint_does_not_load_the_sandbox_server() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "", out.stdout


def test_the_sandbox_is_still_started_by_its_package_name() -> None:
    from console.sandbox import SandboxHandle, start_sandbox

    with start_sandbox(callback_delay=0) as handle:
        assert isinstance(handle, SandboxHandle)
        assert handle.base_url.endswith("/paynet")


FIRST_PICTURE = """
import os, sys, tempfile
os.environ["GATEWAY_CONSOLE_HOME"] = tempfile.mkdtemp()
from console.core.paths import resolve
from console.ui.app import build_window, make_app
make_app()
window = build_window(resolve())  # the first run's payout form, on the built-in sandbox
assert "CVV2 123 approved" in window.form.hint.text(), window.form.hint.text()
print(",".join(sorted(m for m in ("console.sandbox.seeds", "hashlib") if m in sys.modules)))
window.show_command("create-card-ref")  # its hint: the seeded first payments
assert "first-payment-1" in window.form.hint.text(), window.form.hint.text()
print("console.sandbox.seeds" in sys.modules)
"""


def test_the_first_picture_reads_only_the_sandbox_outcome_tables() -> None:
    # the payout form's hint names the test card's CVV2 outcomes; the seeded first payments
    # (records, ids and state of the sandbox, about 10 ms of start) load with their form
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(
        [sys.executable, "-c", FIRST_PICTURE],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env=env,
    )
    assert out.stdout.splitlines() == ["", "True"], out.stdout
