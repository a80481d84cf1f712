"""The language runtimes that generated programs run on, and why one is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NEWMAN = Path(__file__).parents[1] / "clients" / "newman" / "node_modules" / ".bin" / "newman"
BRU = Path(__file__).parents[1] / "clients" / "bruno" / "node_modules" / ".bin" / "bru"
PRISM = Path(__file__).parents[1] / "clients" / "prism" / "node_modules" / ".bin" / "prism"
# The OpenAPI client generators and what their clients need, in a virtual environment of
# their own (tests/clients/openapi_generators/requirements.txt, pinned).
GENERATORS = Path(__file__).parents[1] / "clients" / "openapi_generators" / "venv" / "bin"

# How each language's program is run from its folder (the file named by exports.file_name).
COMMANDS: dict[str, list[str]] = {
    "python": [sys.executable],
    "node": ["node"],
    "php": ["php"],
    # each program runs for a second: the quick JIT tier and the serial collector spend
    # about half the CPU a default JVM spends starting (the program runs the same)
    "java": ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"],
    "go": ["go", "run"],
}


def missing(language: str) -> str | None:
    """Why ``language``'s programs cannot run here, or None."""
    tool = COMMANDS[language][0]
    if language != "python" and shutil.which(tool) is None:
        return f"{tool} is not installed (.ci/run installs it from Debian's packages)"
    if language == "php":
        modules = subprocess.run(["php", "-m"], capture_output=True, text=True, timeout=30)
        for ext in ("curl", "openssl"):
            if ext not in modules.stdout.split():
                return f"PHP's {ext} extension is not installed (apt-get install php-{ext})"
    return None


def require(language: str) -> None:
    """Skip the calling test, with the reason, when ``language`` cannot run here."""
    reason = missing(language)
    if reason:
        pytest.skip(reason)


def require_newman() -> None:
    """Skip, with the reason, when newman cannot run here."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed: newman needs it")
    if not NEWMAN.exists():
        pytest.skip("newman is not installed: run npm ci in tests/clients/newman")


def require_bru() -> None:
    """Skip, with the reason, when Bruno's runner cannot run here."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed: Bruno's runner needs it")
    if not BRU.exists():
        pytest.skip("Bruno's runner is not installed: run npm ci in tests/clients/bruno")


def _skip_unless_ci(reason: str) -> None:
    """Skip with ``reason``; under CI (which installs these tools) fail instead."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run this: {reason}")
    pytest.skip(reason)


def require_prism() -> None:
    """Skip, with the reason, when Prism cannot run here (fail under CI)."""
    if shutil.which("node") is None:
        _skip_unless_ci("node is not installed: Prism needs it")
    if not PRISM.exists():
        _skip_unless_ci("Prism is not installed: run npm ci in tests/clients/prism")


def require_generator(name: str) -> None:
    """Skip, with the reason, when the OpenAPI client generator ``name`` (its command in the
    generators' environment) cannot run here (fail under CI)."""
    if not (GENERATORS / name).exists():
        _skip_unless_ci(
            f"{name} is not installed: python3 -m venv tests/clients/openapi_generators/venv "
            "and pip install -r tests/clients/openapi_generators/requirements.txt into it"
        )
    if name == "openapi-generator-cli" and shutil.which("java") is None:
        _skip_unless_ci("java is not installed: openapi-generator needs it")
