"""The corpus: requests signed by independent clients, each correct or with a classic mistake.

Clients: Python oauthlib and requests-oauthlib (test dependencies), Node's ``oauth-1.0a``
(``npm ci`` in tests/clients/node), PHP with ``openssl_sign`` (``php``), bash with openssl,
and two written by hand after the lab, against which it was not written: Go's standard
library (crypto/rsa, net/url; ``go``) and Java's (java.security.Signature, URLEncoder;
a JDK). A client that is not installed is skipped with the reason (:func:`missing`), except
Go and Java when ``CI`` is set: CI installs them, so their absence there is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.clients.python_clients import oauthlib_cases, requests_oauthlib_cases
from tests.clients.wire import Case, Target, WireRequest

HERE = Path(__file__).parent
CLIENTS = (
    "oauthlib",
    "requests-oauthlib",
    "node-oauth-1.0a",
    "php-openssl",
    "bash-openssl",
    "go-stdlib",
    "java-stdlib",
)
# clients the lab was not written against (the "fresh set")
FRESH = ("go-stdlib", "java-stdlib")
_TOOLS = {"go-stdlib": ("go",), "java-stdlib": ("java",)}


def missing(client: str) -> str | None:
    """Why ``client`` cannot run here, or None."""
    if client == "node-oauth-1.0a":
        if shutil.which("node") is None:
            return "node is not installed"
        if not (HERE / "node" / "node_modules" / "oauth-1.0a").is_dir():
            return "oauth-1.0a is not installed: run npm ci in tests/clients/node"
    if client == "php-openssl" and shutil.which("php") is None:
        return "php is not installed (apt-get install php-cli)"
    for tool in _TOOLS.get(client, ()):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install golang-go default-jdk-headless)"
    if client == "bash-openssl":
        for tool in ("bash", "openssl", "jq", "od"):
            if shutil.which(tool) is None:
                return f"{tool} is not installed"
    return None


def require(client: str) -> None:
    """Skip the calling test, with the reason, when ``client`` cannot run here."""
    reason = missing(client)
    if reason and client in FRESH and os.environ.get("CI"):
        pytest.fail(f"{client}: {reason}; CI must have it")
    if reason:
        pytest.skip(reason)


def write_keys(folder: Path, key: rsa.RSAPrivateKey, other: rsa.RSAPrivateKey) -> tuple[Path, Path]:
    """The two private keys as PKCS#1 PEM files (the form openssl and PHP read)."""
    paths = []
    for name, k in (("key.pem", key), ("other.pem", other)):
        path = folder / name
        path.write_bytes(
            k.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.TraditionalOpenSSL,
                serialization.NoEncryption(),
            )
        )
        paths.append(path)
    return paths[0], paths[1]


def _script(command: list[str], t: Target, keys: tuple[Path, Path], client: str) -> list[Case]:
    config = {
        "base": t.base,
        "endpoint": t.endpoint,
        "group": t.group,
        "login": t.login,
        "now": t.now,
        "key": str(keys[0]),
        "other_key": str(keys[1]),
    }
    env = {**os.environ, "LC_ALL": "C"}
    done = subprocess.run(
        [*command, json.dumps(config)], capture_output=True, text=True, timeout=180, env=env
    )
    if done.returncode != 0:
        raise RuntimeError(f"{client} failed: {done.stderr[-2000:]}")
    cases = []
    for line in done.stdout.splitlines():
        if line.strip():
            item = json.loads(line)
            expect = frozenset(item["expect"])
            cases.append(Case(client, item["name"], expect, WireRequest.from_json(item)))
    return cases


def cases_of(
    client: str, t: Target, key: rsa.RSAPrivateKey, other: rsa.RSAPrivateKey, folder: Path
) -> list[Case]:
    """The requests ``client`` makes for target ``t`` (keys written to ``folder``)."""
    if client == "oauthlib":
        return oauthlib_cases(t, key, other)
    if client == "requests-oauthlib":
        return requests_oauthlib_cases(t, key)
    keys = write_keys(folder, key, other)
    command = {
        "node-oauth-1.0a": ["node", str(HERE / "node" / "sign.js")],
        "php-openssl": ["php", str(HERE / "php" / "sign.php")],
        "bash-openssl": ["bash", str(HERE / "bash" / "sign.sh")],
        "go-stdlib": ["go", "run", str(HERE / "go" / "sign.go")],
        "java-stdlib": ["java", str(HERE / "java" / "Sign.java")],
    }[client]
    return _script(command, t, keys, client)
