"""Running an exported Postman collection with newman, Postman's command-line runner."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from tests.helpers.runtimes import NEWMAN


def run_newman(collection: Path, environment: Path, report: Path) -> dict[str, Any]:
    """``newman run`` the collection with the environment; the JSON report's ``run``.

    Fails the calling test, with newman's own output, when newman exits non-zero (a request
    failed or a test in the collection did not pass).
    """
    done = subprocess.run(
        [
            str(NEWMAN),
            "run",
            str(collection),
            "--environment",
            str(environment),
            "--reporters",
            "cli,json",
            "--reporter-json-export",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "NO_PROXY": "127.0.0.1,localhost"},
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    run: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))["run"]
    return run
