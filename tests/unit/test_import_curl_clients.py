"""``import-curl`` round trips on requests other people's code signed: for each request of
the independent clients' corpus, the ``send`` line it prints sends a request whose base
string is the line's (nonce and timestamp aside), or it prints none and says why; what it
could not carry over is said."""

from __future__ import annotations

import shlex
import time
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core.siglab.curl import parse_curl
from console.core.siglab.received import Received, from_capture, from_wire
from console.core.siglab.variants import correct
from tests.clients.corpus import CLIENTS, cases_of, require
from tests.clients.wire import Case, Target
from tests.helpers.http_server import Received as Captured
from tests.helpers.http_server import Reply, serve

ANSWER = b"type=async-response\nserial-number=1\nmerchant-order-id=x\ngateway-order-id=7\n"


def _import(capsys: pytest.CaptureFixture[str], case: Case) -> tuple[list[str] | None, str]:
    assert main(["import-curl", "--curl", case.wire.curl(), "--reveal"]) == 0
    out = capsys.readouterr().out
    if "No send line" in out:
        return None, out
    line = out.split("Send it signed by the console:\n", 1)[1].strip()
    return shlex.split(line), out


def _as_console_signs(original: Received, console: Received) -> Received:
    """The original request with the console's own oauth parameters (nonce, timestamp,
    method, version: the console signs for itself) but the original's consumer key."""
    login = original.oauth_value("oauth_consumer_key") or ""
    oauth = tuple((n, login if n == "oauth_consumer_key" else v) for n, v in console.oauth)
    return replace(original, oauth=oauth)


@pytest.mark.parametrize("client", CLIENTS)
def test_the_printed_send_line_sends_the_same_base_string_or_says_why_not(
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    key_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    client: str,
) -> None:
    require(client)
    target = Target("https://gateway.example:8443/paynet", "1001", "2001", "demo", int(time.time()))
    wrong, sent, refused = [], 0, 0
    with serve(lambda _r: Reply(200, ANSWER, {"Content-Type": "text/html"})) as server:
        for case in cases_of(client, target, rsa_key, other_rsa_key, tmp_path):
            words, out = _import(capsys, case)
            if words is None:
                refused += 1
                reasons = out.split("No send line", 1)[1].strip().splitlines()[1:]
                if not reasons or not all(r.strip() for r in reasons):
                    wrong.append(f"{case.name}: no send line and no reason")
                continue
            assert words[:2] == ["gateway-console", "send"]
            printed = words[words.index("--base-url") + 1]
            parts = urlsplit(printed)
            words[words.index("--base-url") + 1] = server.url + parts.path
            words[words.index("KEY.pem")] = str(key_file)
            before = len(server.received)
            code = main([*words[1:], "--timeout", "5"])
            capsys.readouterr()
            if len(server.received) == before:
                wrong.append(f"{case.name}: the send line sent nothing (exit {code})")
                continue
            sent += 1
            got: Captured = server.received[-1]
            path, _, query = got.path.partition("?")
            console = from_wire(
                "POST",
                parts.scheme,
                parts.netloc,
                path,
                query.encode(),
                got.headers["Authorization"],
                got.body,
            )
            original = from_capture(parse_curl(case.wire.curl()))
            if correct(console) != correct(_as_console_signs(original, console)):
                wrong.append(f"{case.name}: another base string was sent")
    assert not wrong, "\n".join(wrong)
    assert sent + refused > 0
    print(f"\n{client}: {sent} sent with the same base string, {refused} refused with reasons")
