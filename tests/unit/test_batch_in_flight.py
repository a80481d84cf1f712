"""``batch run --concurrency N`` has N rows at the gateway at once: the journal's pending
rows and the double-payout guard let each row go while the others wait for their answers.

A real HTTP server on 127.0.0.1 holds every request until ``N`` of them have arrived (a
barrier); rows sent one after another would never meet there and the batch would fail.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from console.cli import main
from console.core import batch as core
from tests.helpers.batch_files import card_row, write_csv
from tests.helpers.http_server import Received, Reply, serve
from tests.helpers.team import FORM, accepted


def _order(request: Received) -> str:
    return dict(p.split("=", 1) for p in request.body.decode().split("&"))["client_orderid"]


@pytest.mark.parametrize("in_flight", [8, 16])
def test_a_batch_has_as_many_rows_at_the_gateway_as_its_concurrency(
    in_flight: int, tmp_path: Path, key_file: Path
) -> None:
    together = threading.Barrier(in_flight, timeout=20)

    def gateway(request: Received) -> Reply:
        together.wait()  # raises (a 500: the batch stops) unless N rows are here at once
        return Reply(200, accepted(_order(request)), FORM)

    ids = [f"f{in_flight}-{n}" for n in range(2 * in_flight)]
    path = write_csv(tmp_path / "pay.csv", [card_row(i) for i in ids])
    with serve(gateway) as server:
        status = main(
            ["batch", "run", str(path), "--base-url", server.url, "--login", "demo",
             "--endpoint-id", "1001", "--key-file", str(key_file),
             "--concurrency", str(in_flight)]
        )  # fmt: skip
        received = sorted(_order(r) for r in server.received)
    assert status == 0
    assert received == sorted(ids)  # every row once
    results = core.results_path(path).read_text(encoding="utf-8")
    assert results.count(",accepted,") == len(ids)


def test_more_rows_at_once_than_sixteen_is_refused_with_the_range(
    tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_csv(tmp_path / "pay.csv", [card_row("x-1")])
    with pytest.raises(SystemExit) as exited:
        main(
            ["batch", "run", str(path), "--base-url", "http://127.0.0.1:9", "--login", "demo",
             "--endpoint-id", "1001", "--key-file", str(key_file), "--concurrency", "17"]
        )  # fmt: skip
    assert exited.value.code == 2
    assert "1 to 16" in capsys.readouterr().err
