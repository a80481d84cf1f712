"""The sandbox and the signature lab agree on requests other people's code signed.

Each request of the independent clients' corpus (tests/clients) goes to a running sandbox
byte for byte over a socket. The sandbox checks it with its own code; the lab, given the
same bytes as a curl line, must call valid exactly what the sandbox accepts (a field sent
twice passes the signature check but is refused with validation error 150), and the
sandbox's 403 log must carry the lab's verdict with the same mistake codes.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.siglab.curl import parse_curl
from console.core.siglab.diagnose import diagnose
from console.core.siglab.mistakes import NOTES
from console.core.siglab.received import from_capture
from console.sandbox import SandboxHandle
from tests.clients.corpus import CLIENTS, cases_of, require
from tests.clients.sandbox import sandbox_answer
from tests.clients.wire import Target


@pytest.mark.parametrize("client", CLIENTS)
def test_the_sandbox_accepts_what_the_lab_calls_valid_and_logs_its_verdict(
    sandbox: SandboxHandle,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
    client: str,
) -> None:
    require(client)
    demo = sandbox.demo
    target = Target(
        sandbox.base_url, demo.endpoint_id, demo.endpoint_group_id, demo.login, int(time.time())
    )
    disagree = []
    ids = (demo.endpoint_id, demo.endpoint_group_id)
    for case in cases_of(client, target, rsa_key, other_rsa_key, tmp_path):
        verdict = diagnose(
            from_capture(parse_curl(case.wire.curl())),
            rsa_key.public_key(),
            now=time.time(),
            ids=ids,
        )
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="console.sandbox"):
            accepted, status, answer = sandbox_answer(sandbox, case)
        if accepted != verdict.valid or verdict.valid != (not case.expect):
            disagree.append(f"{case.name}: sandbox {answer}, lab {verdict.codes}")
            continue
        if status == 403:
            log = caplog.text
            named = [f"({code})" for code in set(verdict.codes) - NOTES]
            if "signature lab: invalid" not in log or not all(n in log for n in named):
                disagree.append(f"{case.name}: the 403 log lacks {named}: {log[-600:]}")
        elif not accepted and status != 200:
            assert status == 415, (case.name, status)  # a JSON body, refused before the check
    assert not disagree, "\n".join(disagree)
