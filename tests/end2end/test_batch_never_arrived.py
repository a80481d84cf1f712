"""A row whose send ended unknown and that a status check proves never arrived (the gateway
holds no order for it) is named with its next step, ``--resend-unknown``, not another
"check its status first"; resending it pays it once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from console.cli import main
from console.cli.failures import EXIT_GATEWAY_FAILED, EXIT_OK, EXIT_UNKNOWN
from console.sandbox import SandboxHandle
from tests.helpers.batch_files import card_file
from tests.helpers.sandbox_client import payouts


def test_a_row_a_status_check_proves_never_arrived_is_told_to_go_with_resend_unknown(
    sandbox: SandboxHandle,
    conn: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = card_file(tmp_path / "p.csv", 3, "na")
    sandbox.set_faults("payout-check:500")  # the gateway fails before it processes the row
    assert main(["batch", "run", str(path), *conn]) == EXIT_GATEWAY_FAILED
    sandbox.set_faults(None)
    assert payouts(sandbox) == Counter()
    capsys.readouterr()

    assert main(["batch", "status", str(path), *conn, "--check"]) == EXIT_UNKNOWN
    said = " ".join(capsys.readouterr().out.split())
    assert (
        "row 2 na-0: the gateway holds no order for it: it never arrived. Send it again, with "
        "the same client_orderid, by running the batch with --resend-unknown"
    ) in said

    assert main(["batch", "run", str(path), *conn, "--resend-unknown"]) == EXIT_OK
    assert payouts(sandbox) == Counter({"na-0": 1, "na-1": 1, "na-2": 1})
