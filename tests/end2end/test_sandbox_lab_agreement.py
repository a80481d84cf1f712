"""The lab and the sandbox agree on every request of the corpus, and the lab names the
mistakes of clients it was not written against.

Each request of every installed client (tests/clients, Go and Java included) goes to a
running sandbox byte for byte; the sandbox's answer is recorded beside the lab's verdict on
the same bytes. The sandbox refuses a request with 403 (authentication), 415 (not a form) or
a validation error for a parameter sent twice or not UTF-8 (150, before the contract's own
checks); the lab must call valid exactly what it takes. Over the mistaken requests, at
least 90% must be named, none named wrongly (a mistake called valid, or a mistake named
that is not there), on the fresh clients alone and on the whole corpus.
"""

from __future__ import annotations

import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.siglab.capture import CaptureError
from console.core.siglab.curl import parse_curl
from console.core.siglab.diagnose import diagnose
from console.core.siglab.received import from_capture
from console.sandbox import SandboxHandle
from tests.clients.corpus import CLIENTS, FRESH, cases_of, missing, require
from tests.clients.sandbox import sandbox_answer
from tests.clients.tally import Tally
from tests.clients.wire import Case, Target


def lab_verdict(
    case: Case, key: rsa.RSAPublicKey, ids: tuple[str, ...]
) -> tuple[bool, frozenset[str]]:
    try:
        received = from_capture(parse_curl(case.wire.curl()))
    except CaptureError:
        return False, frozenset(("unreadable",))
    verdict = diagnose(received, key, now=time.time(), ids=ids)
    return verdict.valid, frozenset(verdict.codes)


def test_the_lab_and_the_sandbox_agree_and_the_lab_names_what_fresh_clients_get_wrong(
    sandbox: SandboxHandle,
    rsa_key: rsa.RSAPrivateKey,
    other_rsa_key: rsa.RSAPrivateKey,
    tmp_path: Path,
) -> None:
    for client in FRESH:
        require(client)
    demo = sandbox.demo
    target = Target(
        sandbox.base_url, demo.endpoint_id, demo.endpoint_group_id, demo.login, int(time.time())
    )
    ids = (demo.endpoint_id, demo.endpoint_group_id)
    tally, disagree = Tally(), []
    for client in CLIENTS:
        if missing(client) is not None:
            continue
        for case in cases_of(client, target, rsa_key, other_rsa_key, tmp_path):
            valid, codes = lab_verdict(case, rsa_key.public_key(), ids)
            accepted, _status, answer = sandbox_answer(sandbox, case)
            tally.add(case, valid, codes, f"sandbox {answer}")
            if accepted != valid:
                disagree.append(f"{case.id}: sandbox {answer}, lab {sorted(codes)}")
    print("\n" + "\n".join(tally.lines))
    print(f"fresh clients ({', '.join(FRESH)}): {tally.summary(FRESH)}")
    print(f"whole corpus: {tally.summary()}")
    assert not disagree, "\n".join(disagree)
    for clients in (FRESH, None):
        total = tally.total(clients)
        assert total["wrongly"] == 0, tally.summary(clients)
        assert total["invalid"] == 0, tally.summary(clients)
        assert tally.named_share(clients) >= 0.9, tally.summary(clients)
