"""Twenty console processes send the same client_orderids at once, through five spellings of
one gateway: exactly one request per id reaches the gateway, and every other process is told
why (accepted before, or on its way right now), never "outcome unknown".

The gateway here accepts every request, duplicates too, and answers slowly: only the
console's own guard stands between a second process and a second payout.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from console.cli import main
from console.cli.failures import EXIT_ALREADY_ACCEPTED, EXIT_IN_FLIGHT, EXIT_OK
from tests.helpers.http_server import Received, Reply, serve

FORM = {"Content-Type": "text/html;charset=utf-8"}
PROCESSES = 20
ROUNDS = 10
ROOT = Path(__file__).resolve().parents[2]

# One process: sends ids dup-0 ... dup-9 in turn, one spelling of the gateway, and prints
# "RESULT <id> <exit status>" for each.
_SENDER = """
import sys
from console.cli import main
from console.core.spec import example_values

key_file, rounds, *spelling = sys.argv[1:]
fields = []
for name, value in example_values("payout-check").items():
    if name != "client_orderid":
        fields += ["-f", f"{name}={value}"]
for n in range(int(rounds)):
    order = f"dup-{n}"
    code = main(["send", "payout-check", *spelling, "--key-file", key_file, *fields,
                 "-f", f"client_orderid={order}"])
    print("RESULT", order, code, flush=True)
"""


def _spellings(port: int) -> list[list[str]]:
    """Five ways to name one gateway: two environments with the same settings and three
    spellings of its address on the command line."""
    options = ["--login", "merchant", "--endpoint-id", "1001"]
    return [
        ["--env", "sbx"],
        ["--env", "sbx-again"],
        ["--base-url", f"http://127.0.0.1:{port}", *options],
        ["--base-url", f"http://localhost:{port}/", *options],
        ["--base-url", f"HTTP://LocalHost:{port}//", *options],
    ]


def test_twenty_processes_put_each_order_id_on_the_wire_once(key_file: Path) -> None:
    arrived: collections.Counter[str] = collections.Counter()
    lock = threading.Lock()

    def gateway(request: Received) -> Reply:
        order = dict(parse_qsl(request.body.decode())).get("client_orderid", "?")
        with lock:
            arrived[order] += 1
            n = arrived[order]
        body = f"type=async-response\n&merchant-order-id={order}\n&gateway-order-id={n}\n"
        return Reply(200, body.encode(), FORM, delay=0.3)

    with serve(gateway) as server:
        for name in ("sbx", "sbx-again"):
            assert main(["env", "add", name, "--kind", "sandbox", "--base-url", server.url,
                         "--login", "merchant", "--endpoint-id", "1001"]) == 0  # fmt: skip
        spellings = _spellings(server.port)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        children = [
            subprocess.Popen(
                [sys.executable, "-c", _SENDER, str(key_file), str(ROUNDS), *spellings[i % 5]],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=ROOT,
                text=True,
            )
            for i in range(PROCESSES)
        ]
        said = [child.communicate(timeout=300) for child in children]

    codes: dict[str, list[int]] = collections.defaultdict(list)
    for out, err in said:
        for line in out.splitlines():
            if not line.startswith("RESULT "):
                continue
            _, order, code = line.split()
            codes[order].append(int(code))
        assert "Traceback" not in err
    assert sorted(codes) == [f"dup-{n}" for n in range(ROUNDS)]
    for order, found in codes.items():
        assert len(found) == PROCESSES, (order, found, said[0][1][-2000:])
        assert found.count(EXIT_OK) == 1, (order, found)
        assert set(found) <= {EXIT_OK, EXIT_ALREADY_ACCEPTED, EXIT_IN_FLIGHT}, (
            order,
            found,
            [e for _, e in said if "journal" in e][:1],
        )
    assert dict(arrived) == {f"dup-{n}": 1 for n in range(ROUNDS)}


@pytest.mark.parametrize(
    "spelling",
    [
        ["--env", "sbx-again"],
        ["--base-url", "{url}/", "--login", "merchant", "--endpoint-id", "1001"],
        ["--base-url", "{localhost}", "--login", "merchant", "--endpoint-id", "1001"],
    ],
    ids=["second-environment", "trailing-slash", "localhost"],
)
def test_an_accepted_id_is_refused_through_another_spelling_of_its_gateway(
    key_file: Path, spelling: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    ok = b"type=async-response\n&merchant-order-id=dup-1\n&gateway-order-id=7\n"
    with serve(lambda r: Reply(200, ok, FORM)) as server:
        for name in ("sbx", "sbx-again"):
            assert main(["env", "add", name, "--kind", "sandbox", "--base-url", server.url,
                         "--login", "merchant", "--endpoint-id", "1001"]) == 0  # fmt: skip
        fields = ["-f", "client_orderid=dup-1", "--key-file", str(key_file)]
        from console.core.spec import example_values

        for name, value in example_values("payout-check").items():
            fields += ["-f", f"{name}={value}"] if name != "client_orderid" else []
        assert main(["send", "payout-check", "--env", "sbx", *fields]) == EXIT_OK
        capsys.readouterr()
        localhost = f"http://localhost:{server.port}"
        again = [s.format(url=server.url, localhost=localhost) for s in spelling]
        assert main(["send", "payout-check", *again, *fields]) == EXIT_ALREADY_ACCEPTED
        assert len(server.received) == 1
    assert "Already sent and accepted" in capsys.readouterr().err


_OPENER = """
from console.core.history import History
try:
    History().close()
    print("opened")
except Exception as exc:
    print(exc)
"""


def test_twenty_consoles_starting_at_once_on_a_new_profile_all_open_the_journal() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _OPENER], stdout=subprocess.PIPE, env=env, cwd=ROOT, text=True
        )
        for _ in range(PROCESSES)
    ]
    said = [child.communicate(timeout=120)[0].strip() for child in children]
    assert said == ["opened"] * PROCESSES


def test_four_batch_runs_of_one_file_at_once_pay_each_row_once(
    key_file: Path, tmp_path: Path
) -> None:
    from tests.helpers.batch_files import card_file

    arrived: collections.Counter[str] = collections.Counter()
    lock = threading.Lock()

    def gateway(request: Received) -> Reply:
        order = dict(parse_qsl(request.body.decode())).get("client_orderid", "?")
        with lock:
            arrived[order] += 1
        body = f"type=async-response\n&merchant-order-id={order}\n&gateway-order-id=1\n"
        return Reply(200, body.encode(), FORM, delay=0.05)

    rows = 20
    path = card_file(tmp_path / "payouts.csv", rows, "row")
    with serve(gateway) as server:
        options = ["--base-url", server.url, "--login", "merchant", "--endpoint-id", "1001"]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        run = [sys.executable, "-m", "console", "batch", "run", str(path), *options]
        children = [
            subprocess.Popen(
                [*run, "--key-file", str(key_file), "--results", str(tmp_path / f"r{n}.csv")],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=ROOT,
                text=True,
            )
            for n in range(4)
        ]
        said = [child.communicate(timeout=300) for child in children]
    assert all("Traceback" not in err for _, err in said), said
    assert dict(arrived) == {f"row-{i}": 1 for i in range(rows)}
